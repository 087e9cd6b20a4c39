"""The guide's "Using multiple GPUs": two logical GPUs cut from the first physical one, then the
manual replication of a MatMul on every logical GPU, summed on the CPU.

    4 Physical GPU, 5 Logical GPUs
    Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
    ...
    Executing op AddN in device /job:localhost/replica:0/task:0/device:CPU:0
"""
import hxrt

gpus = hxrt.config.list_physical_devices("GPU")
if gpus:
    # Create 2 virtual GPUs with 1GB memory each
    try:
        hxrt.config.set_logical_device_configuration(
            gpus[0],
            [hxrt.config.LogicalDeviceConfiguration(memory_limit=1024),
             hxrt.config.LogicalDeviceConfiguration(memory_limit=1024)])
        logical_gpus = hxrt.config.list_logical_devices("GPU")
        print(len(gpus), "Physical GPU,", len(logical_gpus), "Logical GPUs")
    except RuntimeError as e:
        # Virtual devices must be set before GPUs have been initialized
        print(e)

hxrt.debugging.set_log_device_placement(True)

gpus = hxrt.config.list_logical_devices("GPU")
if gpus:
    # Replicate your computation on multiple GPUs
    c = []
    for gpu in gpus:
        with hxrt.device(gpu.name):
            a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
            b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
            c.append(hxrt.matmul(a, b))

    with hxrt.device("/CPU:0"):
        matmul_sum = hxrt.add_n(c)

    print(matmul_sum)
