// Runtime::pinned_memory: which device's plugin gives the memory; pinned_tensor and
// pin_memory: host tensors that live in it.
#include <algorithm>

#include "base/device_name.hpp"
#include "execution/pinned_regions.hpp"
#include "runtime/runtime_impl.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt {
namespace {

bool offers_pinned_memory(const detail::Device& device) {
  return device.plugin().api().host_memory != nullptr;
}

}  // namespace

PinnedMemory Runtime::pinned_memory(size_t bytes, const std::string& device) {
  Impl& state = impl();
  if (bytes == 0) {
    throw Error(StatusCode::kInvalidArgument,
                "pinned_memory: 0 bytes asked for; ask for at least 1");
  }
  state.ensure_initialized();
  detail::Device* giver = nullptr;
  if (!device.empty()) {
    giver = &state.named_device(device);
  } else {
    for (const std::string& type : state.placer->type_priority()) {
      detail::DeviceSpec of_type;
      of_type.type = type;
      for (detail::Device* candidate : state.devices.matching(of_type)) {
        if (offers_pinned_memory(*candidate)) {
          giver = candidate;
          break;
        }
      }
      if (giver != nullptr) break;
    }
    if (giver == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "pinned_memory: no device's plugin offers page-locked host memory (none "
                  "has a host_memory group; devices: " + state.devices.describe() +
                      "); pass ordinary memory to from_host, which stages it");
    }
  }
  return PinnedMemory(std::make_shared<detail::PinnedBlock>(giver->shared_from_this(),
                                                            state.pinned_regions, bytes));
}

Tensor Runtime::pinned_tensor(const PinnedMemory& memory, DType dtype, const Shape& shape,
                              size_t offset) {
  Impl& state = impl();
  if (memory.block_ == nullptr) {
    throw Error(StatusCode::kInvalidArgument,
                "pinned_tensor: the PinnedMemory is empty; take one from Runtime::pinned_memory");
  }
  const size_t bytes = tensor_bytes(dtype, shape);
  const size_t size = memory.size();
  if (bytes > size || offset > size - bytes) {
    throw Error(StatusCode::kInvalidArgument,
                "pinned_tensor: a " + std::string(dtype_name(dtype)) + shape.to_string() +
                    " tensor (" + std::to_string(bytes) + " bytes) from byte " +
                    std::to_string(offset) + " does not fit in the " + std::to_string(size) +
                    " bytes of page-locked memory; take more, or a smaller offset");
  }
  detail::Device& host = state.named_device("/CPU:0");
  const uint64_t alignment = std::max<uint64_t>(host.physical().alignment(), 1);
  const uintptr_t address = reinterpret_cast<uintptr_t>(memory.data()) + offset;
  if (address % alignment != 0) {
    throw Error(StatusCode::kInvalidArgument,
                "pinned_tensor: byte " + std::to_string(offset) + " is not a multiple of " +
                    host.name() + "'s alignment of " + std::to_string(alignment) +
                    " bytes; place the tensor at an aligned offset");
  }
  // The CPU's buffer handles are host addresses (HX_MEMORY_HOST): the memory is named as a
  // buffer of its own, which the allocator never sees.
  const detail::Device::Block block{nullptr, reinterpret_cast<hx_buffer*>(memory.data()),
                                    offset};
  return detail::make_tensor(host.shared_from_this(), dtype, shape, bytes, block,
                             std::shared_ptr<const void>(memory.block_));
}

Tensor Runtime::pin_memory(const Tensor& tensor, const std::string& device) {
  if (!tensor.valid()) {
    throw Error(StatusCode::kInvalidArgument, "pin_memory: the Tensor is empty");
  }
  const size_t bytes = tensor.impl()->bytes;
  const PinnedMemory memory = pinned_memory(std::max<size_t>(bytes, 1), device);
  Tensor pinned = pinned_tensor(memory, tensor.dtype(), tensor.shape());
  if (bytes != 0) tensor.copy_to_host(memory.data(), bytes);
  return pinned;
}

}  // namespace hxrt
