#include "eager/run_time_extents.hpp"

#include "hxrt/error.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

RunTimeExtents::RunTimeExtents(const TensorMeta* outputs, size_t num_outputs) {
  for (size_t i = 0; i < num_outputs; ++i) {
    const Shape& shape = outputs[i].shape;
    bounds_.insert(bounds_.end(), shape.data(), shape.data() + shape.rank());
  }
  extents_ = bounds_;
}

void RunTimeExtents::apply(Tensor* outputs, size_t num_outputs, const std::string& call) const {
  std::vector<Shape> shapes;
  size_t at = 0;
  for (size_t i = 0; i < num_outputs; ++i) {
    TensorImpl& output = *outputs[i].impl();
    const int rank = output.shape.rank();
    const int64_t* got = extents_.data() + at;
    bool within = true;
    for (int d = 0; d < rank; ++d) {
      within = within && got[d] >= 0 && got[d] <= bounds_[at + static_cast<size_t>(d)];
    }
    if (!within) {
      std::string written;
      for (int d = 0; d < rank; ++d) written += (d == 0 ? "" : ", ") + std::to_string(got[d]);
      for (size_t j = 0; j < num_outputs; ++j) outputs[j] = Tensor();
      throw Error(StatusCode::kInternal,
                  call + ": the kernel reported output " + std::to_string(i) + "'s extents as [" +
                      written + "], beyond the most it may have, " + output.shape.to_string() +
                      " (hx_kernel_args.output_extents); the plugin has a bug");
    }
    shapes.emplace_back(got, rank);  // within a valid shape's bounds: valid too
    at += static_cast<size_t>(rank);
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    TensorImpl& output = *outputs[i].impl();
    output.shape = shapes[i];
    output.bytes = tensor_bytes(output.dtype, output.shape);
    output.kind = nullptr;  // the device's kind is of the bounding shape
  }
}

}  // namespace hxrt::detail
