"""hxrt.function: a Python function of tensors traced into a graph, as tf.function does.

The first call with a new signature (each argument's dtype and shape) runs the function once
on symbolic values: every op it calls on them adds a node to a graph instead of running (a
tensor it reads from outside becomes a constant of the graph; an op on such tensors alone
runs once, then, and its result is a constant too; a device scope in it requests a device for
its nodes), and what it returns are the graph's fetches. The graph is compiled, with the
fusion passes and the placer, and that call and every later one of the signature run the
executable. The function's Python code runs only when it is traced.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

import functools
import itertools
import threading

from hxrt import _hxrt
from hxrt._runtime import default_runtime

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, overload

Tensor = _hxrt.Tensor
_active = threading.local()


def active_trace():
    """The trace the calling thread is in, or None."""
    return getattr(_active, "trace", None)


class Symbolic:
    """A value of a graph being traced: an output of one of its nodes, of a known dtype and
    shape. The operators of tensors work on it and add nodes."""

    __slots__ = ("output", "dtype", "shape", "_trace")

    def __init__(self, trace, output, dtype, shape):
        self._trace = trace
        self.output = output
        self.dtype = dtype
        self.shape = shape

    def __repr__(self):
        return (f"<hxrt.Symbolic: {self.output.node}:{self.output.index}, shape={self.shape}, "
                f"dtype={self.dtype.name}>")

    def __len__(self):
        return self.shape[0]


class Trace:
    """A graph being built from a function's ops."""

    def __init__(self, runtime):
        self.builder = _hxrt.GraphBuilder(runtime.native)
        self._numbers = itertools.count()
        self._constants = {}  # id of a captured tensor -> (tensor, its Symbolic)

    def _name(self, stem):
        return f"{stem}_{next(self._numbers)}"

    def input(self, name, dtype, shape):
        return Symbolic(self, self.builder.input(name, dtype, list(shape)), dtype, shape)

    def _symbolic(self, value):
        if isinstance(value, Symbolic):
            if value._trace is not self:
                raise ValueError(f"{value!r} belongs to another traced function's graph")
            return value
        from hxrt._tensor import convert_to_tensor

        tensor = convert_to_tensor(value)
        kept = self._constants.get(id(tensor))
        if kept is None:
            output = self.builder.constant(self._name("Const"), tensor)
            kept = self._constants[id(tensor)] = (tensor, Symbolic(self, output, tensor.dtype,
                                                                   tensor.shape))
        return kept[1]

    def add(self, op, inputs, attrs, device):
        """A node of `op` on `inputs` (symbolic values, tensors or Python values); its output,
        or a tuple of its outputs where it has several."""
        outputs = [self._symbolic(value).output for value in inputs]
        node = self.builder.add(self._name(op), op, outputs, attrs or None, device)
        meta = self.builder.output_meta(node.node)
        values = []
        for index, (dtype, shape) in enumerate(meta):
            output = _hxrt.NodeOutput()
            output.node = node.node
            output.index = index
            values.append(Symbolic(self, output, dtype, shape))
        return values[0] if len(values) == 1 else tuple(values)


def _flatten(trace, result):
    """The graph values `result` (one, or a tuple or list of them; a tensor is a constant of
    the graph) holds, and how to put their tensors back in its shape."""
    def value(item):
        if isinstance(item, (Symbolic, Tensor)):
            return trace._symbolic(item)
        raise TypeError("a traced function returns tensors, what its ops computed, or a tuple "
                        f"or list of them; it returned {result!r}")

    if isinstance(result, (tuple, list)):
        kind = type(result)
        return [value(item) for item in result], lambda tensors: kind(tensors)
    return [value(result)], lambda tensors: tensors[0]


class Function:
    """A traced function: called as the Python function, run as compiled graphs, one per
    signature of its arguments."""

    def __init__(self, python_function, placer="", runtime=None):
        functools.update_wrapper(self, python_function)
        self._python_function = python_function
        self._placer = placer
        self._runtime = runtime
        self._compiled = {}  # by signature: (executable, input names, rebuild)

    def __call__(self, *args: Any) -> Any:
        from hxrt._tensor import convert_to_tensor

        tensors = [convert_to_tensor(arg) for arg in args]
        signature = tuple((tensor.dtype, tensor.shape) for tensor in tensors)
        compiled = self._compiled.get(signature)
        if compiled is None:
            compiled = self._compiled[signature] = self._trace(signature)
        executable, names, rebuild = compiled
        return rebuild(executable.run(dict(zip(names, tensors))))

    def _trace(self, signature):
        runtime = self._runtime if self._runtime is not None else default_runtime()
        trace = Trace(runtime)
        names = [f"arg{i}" for i in range(len(signature))]
        arguments = [trace.input(name, dtype, shape)
                     for name, (dtype, shape) in zip(names, signature)]
        if active_trace() is not None:
            raise RuntimeError("hxrt.function: a traced function called while another is "
                               "being traced; call the Python function inside instead")
        _active.trace = trace
        try:
            result = self._python_function(*arguments)
        finally:
            _active.trace = None
        fetches, rebuild = _flatten(trace, result)
        executable = _hxrt.compile(runtime.native, trace.builder.build(),
                                   [value.output for value in fetches], self._placer)
        return executable, names, rebuild

    def executable(self, *args: Any) -> _hxrt.Executable:
        """The compiled graph for these arguments' signature (traced now if it is new):
        its placement(), placement_summary() and run()."""
        from hxrt._tensor import convert_to_tensor

        signature = tuple((convert_to_tensor(a).dtype, convert_to_tensor(a).shape)
                          for a in args)
        if signature not in self._compiled:
            self._compiled[signature] = self._trace(signature)
        return self._compiled[signature][0]


if TYPE_CHECKING:
    @overload
    def function(python_function: Callable[..., Any], *, placer: str = "") -> Function: ...

    @overload
    def function(python_function: None = None, *,
                 placer: str = "") -> Callable[[Callable[..., Any]], Function]: ...


def function(python_function: Callable[..., Any] | None = None, *,
             placer: str = "") -> Function | Callable[[Callable[..., Any]], Function]:
    """Traces `python_function` into a graph on its first call per signature, as tf.function:

        @hxrt.function
        def layer(x, w, b):
            return hxrt.relu(x @ w + b)

    ``placer`` is "simple" or "dynamic" (default: the runtime's config)."""
    if python_function is None:
        return lambda f: Function(f, placer=placer)
    return Function(python_function, placer=placer)
