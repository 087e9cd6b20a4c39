#include "devices/device.hpp"

#include <cstring>

#include "device_name.hpp"
#include "status.hpp"

namespace hxrt::detail {
namespace {


std::string text_or_empty(const char* text) { return text ? text : ""; }

}  // namespace

Device::Device(std::shared_ptr<Plugin> plugin, int ordinal, int id, size_t index)
    : plugin_(std::move(plugin)), id_(id), index_(index) {
  const hx_plugin_api& api = plugin_->api();
  name_ = canonical_device_name(type(), id_);
  short_name_ = short_device_name(type(), id_);
  throw_if_error(api.device_get(plugin_->state(), ordinal, &handle_),
                 "plugin '" + plugin_->name() + "' device_get(" + std::to_string(ordinal) + ")");

  hx_device_properties props;
  std::memset(&props, 0, sizeof props);
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  props.numa_node = -1;
  throw_if_error(api.device_properties(handle_, &props),
                 "plugin '" + plugin_->name() + "' device_properties");
  info_.name = name_;
  info_.short_name = short_name_;
  info_.type = type();
  info_.id = id_;
  info_.plugin = plugin_->name();
  info_.product = text_or_empty(props.name);
  info_.vendor = text_or_empty(props.vendor);
  info_.bus_id = text_or_empty(props.bus_id);
  info_.arch = text_or_empty(props.arch);
  info_.memory_total = props.memory_total;
  info_.numa_node = props.numa_node;
  info_.compute_units = props.compute_units;

  RawMemory raw;
  raw.allocate = [this](size_t bytes) {
    void* ptr = nullptr;
    throw_if_error(plugin_->api().allocate(handle_, bytes, BfcAllocator::kAlignment, &ptr),
                   "allocating a region of " + std::to_string(bytes) + " bytes on " + name_);
    return ptr;
  };
  raw.deallocate = [this](void* ptr, size_t bytes) {
    plugin_->api().deallocate(handle_, ptr, bytes);
  };
  allocator_ = std::make_unique<BfcAllocator>(name_, std::move(raw));

  if (plugin_->has_streams()) {
    throw_if_error(api.stream_create(handle_, &stream_),
                   "plugin '" + plugin_->name() + "' stream_create for " + short_name_);
  }
}

Device::~Device() {
  if (stream_ != nullptr) {
    // Work still queued must finish before the stream goes; errors here have no one to go to.
    free_status(plugin_->api().stream_synchronize(handle_, stream_));
    plugin_->api().stream_destroy(handle_, stream_);
  }
}

DeviceInfo Device::info() const {
  DeviceInfo info = info_;
  uint64_t free = 0, total = 0;
  hx_status* status = plugin_->api().memory_info(handle_, &free, &total);
  if (status == nullptr) info.memory_free = free;
  free_status(status);
  return info;
}

void Device::deallocate(void* ptr) noexcept {
  try {
    allocator_->deallocate(ptr);
  } catch (const Error&) {
    // Only a pointer this allocator never handed out gets here: a core bug, not worth a crash.
  }
}

void Device::copy_from_host(void* dst, const void* src, size_t bytes) {
  throw_if_error(plugin_->api().copy_host_to_device(handle_, stream_, dst, src, bytes),
                 "copying " + std::to_string(bytes) + " bytes from the host to " + name_);
  // The source is the caller's host memory, which it may reuse as soon as we return.
  synchronize();
}

void Device::copy_to_host(void* dst, const void* src, size_t bytes) {
  throw_if_error(plugin_->api().copy_device_to_host(handle_, stream_, dst, src, bytes),
                 "copying " + std::to_string(bytes) + " bytes from " + name_ + " to the host");
  synchronize();
}

void Device::synchronize() {
  if (stream_ == nullptr) return;
  throw_if_error(plugin_->api().stream_synchronize(handle_, stream_),
                 "synchronizing the stream of " + name_);
}

}  // namespace hxrt::detail
