// The element types as the GPU kernels' host side sees them: names and sizes (the ABI's
// vocabulary), and which ones the kernel families compute.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/plugin_vocabulary.h>

#include <cstdint>

namespace hxcuda::kernels {

// f32, f16, bf16: the element-wise kernels (Add ... Relu, AddN, Sum).
bool is_elementwise_dtype(int32_t dtype);
// f32, f64, f16, bf16: MatMul, Fill, Cast.
bool is_float_dtype(int32_t dtype);

}  // namespace hxcuda::kernels
