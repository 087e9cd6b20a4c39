"""tf.debugging's placement log: one line per op with the device it ran on."""

from __future__ import annotations  # annotations are for type checkers: never evaluated

from hxrt._runtime import default_runtime


def set_log_device_placement(enabled: bool) -> None:
    """Logs each op's device, as "Executing op MatMul in device
    /job:localhost/replica:0/task:0/device:CPU:0", the lines the C++ API prints."""
    default_runtime().native.set_log_device_placement(bool(enabled))


def get_log_device_placement() -> bool:
    """Whether ops log their device."""
    return default_runtime().native.log_device_placement
