#include "kernels/dtypes.hpp"

namespace hxcuda::kernels {

bool is_elementwise_dtype(hx_dtype dtype) {
  return dtype == HX_DTYPE_F32 || dtype == HX_DTYPE_F16 || dtype == HX_DTYPE_BF16;
}

bool is_float_dtype(hx_dtype dtype) { return is_elementwise_dtype(dtype) || dtype == HX_DTYPE_F64; }

}  // namespace hxcuda::kernels
