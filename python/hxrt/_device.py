"""Device scopes: ``with hxrt.device("/GPU:1"):``, as tf.device is used, and device functions
as the placement chapter writes them: ``with hxrt.device(function):``."""

from __future__ import annotations  # annotations are for type checkers: never evaluated

import threading

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from collections.abc import Callable

    from hxrt._hxrt import OpPlacementInfo

    DeviceFunction = Callable[[OpPlacementInfo], str | None]

_functions: list[DeviceFunction] = []  # the device functions of the open scopes, innermost last
_functions_lock = threading.Lock()


class DeviceScope:
    """Places the ops called in its ``with`` block, on the calling thread, on one device.

    The name is checked when the scope is entered (a malformed one raises
    InvalidArgumentError); whether the device exists is decided per op, under the
    soft-placement mode.
    """

    def __init__(self, native_runtime, name):
        self._native_runtime = native_runtime
        self._name = name
        self._scope = None

    def __enter__(self) -> DeviceScope:
        self._scope = self._native_runtime.device(self._name)
        return self

    def __exit__(self, *exception: object) -> None:
        self._scope.close()
        self._scope = None


class DeviceFunctionScope:
    """Places the ops called in its ``with`` block that no call or device scope places, on
    whichever device `function(op)` names: op.type is the op's name ("MatMul"),
    op.input_dtypes and op.input_devices what it reads; None leaves an op to the placer. The
    function is the runtime's while the block runs, for every thread (as a graph's device
    function is for the whole graph); scopes nest."""

    def __init__(self, native_runtime, function):
        self._native_runtime = native_runtime
        self._function = function

    def __enter__(self) -> DeviceFunctionScope:
        with _functions_lock:
            _functions.append(self._function)
            self._native_runtime.set_placement_function(self._function)
        return self

    def __exit__(self, *exception: object) -> None:
        with _functions_lock:
            _functions.remove(self._function)
            self._native_runtime.set_placement_function(_functions[-1] if _functions else None)


def device(name_or_function: str | DeviceFunction) -> DeviceScope | DeviceFunctionScope:
    """A device scope of the default runtime: ``with hxrt.device("/GPU:1"): ...``, or, given a
    function of an op, a device function: ``with hxrt.device(lambda op: "/CPU:0" if op.type ==
    "Cast" else None): ...``."""
    from hxrt._runtime import default_runtime

    return default_runtime().device(name_or_function)
