"""The guide's "Limiting GPU memory growth", first option: memory growth on every GPU, set
before the GPUs are initialized.

    4 Physical GPUs, 4 Logical GPUs
"""
import hxrt

gpus = hxrt.config.list_physical_devices("GPU")
if gpus:
    try:
        # Currently, memory growth needs to be the same across GPUs
        for gpu in gpus:
            hxrt.config.experimental.set_memory_growth(gpu, True)
        logical_gpus = hxrt.config.list_logical_devices("GPU")
        print(len(gpus), "Physical GPUs,", len(logical_gpus), "Logical GPUs")
    except RuntimeError as e:
        # Memory growth must be set before GPUs have been initialized
        print(e)
