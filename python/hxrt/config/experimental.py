"""tf.config.experimental's part: memory growth and the memory figures of a device."""

from __future__ import annotations  # annotations are for type checkers: never evaluated

from hxrt._runtime import default_runtime

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from hxrt.config import PhysicalDevice


def set_memory_growth(device: PhysicalDevice | str, enable: bool) -> None:
    """Memory growth for `device` (a PhysicalDevice): take device memory as tensors need it
    rather than a share up front."""
    from hxrt.config import fixed_after_initialization, short_name

    fixed_after_initialization(
        lambda: default_runtime().native.set_memory_growth(short_name(device), bool(enable)))


def get_memory_growth(device: PhysicalDevice | str) -> bool:
    """Whether `device` has memory growth (as its logical devices' policy says)."""
    from hxrt.config import short_name

    policies = [info.memory_policy for info in default_runtime().native.devices()
                if info.physical == short_name(device)]
    return any(policy.startswith("growth") for policy in policies)


def get_memory_info(device: str) -> dict[str, int]:
    """{'current': bytes in use, 'peak': the most in use since start or reset_memory_stats}
    of a logical device ("GPU:0")."""
    stats = default_runtime().native.memory_stats(device)
    return {"current": stats["bytes_in_use"], "peak": stats["peak_bytes_in_use"]}


def reset_memory_stats(device: str) -> None:
    """Resets the peak that get_memory_info reports for `device` to what is in use now."""
    default_runtime().native.reset_peak_memory(device)
