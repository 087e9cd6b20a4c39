// The views of a kernel's operands (plugin_api.h, hx_tensor_view) as the core
// builds them, for the eager path and for compiled graphs alike: dense
// row-major, or an input of a broadcasting op seen at the output's shape.
#pragma once

#include "hxrt/plugin_api.h"
#include "hxrt/shape.hpp"
#include "ops/broadcast.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

struct Strides {
  int64_t value[Shape::kMaxRank];
};

// A view without buffer of `shape` with `strides`: what create and check
// see. Views are written in place, into the arrays the kernel receives.
inline void fill_view(DType dtype, const Shape& shape, const Strides& strides,
                      hx_tensor_view& view) {
  view = hx_tensor_view{HX_TENSOR_VIEW_STRUCT_SIZE,
                        nullptr,
                        nullptr,
                        0,
                        static_cast<int32_t>(dtype),
                        shape.rank(),
                        shape.data(),
                        strides.value,
                        nullptr};
}

// A view of `shape` as a dense row-major tensor.
inline void fill_dense_view(DType dtype, const Shape& shape, Strides& strides,
                            hx_tensor_view& view) {
  int64_t stride = 1;
  for (int i = shape.rank() - 1; i >= 0; --i) {
    strides.value[i] = stride;
    stride *= shape[i];
  }
  fill_view(dtype, shape, strides, view);
}

// An input of an op that broadcasts, seen at the output's shape: stride 0 where it repeats
// (plugin_api.h, hx_tensor_view.strides), computed here once for every kernel.
inline void fill_broadcast_view(DType dtype, const Shape& input, const Shape& output,
                                Strides& strides, hx_tensor_view& view) {
  broadcast_strides(input, output, strides.value);
  fill_view(dtype, output, strides, view);
}

// `tensor`'s memory in a view a kernel on `device` receives: the kernel's device, which is the
// tensor's own unless the kernel reads the tensor in place from another plugin's host memory.
inline void set_memory(const TensorImpl& tensor, hx_device* device, hx_tensor_view& view) {
  view.buffer = tensor.memory.buffer;
  view.byte_offset = tensor.memory.offset;
  view.device = device;
}

}  // namespace hxrt::detail
