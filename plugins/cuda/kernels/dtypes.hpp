// The element types as the GPU kernels' host side sees them: sizes, names, and which ones the
// kernel families compute.
#pragma once

#include <hxplugin/dtypes.hpp>
#include <hxrt/plugin_api.h>

#include <cstddef>

namespace hxcuda::kernels {

using hxplugin::dtype_name;
using hxplugin::dtype_size;
// f32, f16, bf16: the element-wise kernels (Add ... Relu, AddN, Sum).
bool is_elementwise_dtype(hx_dtype dtype);
// f32, f64, f16, bf16: MatMul, Fill, Cast.
bool is_float_dtype(hx_dtype dtype);

}  // namespace hxcuda::kernels
