"""Every op of the runtime as a function: hxrt.matmul, hxrt.add, hxrt.reduce_mean, ...

The functions are made from the op list (the core's ops without a runtime; a plugin's custom
ops from the default runtime's), so an op added to the core or registered by a plugin is a
function with no binding code. A function takes the op's inputs in order (tensors, or anything
hxrt.constant takes), its attributes by keyword, and ``device=`` to ask for a device
(otherwise the enclosing hxrt.device scope, or the placer's choice). An op of several outputs
returns a tuple of them.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

import re

from hxrt import _hxrt
from hxrt._dtypes import as_dtype
from hxrt._function import active_trace
from hxrt._runtime import default_runtime

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from typing import Any

Tensor = _hxrt.Tensor

# The names TensorFlow and NumPy give these ops, where the rule below would split a word.
_NAMES = {"mat_mul": "matmul", "arg_max": "argmax", "arg_min": "argmin", "cum_sum": "cumsum",
          "non_zero": "nonzero"}
# ... and where it would give a Python keyword, TensorFlow's name.
_KEYWORDS = {"and": "logical_and", "or": "logical_or", "not": "logical_not",
             "xor": "logical_xor"}


def python_name(op):
    """The function's name of an op: snake_case ("ReduceMean" -> "reduce_mean",
    "MatMul" -> "matmul", "And" -> "logical_and")."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", op).lower()
    for split, joined in _NAMES.items():
        snake = re.sub(rf"(^|_){split}(_|$)", rf"\g<1>{joined}\g<2>", snake)
    return _KEYWORDS.get(snake, snake)


def _describe(info):
    lines = [info.summary or f"The op {info.name}.", ""]
    if info.inputs:
        lines.append("Inputs: " + ", ".join(
            arg.name + ("..." if arg.variadic else "") for arg in info.inputs) + ".")
    if info.attrs:
        lines.append("Attributes: " + ", ".join(
            f"{attr.name} ({attr.type}{', required' if attr.required else ''})"
            for attr in info.attrs) + ".")
    lines.append(f"The op {info.name}; device= asks for a device.")
    return "\n".join(lines)


def make_op_function(info):
    """A function that runs op `info` (an OpInfo) on the default runtime (made now if it is
    not yet: the function is about to be called)."""
    several = info.num_outputs > 1
    dtype_attrs = frozenset(attr.name for attr in info.attrs if attr.type == "dtype")
    bool_attrs = frozenset(attr.name for attr in info.attrs if attr.type == "bool")
    variadic = bool(info.inputs) and info.inputs[-1].variadic
    from hxrt._tensor import convert_to_tensor

    runtime = default_runtime()
    op = runtime.op(info.name)
    run = runtime.native.execute_multi if several else runtime.native.execute

    def _converted(attrs):
        for key in dtype_attrs.intersection(attrs):
            attrs[key] = as_dtype(attrs[key])
        for key in bool_attrs.intersection(attrs):  # 0 and 1, as ONNX writes flags
            if type(attrs[key]) is int:
                attrs[key] = bool(attrs[key])
        return attrs

    # Every call but the one OpFunction runs from C++: Python values in, attributes, device=,
    # a traced function's values, an op of several outputs.
    def function(*inputs, device="", **attrs):
        if variadic and len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
            inputs = inputs[0]  # hxrt.add_n([a, b]), as tf.add_n takes them
        for value in inputs:
            if type(value) is not Tensor:
                trace = active_trace()
                if trace is not None:  # hxrt.function is tracing: a node, not a run
                    return trace.add(info.name, inputs, _converted(attrs), device)
                inputs = [convert_to_tensor(each) for each in inputs]
                break
        if attrs:
            outputs = run(op, inputs, _converted(attrs), device)
        else:
            outputs = run(op, inputs, None, device)
        if several:
            return outputs[0] if len(outputs) == 1 else tuple(outputs)
        return outputs

    # The common call (tensors only) runs from C++; the others come back to `function`.
    fast = _hxrt.OpFunction(op, several)
    fast.python_function = function
    fast.__name__ = fast.__qualname__ = function.__name__ = python_name(info.name)
    fast.__doc__ = function.__doc__ = _describe(info)
    return fast


_core = {python_name(info.name): info for info in _hxrt.core_ops()}
_made: dict[str, Any] = {}


def op_names():
    """The function names of the core's ops."""
    return sorted(_core)


def op_function(attribute):
    """The function of the op whose name is `attribute`; None when no op has it. A name that is
    none of the core's is looked up among the default runtime's ops (plugins' custom ops)."""
    function = _made.get(attribute)
    if function is not None:
        return function
    info = _core.get(attribute)
    if info is None and not attribute.startswith("_"):
        info = next((op for op in default_runtime().ops() if python_name(op.name) == attribute),
                    None)
    if info is None:
        return None
    function = _made[attribute] = make_op_function(info)
    return function
