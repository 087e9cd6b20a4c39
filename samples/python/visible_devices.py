"""The guide's restriction to the first GPU, then the error of changing it after the GPUs
are initialized.

    4 Physical GPUs, 1 Logical GPU
    Visible devices cannot be modified after being initialized: ...
"""
import hxrt

gpus = hxrt.config.list_physical_devices("GPU")
if gpus:
    # Restrict hxrt to only use the first GPU
    try:
        hxrt.config.set_visible_devices(gpus[0], "GPU")
        logical_gpus = hxrt.config.list_logical_devices("GPU")
        print(len(gpus), "Physical GPUs,", len(logical_gpus), "Logical GPU")
    except RuntimeError as e:
        # Visible devices must be set before GPUs have been initialized
        print(e)

# Initialized by now: the setup is fixed.
try:
    hxrt.config.set_visible_devices(gpus[1], "GPU")
except RuntimeError as e:
    print(e)
