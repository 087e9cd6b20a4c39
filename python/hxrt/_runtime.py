"""The runtime behind the module's functions: the default one, made on first use as
TensorFlow's is, or one made explicitly with a JSON config.

Making a runtime loads the plugins; its devices are set up on the first op, tensor or device
query, after which the device configuration is fixed (hxrt.config says so in TensorFlow's
words).
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

import atexit
import threading

from hxrt import _hxrt

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable

    from hxrt._device import DeviceFunction, DeviceFunctionScope, DeviceScope

_default = None
_default_lock = threading.Lock()


class Runtime:
    """A runtime: its plugins, devices and kernels.

    ``Runtime(config="hxrt.json")`` reads a JSON config (docs/configuration.md); with no
    config, ``$HXRT_CONFIG`` if set, else the defaults. ``plugin_paths`` adds plugin files or
    folders to the installed plugins (which ``use_installed_plugins=False`` leaves out).
    """

    def __init__(self, config: str | os.PathLike[str] | None = None,
                 plugin_paths: Iterable[str | os.PathLike[str]] = (),
                 use_installed_plugins: bool = True, log_level: str | None = None) -> None:
        self._native = _hxrt.Runtime.create(
            config=str(config) if config else "", plugin_paths=[str(p) for p in plugin_paths],
            use_installed_plugins=use_installed_plugins, log_level=log_level)
        self._ops: dict[str, _hxrt.Op] = {}

    @property
    def native(self) -> _hxrt.Runtime:
        """The extension's runtime object (hxrt._hxrt.Runtime)."""
        return self._native

    def op(self, name: str) -> _hxrt.Op:
        """The op called `name` ("MatMul"), looked up once and kept."""
        found = self._ops.get(name)
        if found is None:
            found = self._ops[name] = self._native.op(name)
        return found

    def load_report(self) -> list[_hxrt.PluginReport]:
        """Each plugin file tried at start-up (PluginReport: path, loaded, reason, name,
        version, device_type, device_count, note), as hxrt-info lists them."""
        return self._native.load_report()

    def cluster(self) -> _hxrt.ClusterInfo:
        """The cluster this process is a task of (started by mpirun): ClusterInfo (in_cluster,
        task, rank, tasks, mpi_library); outside one, a cluster of this task alone."""
        return self._native.cluster()

    def ops(self) -> list[_hxrt.OpInfo]:
        """Every op the runtime has, core ops and plugins' custom ops, with kernels."""
        return self._native.ops()

    def device(self,
               name_or_function: str | DeviceFunction) -> DeviceScope | DeviceFunctionScope:
        """A device scope: ``with runtime.device("/GPU:1"): ...`` places the ops called in
        the block, on this thread, on that device (under the soft-placement mode); given a
        function of an op, a device function (hxrt.device)."""
        from hxrt._device import DeviceFunctionScope, DeviceScope

        if callable(name_or_function):
            return DeviceFunctionScope(self._native, name_or_function)
        return DeviceScope(self._native, name_or_function)

    def start_trace(self, path: str | os.PathLike[str]) -> None:
        """Records what runs (ops, copies, graph nodes) until stop_trace(), into a trace that
        Perfetto and chrome://tracing open."""
        self._native.start_trace(str(path))

    def stop_trace(self) -> str:
        """Ends the trace and returns the path it was written to."""
        return self._native.stop_trace()


def default_runtime() -> Runtime:
    """The runtime the module's functions use, made on first use."""
    global _default
    runtime = _default
    if runtime is None:
        with _default_lock:
            if _default is None:
                _default = Runtime()
                # The operators run on it from C++; they let it go before it goes at exit.
                _hxrt._set_default_runtime(_default.native)
                atexit.register(_hxrt._set_default_runtime, None)
            runtime = _default
    return runtime
