// The extents a kernel reports for the outputs of an op whose extents are known only when it
// runs (OpSchema::extents_at_run, hx_kernel_args.output_extents): the buffer the call passes,
// filled with the extents shape inference bounded them by, and their reading once the kernel's
// work has completed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/tensor_meta.hpp"
#include "hxrt/tensor.hpp"

namespace hxrt::detail {

class RunTimeExtents {
 public:
  // For outputs of these (bounding) shapes.
  RunTimeExtents(const TensorMeta* outputs, size_t num_outputs);

  int64_t* data() { return extents_.data(); }

  // Gives each of `outputs` (made with the bounding shapes, their work completed) the extents
  // the kernel wrote. Error(kInternal) naming `call` ("NonZero on CPU:0 (plugin 'cpu')") when
  // one is negative or beyond its bound: the kernel broke the ABI, and the outputs are emptied.
  void apply(Tensor* outputs, size_t num_outputs, const std::string& call) const;

 private:
  std::vector<int64_t> bounds_;
  std::vector<int64_t> extents_;
};

}  // namespace hxrt::detail
