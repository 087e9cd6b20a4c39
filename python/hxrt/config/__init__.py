"""The device configuration, as tf.config has it: the physical devices, the ones the runtime
may use, the logical devices it cuts from them, memory growth, soft placement.

The setters work until the runtime is initialized (by its first op, tensor or device query,
as TensorFlow's is); after that they raise RuntimeError with TensorFlow's message, as
``RuntimeError: Visible devices cannot be modified after being initialized``.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

import collections

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    Result = TypeVar("Result")

from hxrt import errors
from hxrt._runtime import default_runtime
from hxrt.config import experimental



class PhysicalDevice(collections.namedtuple("PhysicalDevice", ["name", "device_type"])):
    """A device of a plugin, as tf.config.PhysicalDevice: name "/physical_device:GPU:0",
    device_type "GPU"."""

    __slots__ = ()


class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """A device ops run on, as tf.config.LogicalDevice: name
    "/job:localhost/replica:0/task:0/device:GPU:0", device_type "GPU"."""

    __slots__ = ()


class LogicalDeviceConfiguration(
        collections.namedtuple("LogicalDeviceConfiguration", ["memory_limit"])):
    """One logical device to cut from a physical one; memory_limit in MiB (None: the
    device's share)."""

    __slots__ = ()

    def __new__(cls, memory_limit: int | None = None) -> LogicalDeviceConfiguration:
        return super().__new__(cls, memory_limit)


def _native():
    return default_runtime().native


def fixed_after_initialization(call: Callable[[], Result]) -> Result:
    """Runs call(); a setter refused because the devices are set up raises RuntimeError with
    the runtime's message, as TensorFlow's setters do."""
    try:
        return call()
    except errors.FailedPreconditionError as refused:
        raise RuntimeError(str(refused)) from None


def short_name(device: PhysicalDevice | str) -> str:
    """"GPU:0" of a PhysicalDevice, of "/physical_device:GPU:0", or of "GPU:0"."""
    name = device.name if isinstance(device, PhysicalDevice) else str(device)
    return name.rsplit("physical_device:", 1)[-1]


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The physical devices of the plugins, of one type ("GPU") or all."""
    return [PhysicalDevice(info.name, info.type) for info in _native().physical_devices()
            if device_type is None or info.type == device_type.upper()]


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    """The devices ops run on, of one type or all (initializes the runtime)."""
    return [LogicalDevice(info.name, info.type) for info in _native().devices()
            if device_type is None or info.type == device_type.upper()]


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The physical devices the runtime uses (all of them unless set_visible_devices chose)."""
    used = {info.physical for info in _native().devices()}
    return [device for device in list_physical_devices(device_type)
            if short_name(device) in used]


def set_visible_devices(devices: PhysicalDevice | Sequence[PhysicalDevice],
                        device_type: str | None = None) -> None:
    """Makes only `devices` (a PhysicalDevice or a list of them) usable; with `device_type`,
    the devices of other types stay as they are, as TensorFlow's does."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    names = [short_name(device) for device in devices]
    if device_type is not None:
        names += [short_name(device) for device in list_physical_devices()
                  if device.device_type != device_type.upper()]
    fixed_after_initialization(lambda: _native().set_visible_devices(names))


def set_logical_device_configuration(
        device: PhysicalDevice | str,
        logical_devices: Sequence[LogicalDeviceConfiguration]) -> None:
    """Cuts `device` (a physical GPU) into the logical devices `logical_devices` lists
    (LogicalDeviceConfiguration(memory_limit=MiB) each)."""
    limits = [config.memory_limit for config in logical_devices]
    fixed_after_initialization(
        lambda: _native().set_logical_devices(short_name(device), limits))


def get_logical_device_configuration(
        device: PhysicalDevice | str) -> list[LogicalDeviceConfiguration] | None:
    """The logical devices cut from `device`, as LogicalDeviceConfigurations (None when it is
    one device)."""
    logical = [info for info in _native().devices() if info.physical == short_name(device)]
    return None if len(logical) <= 1 else [LogicalDeviceConfiguration() for _ in logical]


def set_soft_device_placement(enabled: bool) -> None:
    """True: an op asked onto a device without its kernel, or onto a device that does not
    exist, runs on the best device that can run it; False: both are errors."""
    _native().set_soft_placement(bool(enabled))


def get_soft_device_placement() -> bool:
    """Whether ops fall back from a device that cannot run them (the default: for a missing
    kernel, as TensorFlow does)."""
    return _native().soft_placement != "strict"


__all__ = ["PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration", "experimental",
           "list_physical_devices", "list_logical_devices", "get_visible_devices",
           "set_visible_devices", "set_logical_device_configuration",
           "get_logical_device_configuration", "set_soft_device_placement",
           "get_soft_device_placement"]
