#include "placement/binding_limit.hpp"

#include <cstdint>

#include "hxcommon/byte_format.hpp"
#include "hxrt/dtype.hpp"

namespace hxrt::detail {
namespace {

// The bytes from the view's first element to its last: what a kernel binds to reach them all.
// A broadcast input (stride 0 where it repeats) reaches only its own elements. Sizes are those
// of tensors that exist, so the arithmetic cannot overflow.
// Without strides the view is dense and row-major; its strides are then taken from the
// extents after each dimension, last to first.
uint64_t reached_bytes(const hx_tensor_view& view) {
  uint64_t last = 0;
  uint64_t dense_stride = 1;
  for (int32_t d = view.rank - 1; d >= 0; --d) {
    if (view.shape[d] == 0) return 0;
    const uint64_t extent = static_cast<uint64_t>(view.shape[d]);
    const uint64_t stride =
        view.strides != nullptr ? static_cast<uint64_t>(view.strides[d]) : dense_stride;
    last += (extent - 1) * stride;
    dense_stride *= extent;
  }
  return (last + 1) * dtype_size(static_cast<DType>(view.dtype));
}

bool within(const hx_tensor_view* views, size_t count, const char* what, uint64_t limit,
            std::string& declined) {
  for (size_t i = 0; i < count; ++i) {
    const uint64_t bytes = reached_bytes(views[i]);
    if (bytes > limit) {
      declined = std::string(what) + " " + std::to_string(i) + " spans " +
                 hxcommon::format_bytes(bytes) + ", more than one kernel of the device may "
                 "bind (max_binding " + hxcommon::format_bytes(limit) + ")";
      return false;
    }
  }
  return true;
}

}  // namespace

bool within_binding_limit(const Device& device, const PlacementRequest& request,
                          std::string& declined) {
  const uint64_t limit = device.physical().max_binding();
  if (limit == 0) return true;
  return within(request.inputs, request.num_inputs, "input", limit, declined) &&
         within(request.outputs, request.num_outputs, "output", limit, declined);
}

}  // namespace hxrt::detail
