// Runtime::pinned_memory: which device's plugin gives the memory.
#include "device_name.hpp"
#include "runtime/runtime_impl.hpp"

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

}  // namespace hxrt
