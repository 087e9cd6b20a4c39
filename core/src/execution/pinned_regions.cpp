#include "execution/pinned_regions.hpp"

#include "plugins/host_buffers.hpp"

#include "hxrt/error.hpp"
#include "hxrt/pinned_memory.hpp"
#include "base/status.hpp"

namespace hxrt::detail {

PinnedBlock::PinnedBlock(std::shared_ptr<Device> device, std::shared_ptr<PinnedRegions> regions,
                         size_t bytes)
    : device_(std::move(device)), regions_(std::move(regions)), size_(bytes) {
  const hx_host_memory_api* host = device_->plugin().api().host_memory;
  if (host == nullptr) {
    throw Error(StatusCode::kInvalidArgument,
                "pinned_memory: " + device_->name() + "'s plugin '" + device_->plugin().name() +
                    "' offers no page-locked host memory (it has no host_memory group); name a "
                    "device whose plugin does, or pass ordinary memory to from_host, which "
                    "stages it");
  }
  throw_if_error(allocate_page_locked(device_->plugin(), device_->handle(), bytes, &data_),
                 "pinned_memory: " + std::to_string(bytes) + " bytes of page-locked host "
                 "memory from plugin '" + device_->plugin().name() + "' for " + device_->name());
  try {
    regions_->add(data_, size_, device_->plugin());
  } catch (...) {
    free_page_locked(device_->plugin(), device_->handle(), data_);
    throw;
  }
}

PinnedBlock::~PinnedBlock() {
  regions_->remove(data_);
  free_page_locked(device_->plugin(), device_->handle(), data_);
}

}  // namespace hxrt::detail

namespace hxrt {

void* PinnedMemory::data() const { return block_ ? block_->data() : nullptr; }
size_t PinnedMemory::size() const { return block_ ? block_->size() : 0; }
const std::string& PinnedMemory::device() const {
  static const std::string kNone;
  return block_ ? block_->device_name() : kNone;
}

}  // namespace hxrt
