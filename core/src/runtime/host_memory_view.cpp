// Runtime::view_of_host_memory: a tensor in another library's host memory, as DLPack imports
// one. Like a pinned tensor, its memory is a buffer of its own that the allocator never sees,
// and an owner keeps it.
#include <algorithm>
#include <string>

#include "runtime/runtime_impl.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt {

Tensor Runtime::view_of_host_memory(DType dtype, const Shape& shape, void* data,
                                    std::shared_ptr<const void> owner,
                                    const std::string& device) {
  Impl& state = impl();
  const size_t bytes = tensor_bytes(dtype, shape);
  detail::Device& target = state.named_device(device.empty() ? "/CPU:0" : device);
  if (target.physical().memory_kind() != HX_MEMORY_HOST) {
    throw Error(StatusCode::kInvalidArgument,
                "view_of_host_memory: " + target.name() + "'s memory is its own, not the "
                "host's; make the tensor on a CPU device and copy it there with to_device");
  }
  if (data == nullptr && bytes != 0) {
    throw Error(StatusCode::kInvalidArgument,
                "view_of_host_memory: no data for a " + std::string(dtype_name(dtype)) +
                    shape.to_string() + " tensor of " + std::to_string(bytes) + " bytes");
  }
  // What the device's kernels need (min_alignment), and what every view's offset is: a
  // multiple of the dtype's size.
  const uint64_t alignment =
      std::max<uint64_t>(target.physical().min_alignment(), dtype_size(dtype));
  if (reinterpret_cast<uintptr_t>(data) % alignment != 0) {
    throw Error(StatusCode::kInvalidArgument,
                "view_of_host_memory: the data's address is not a multiple of " +
                    std::to_string(alignment) + " bytes, what " + target.name() +
                    "'s kernels need of " + dtype_name(dtype) +
                    " elements; copy the elements in with from_host");
  }
  // The CPU's buffer handles are host addresses (HX_MEMORY_HOST).
  const detail::Device::Block block{nullptr, static_cast<hx_buffer*>(data), 0};
  return detail::make_tensor(target.shared_from_this(), dtype, shape, bytes, block,
                             std::move(owner));
}

}  // namespace hxrt
