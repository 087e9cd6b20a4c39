"""The guide's "Limiting GPU memory growth", second option: a logical device of 1 GiB on the
first GPU.

    4 Physical GPUs, 4 Logical GPUs
"""
import hxrt

gpus = hxrt.config.list_physical_devices("GPU")
if gpus:
    # Restrict hxrt to only allocate 1GB of memory on the first GPU
    try:
        hxrt.config.set_logical_device_configuration(
            gpus[0],
            [hxrt.config.LogicalDeviceConfiguration(memory_limit=1024)])
        logical_gpus = hxrt.config.list_logical_devices("GPU")
        print(len(gpus), "Physical GPUs,", len(logical_gpus), "Logical GPUs")
    except RuntimeError as e:
        # Virtual devices must be set before GPUs have been initialized
        print(e)
