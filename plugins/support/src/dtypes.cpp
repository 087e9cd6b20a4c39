#include "hxplugin/dtypes.hpp"

namespace hxplugin {

size_t dtype_size(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: return 4;
    case HX_DTYPE_F64: return 8;
    case HX_DTYPE_F16: return 2;
    case HX_DTYPE_BF16: return 2;
    case HX_DTYPE_I32: return 4;
    case HX_DTYPE_I64: return 8;
    case HX_DTYPE_BOOL: return 1;
    default: return 0;
  }
}

const char* dtype_name(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: return "float32";
    case HX_DTYPE_F64: return "float64";
    case HX_DTYPE_F16: return "float16";
    case HX_DTYPE_BF16: return "bfloat16";
    case HX_DTYPE_I32: return "int32";
    case HX_DTYPE_I64: return "int64";
    case HX_DTYPE_BOOL: return "bool";
    default: return "invalid";
  }
}

}  // namespace hxplugin
