"""The guide's "Manual device placement": a and b made on the CPU, the MatMul where the placer
puts it (the first GPU), its inputs copied there.

    Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
"""
import hxrt

hxrt.debugging.set_log_device_placement(True)

# Place tensors on the CPU
with hxrt.device("/CPU:0"):
    a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

# Run on the GPU
c = hxrt.matmul(a, b)
print(c)
