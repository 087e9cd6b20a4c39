"""Tensors from Python values and back: hxrt.constant, Tensor.numpy(), and Python's operators
on tensors (``+ - * / @ **``, comparisons, ``-x``, indexing by ints and slices), each an op
of the runtime.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

from hxrt import _hxrt
from hxrt._dtypes import as_dtype, from_storage, numpy_dtype, storage_view
from hxrt._function import Symbolic
from hxrt._runtime import default_runtime

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from typing import Any

    from hxrt._dtypes import DTypeLike

Tensor = _hxrt.Tensor

# A Python value's default dtype, as tf.constant gives it: float32 for floats, int32 for ints.
_PYTHON_DEFAULTS = {"float64": "float32", "int64": "int32"}


def constant(value: Any, dtype: DTypeLike | None = None, device: str = "") -> Tensor:
    """A tensor of `value` (a NumPy array, a Python number or nested list, a tensor) on
    `device` (default: the runtime's tensor device, the CPU unless configured otherwise).

    NumPy arrays keep their dtype; Python floats become float32 and ints int32, as tf.constant
    makes them; `dtype` converts to another (a DType, a name, or a NumPy dtype).
    """
    import numpy as np

    if type(value) is Tensor:
        if dtype is not None and as_dtype(dtype) != value.dtype:
            return _hxrt_cast(value, as_dtype(dtype))
        return default_runtime().native.to_device(value, device) if device else value
    if isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
    else:
        array = np.asarray(value)
        if dtype is None and array.dtype.name in _PYTHON_DEFAULTS:
            array = array.astype(_PYTHON_DEFAULTS[array.dtype.name])
    if dtype is not None:
        array = array.astype(numpy_dtype(as_dtype(dtype)), copy=False)
    storage, element_type = storage_view(np.ascontiguousarray(array))
    return default_runtime().native.from_host(storage, element_type, device)


def from_dlpack(array: Any, device: str = "", copy: bool | None = None) -> Tensor:
    """`array` (a NumPy array, a torch tensor, anything with __dlpack__ or the buffer protocol)
    as a tensor whose elements are the array's, with no copy, where the array is dense,
    row-major, in host memory and aligned as the device's kernels need (whole elements on the
    CPU: NumPy's and torch's arrays are); otherwise a copy, unless copy=False (BufferError
    then). copy=True always copies. The tensor holds the array."""
    return _hxrt.from_dlpack(default_runtime().native, array, copy, device)


def convert_to_tensor(value: Any) -> Tensor:
    """`value` as a tensor: itself if it is one, else constant(value)."""
    return value if type(value) is Tensor else constant(value)


def _hxrt_cast(tensor, dtype):
    return _op("cast")(tensor, dtype=dtype)


# The Python halves of Tensor's methods: the extension defines the methods (so that its type
# stubs show them) and calls these.

def numpy_of(tensor):
    """The elements as a new NumPy array (bfloat16 and the 8-bit floats as ml_dtypes')."""
    return from_storage(tensor._to_host(), tensor.dtype)


def array_of(tensor, dtype=None, copy=None):
    array = numpy_of(tensor)
    return array if dtype is None else array.astype(dtype, copy=False)


def str_of(tensor):
    return f"hxrt.Tensor(\n{numpy_of(tensor)}, shape={tensor.shape}, dtype={tensor.dtype.name})"


def repr_of(tensor):
    return (f"<hxrt.Tensor: shape={tensor.shape}, dtype={tensor.dtype.name}, "
            f"device={tensor.device}, numpy=\n{numpy_of(tensor)!r}>")


_ops_found: dict[str, Any] = {}


def _op(op_attribute):
    """The op function `op_attribute`, found once (the op functions need the default runtime,
    which importing hxrt does not make)."""
    function = _ops_found.get(op_attribute)
    if function is None:
        from hxrt._ops import op_function

        function = _ops_found[op_attribute] = op_function(op_attribute)
    return function


def binary(op_attribute, tensor, other, reflected=False):
    """An operator: a Python value on the other side becomes a tensor of this one's dtype, as
    TensorFlow's operators convert it (``2 - x`` of float32 x subtracts from 2.0)."""
    if type(other) is not Tensor and not isinstance(other, Symbolic):
        other = constant(other, dtype=tensor.dtype)
    function = _op(op_attribute)
    return function(other, tensor) if reflected else function(tensor, other)


def unary(op_attribute, tensor):
    return _op(op_attribute)(tensor)


_LAST = 2 ** 63 - 1  # an end past any extent, as ONNX's Slice clamps it


def getitem(self, key):
    """``x[1:3, ::2]``, ``x[0]``, ``x[..., -1]``: a Slice of the tensor, then a Squeeze of the
    axes an integer picks, as NumPy's basic indexing gives them."""
    keys = key if isinstance(key, tuple) else (key,)
    if sum(k is Ellipsis for k in keys) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    rank = len(self.shape)
    named = sum(k is not Ellipsis for k in keys)
    if named > rank:
        raise IndexError(f"too many indices: the tensor has rank {rank}, {named} were given")
    starts, ends, axes, steps, picked = [], [], [], [], []
    axis = 0
    for k in keys:
        if k is Ellipsis:
            axis += rank - named
            continue
        if isinstance(k, slice):
            step = 1 if k.step is None else int(k.step)
            if step == 0:
                raise ValueError("slice step cannot be zero")
            start = k.start if k.start is not None else (0 if step > 0 else _LAST)
            end = k.stop if k.stop is not None else (_LAST if step > 0 else -_LAST - 1)
            if (start, end, step) != (0, _LAST, 1):
                starts.append(int(start)), ends.append(int(end)), axes.append(axis)
                steps.append(step)
        elif isinstance(k, int) or hasattr(k, "__index__"):
            index = int(k)
            extent = self.shape[axis]
            if not -extent <= index < extent:
                raise IndexError(f"index {index} is out of bounds for axis {axis} of extent "
                                 f"{extent}")
            index %= extent
            starts.append(index), ends.append(index + 1), axes.append(axis), steps.append(1)
            picked.append(axis)
        else:
            raise TypeError(f"hxrt tensors are indexed by ints, slices and '...', not {k!r}")
        axis += 1
    result = self
    if axes:
        result = _op("slice")(self, starts=starts, ends=ends, axes=axes, steps=steps)
    if picked:
        result = _op("squeeze")(result, axes=picked)
    return result



# A traced function's values take the operators of tensors.
_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "matmul": "matmul",
           "pow": "pow"}
_COMPARISONS = {"lt": "less", "le": "less_or_equal", "gt": "greater", "ge": "greater_or_equal"}


def _symbolic_binary(op_attribute, reflected=False):
    return lambda self, other: binary(op_attribute, self, other, reflected)


for _name, _op_attribute in _BINARY.items():
    setattr(Symbolic, f"__{_name}__", _symbolic_binary(_op_attribute))
    setattr(Symbolic, f"__r{_name}__", _symbolic_binary(_op_attribute, reflected=True))
for _name, _op_attribute in _COMPARISONS.items():
    setattr(Symbolic, f"__{_name}__", _symbolic_binary(_op_attribute))
setattr(Symbolic, "__neg__", lambda self: unary("neg", self))
setattr(Symbolic, "__getitem__", getitem)
