// The host side of strided.cu's layouts: building a view of a tensor and launching the copy
// that reads it, for the ops that move elements at strides (Transpose, Slice, Expand, Concat).
#pragma once

#include <hxrt/plugin_api.h>

#include "kernels/gpu_kernel_call.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

// A layout of `view`'s shape, strides 0 and start 0, for the caller to fill in.
StridedLayout layout_of_shape(const hx_tensor_view& view);

// The same walk with extent-1 axes dropped and neighbours merged where stepping along the outer
// one is stepping over the whole inner one (dense runs become one axis), so that each element
// divides fewer times.
StridedLayout merge_axes(const StridedLayout& layout);

// Output 0 (dense) from input 0 read as `layout` says, for the call's op.
hx_status* gather_view(const GpuKernelCall& call, const StridedLayout& layout);

}  // namespace hxcuda::kernels
