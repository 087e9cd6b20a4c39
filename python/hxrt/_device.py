"""Device scopes: ``with hxrt.device("/GPU:1"):``, as tf.device is used."""


class DeviceScope:
    """Places the ops called in its ``with`` block, on the calling thread, on one device.

    The name is checked when the scope is made (a malformed one raises InvalidArgumentError);
    whether the device exists is decided per op, under the soft-placement mode.
    """

    def __init__(self, native_runtime, name):
        self._native_runtime = native_runtime
        self._name = name
        self._scope = None

    def __enter__(self):
        self._scope = self._native_runtime.device(self._name)
        return self

    def __exit__(self, *exception):
        self._scope.close()
        self._scope = None
        return False


def device(name):
    """A device scope of the default runtime: ``with hxrt.device("/GPU:1"): ...``."""
    from hxrt._runtime import default_runtime

    return DeviceScope(default_runtime().native, name)
