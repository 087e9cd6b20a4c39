"""hxrt: a pluggable heterogeneous runtime, used as TensorFlow's GPU guide uses tf.

    import hxrt
    hxrt.debugging.set_log_device_placement(True)
    with hxrt.device("/CPU:0"):
        c = hxrt.matmul(hxrt.constant([[1.0, 2.0], [3.0, 4.0]]), hxrt.constant([[1.0], [1.0]]))
    print(c.numpy())

Every op of the runtime is a function (hxrt.matmul, hxrt.add, hxrt.reduce_mean, ...), made from
the op list; hxrt.config sets the devices up, hxrt.errors has the exceptions.
"""

from hxrt import _hxrt, errors
from hxrt._device import device
from hxrt._dtypes import DType, as_dtype
from hxrt._function import Function, function
from hxrt._model import Model, load_onnx
from hxrt._ops import op_function as _op_function, op_names as _op_names
from hxrt._runtime import Runtime, default_runtime
from hxrt._tensor import Tensor, constant, convert_to_tensor, from_dlpack
from hxrt import config, debugging, distribute

for _dtype in DType:
    globals()[_dtype.name] = _dtype
del _dtype


def __getattr__(name):
    function = _op_function(name)
    if function is None:
        raise AttributeError(f"module 'hxrt' has no attribute '{name}' (and no op is called so)")
    globals()[name] = function
    return function


def __dir__():
    return sorted(set(globals()) | set(_op_names()))


__all__ = ["DType", "Function", "Model", "Runtime", "Tensor", "as_dtype", "config", "constant",
           "convert_to_tensor", "debugging", "default_runtime", "device", "distribute", "errors",
           "from_dlpack", "function", "load_onnx"]
