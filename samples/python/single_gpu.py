"""The guide's "Using a single GPU on a multi-GPU system": a device that does not exist is an
error, until soft placement lets the op run where it can.

    ... /job:localhost/replica:0/task:0/device:GPU:7 unknown device. ...
    Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
"""
import hxrt

hxrt.debugging.set_log_device_placement(True)

try:
    # Specify an invalid GPU device
    with hxrt.device("/device:GPU:7"):
        a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        c = hxrt.matmul(a, b)
except RuntimeError as e:
    print(e)

hxrt.config.set_soft_device_placement(True)

# Creates some tensors
with hxrt.device("/device:GPU:7"):
    a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    c = hxrt.matmul(a, b)

print(c)
