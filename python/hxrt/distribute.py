"""hxrt.distribute: TensorFlow's tf.distribute.MirroredStrategy, for functions of tensors.

    strategy = hxrt.distribute.MirroredStrategy()  # every GPU of every task

    @hxrt.function
    def step(x):
        per_replica = strategy.run(lambda x: hxrt.matmul(x, x), args=(x,))
        return strategy.reduce(hxrt.distribute.ReduceOp.SUM, per_replica)

strategy.run calls a function once per replica, each in a device scope of its replica's
device; strategy.reduce reduces the replicas' values with the AllReduce op. Traced by
hxrt.function they make one graph: in one process the replicas' values are reduced on one
device and copied to each reader's; across the tasks of a cluster (mpirun) each task reduces
its own replicas' and MPI the tasks' (docs/cluster.md). Called eagerly, each replica's ops run
at once on its device.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

from hxrt import _ops
from hxrt._device import device
from hxrt.config import list_logical_devices

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any


class ReduceOp:
    """How strategy.reduce combines the replicas' values: AllReduce's reductions."""

    SUM = "sum"
    MEAN = "mean"
    MAX = "max"
    MIN = "min"


class PerReplica:
    """One value per replica, in the strategy's device order, as strategy.run returns them."""

    __slots__ = ("values",)

    def __init__(self, values: Sequence[Any]) -> None:
        self.values = tuple(values)

    def __repr__(self) -> str:
        return f"PerReplica({list(self.values)!r})"


class MirroredStrategy:
    """A computation replicated on a list of devices, of this task or any task of a cluster.

    `devices`: their names; by default every GPU of every task, or where there is none, each
    task's first CPU.
    """

    def __init__(self, devices: Sequence[str] | None = None) -> None:
        if devices is None:
            names = [gpu.name for gpu in list_logical_devices("GPU")]
            if not names:
                names = [cpu.name for cpu in list_logical_devices("CPU")
                         if cpu.name.endswith("/device:CPU:0")]
        else:
            names = list(devices)
        if not names:
            raise ValueError("MirroredStrategy: no device to replicate on; name the devices")
        self._devices = tuple(names)

    @property
    def devices(self) -> tuple[str, ...]:
        """The replicas' devices, in order."""
        return self._devices

    @property
    def num_replicas_in_sync(self) -> int:
        """How many replicas there are."""
        return len(self._devices)

    def run(self, fn: Callable[..., Any], args: Sequence[Any] = (),
            kwargs: dict[str, Any] | None = None) -> Any:
        """Calls `fn(*args, **kwargs)` once per replica, in a device scope of its device.

        Returns a PerReplica of the replicas' results, or where `fn` returns a tuple or list, a
        tuple of PerReplica, one per element.
        """
        results = []
        for name in self._devices:
            with device(name):
                results.append(fn(*args, **(kwargs or {})))
        if isinstance(results[0], (tuple, list)):
            counts = {len(result) for result in results}
            if len(counts) != 1:
                raise ValueError("MirroredStrategy.run: the replicas returned different numbers "
                                 f"of values ({sorted(counts)}); every replica returns as many")
            return tuple(PerReplica(values) for values in zip(*results))
        return PerReplica(results)

    def reduce(self, reduce_op: str, value: PerReplica, axis: None = None) -> Any:
        """The replicas' values reduced element by element with `reduce_op` (a ReduceOp, or
        "sum", "mean", "max", "min"), as the AllReduce op.

        Reducing along an axis of each value too (TensorFlow's `axis`) is not available: reduce
        the value first (hxrt.reduce_sum, ...), then across the replicas.
        """
        if axis is not None:
            raise NotImplementedError("MirroredStrategy.reduce: axis is not available; reduce "
                                      "each replica's value along it first (hxrt.reduce_sum)")
        if not isinstance(value, PerReplica):
            raise TypeError(f"MirroredStrategy.reduce: expected the PerReplica that run returns, "
                            f"got {type(value).__name__}")
        all_reduce = _ops.op_function("all_reduce")
        assert all_reduce is not None
        return all_reduce(*value.values, reduction=str(reduce_op).lower())
