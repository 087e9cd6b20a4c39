"""ONNX models from Python: ``model = hxrt.load_onnx("model.onnx")``, then
``model(x=array)``.

A model is loaded and compiled for the shapes of its first feeds (the dimensions a model leaves
open are bound from them), and again for feeds of other shapes, each kept; the graph is placed
by the runtime's placer (simple by default, ``placer="dynamic"``) with the fusion and other
passes of compile, and runs on every device at once as any compiled graph does.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

import os

from hxrt import _hxrt
from hxrt._runtime import default_runtime
from hxrt._tensor import convert_to_tensor

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hxrt._runtime import Runtime


class Model:
    """An ONNX model, callable with its inputs by name: ``model(x=array)`` returns its output,
    or a tuple of its outputs in the model's order."""

    def __init__(self, path, runtime=None, placer="", dims=None):
        self._path = os.fspath(path)
        self._runtime = runtime if runtime is not None else default_runtime()
        self._placer = placer
        self._dims = dict(dims or {})
        self._compiled = {}  # by the feeds' names, dtypes and shapes
        self._latest = None

    def __call__(self, **feeds: Any) -> Any:
        tensors = {name: convert_to_tensor(value) for name, value in feeds.items()}
        key = tuple(sorted((name, tensor.dtype.name, tensor.shape)
                           for name, tensor in tensors.items()))
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(tensors)
        self._latest = compiled
        outputs = compiled[1].run(tensors)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _compile(self, tensors):
        native = self._runtime.native
        shapes = {name: list(tensor.shape) for name, tensor in tensors.items()}
        model = _hxrt.load_onnx(native, self._path, self._dims, shapes)
        return model, _hxrt.compile(native, model.graph, model.outputs, self._placer)

    def _compiled_latest(self):
        if self._latest is None:
            raise RuntimeError(f"{self._path} has not run yet: call it with its inputs first "
                               "(it is compiled for their shapes)")
        return self._latest

    @property
    def inputs(self) -> list[str]:
        """The model's input names, as the model gives them (after a first call)."""
        return list(self._compiled_latest()[0].inputs)

    @property
    def output_names(self) -> list[str]:
        """The model's output names, in the order a call returns them (after a first call)."""
        return list(self._compiled_latest()[0].output_names)

    def placement(self) -> list[_hxrt.NodePlacement]:
        """Where each node of the latest compiled graph runs (NodePlacement: node, op, device,
        requested, reason)."""
        return self._compiled_latest()[1].placement()

    def placement_summary(self) -> str:
        """Per device, its nodes by op, and what fell back from the device it asked for: the
        lines hxrt-run prints under "Placement:"."""
        return self._compiled_latest()[1].placement_summary()

    def plan_placement(self, topology: str | Mapping[str, Any],
                       input_shapes: Mapping[str, tuple[int, ...]] | None = None
                       ) -> _hxrt.PlacementPlan:
        """Where the dynamic placer would run the model over the cluster ``topology`` describes
        (a dict, or its JSON text; docs/cluster.md, "Planning on a topology"): nothing is
        compiled or run. The model's open dimensions are bound by ``dims`` and
        ``input_shapes``. Returns a PlacementPlan: ``nodes``, ``makespan_ms``,
        ``one_task_makespan_ms``, ``tasks_used`` and ``summary()``."""
        import json  # only here: most programs never plan

        text = topology if isinstance(topology, str) else json.dumps(topology)
        native = self._runtime.native
        shapes = {name: list(shape) for name, shape in (input_shapes or {}).items()}
        model = _hxrt.load_onnx(native, self._path, self._dims, shapes)
        return _hxrt.plan_placement(native, model.graph, model.outputs, text)


def load_onnx(path: str | os.PathLike[str], runtime: Runtime | None = None, placer: str = "",
              dims: Mapping[str, int] | None = None) -> Model:
    """An ONNX model (a path) as a callable Model, compiled on first call for its feeds' shapes.

    ``dims`` binds named dimensions ({"batch": 8}) where the feeds do not say them; ``placer``
    is "simple" or "dynamic" (default: the runtime's config). Errors of the file (a malformed
    model, an op or version hxrt lacks) are raised at the first call, as the runtime gives them.
    """
    return Model(path, runtime=runtime, placer=placer, dims=dims)
