"""Element types: hxrt's DType values, and their NumPy counterparts.

bfloat16 and the 8-bit floats are ml_dtypes' types on the NumPy side; their elements cross as
their storage (uint16, uint8), without conversion. NumPy and ml_dtypes are imported when first
needed, so that ``import hxrt`` costs less than NumPy's own import.
"""

from __future__ import annotations  # annotations are for type checkers: never evaluated

from hxrt import _hxrt

TYPE_CHECKING = False  # typing's own costs an import as long as hxrt's whole
if TYPE_CHECKING:
    from typing import Union

    import numpy.typing

    DTypeLike = Union[_hxrt.DType, str, numpy.typing.DTypeLike]

DType = _hxrt.DType

# NumPy has no type of these: ml_dtypes names them as hxrt does.
_ML_DTYPES = {"bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz"}
_by_name = {dtype.name: dtype for dtype in DType}


def as_dtype(value: DTypeLike) -> DType:
    """The DType of `value`: a DType, its NumPy name, or a NumPy (or ml_dtypes) dtype or type."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        name = value
    else:
        import numpy as np

        name = np.dtype(value).name
    dtype = _by_name.get(name)
    if dtype is None:
        raise TypeError(f"{value!r} is no dtype hxrt has; it has {', '.join(_by_name)}")
    return dtype


def numpy_dtype(dtype):
    """The NumPy dtype of a DType's elements (ml_dtypes' for bfloat16 and the 8-bit floats)."""
    import numpy as np

    if dtype.name in _ML_DTYPES:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, dtype.name))
    return np.dtype(dtype.name)


def storage_view(array):
    """`array` as the array of plain elements hxrt reads, and its DType."""
    dtype = as_dtype(array.dtype)
    if dtype.name in _ML_DTYPES:
        array = array.view("uint16" if dtype == DType.bfloat16 else "uint8")
    return array, dtype


def from_storage(array, dtype):
    """An array of a tensor's storage elements as an array of its dtype."""
    return array.view(numpy_dtype(dtype)) if dtype.name in _ML_DTYPES else array
