"""The guide's "Logging device placement": which device each op runs on.

    Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
    hxrt.Tensor(
    [[22. 28.]
     [49. 64.]], shape=(2, 2), dtype=float32)

Run on the sim plugin's four GPUs (docs/python.md, "Samples"):
HXRT_CONFIG=samples/python/sim_4_gpus_4gib.json python samples/python/logging_placement.py
"""
import hxrt

hxrt.debugging.set_log_device_placement(True)

# Create some tensors
a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
c = hxrt.matmul(a, b)

print(c)
