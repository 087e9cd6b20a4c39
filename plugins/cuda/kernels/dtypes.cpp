#include "kernels/dtypes.hpp"

namespace hxcuda::kernels {

bool is_elementwise_dtype(int32_t dtype) {
  return dtype == HX_DTYPE_F32 || dtype == HX_DTYPE_F16 || dtype == HX_DTYPE_BF16;
}

bool is_float_dtype(int32_t dtype) { return is_elementwise_dtype(dtype) || dtype == HX_DTYPE_F64; }

}  // namespace hxcuda::kernels
