// One device as the core sees it: a plugin's device handle with its name, its static
// properties, its default stream, and typed wrappers that turn the plugin's statuses into
// hxrt::Error. Holds its plugin, so the plugin stays loaded while the device is referenced.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "hxrt/plugin_api.h"
#include "hxrt/runtime.hpp"
#include "memory/bfc_allocator.hpp"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

class Device : public std::enable_shared_from_this<Device> {
 public:
  // Reads properties and creates the default stream (when the plugin has streams).
  // `id` is the index among the devices of its type, `index` the index among all devices.
  Device(std::shared_ptr<Plugin> plugin, int ordinal, int id, size_t index);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const std::string& type() const { return plugin_->device_type(); }
  int id() const { return id_; }
  size_t index() const { return index_; }
  const std::string& name() const { return name_; }              // canonical
  const std::string& short_name() const { return short_name_; }  // "CPU:0"
  Plugin& plugin() const { return *plugin_; }
  hx_device* handle() const { return handle_; }
  hx_stream* stream() const { return stream_; }
  // Static properties plus free memory read now.
  DeviceInfo info() const;

  // From the device's caching allocator. Throws Error(kOutOfMemory) naming the device, the
  // request and the allocator's figures.
  void* allocate(size_t bytes) { return allocator_->allocate(bytes); }
  void deallocate(void* ptr) noexcept;
  AllocatorStats memory_stats() const { return allocator_->stats(); }
  void copy_from_host(void* dst, const void* src, size_t bytes);
  // Returns once the bytes are in host memory.
  void copy_to_host(void* dst, const void* src, size_t bytes);
  // Waits for all work on the default stream.
  void synchronize();

 private:
  std::shared_ptr<Plugin> plugin_;
  hx_device* handle_ = nullptr;
  hx_stream* stream_ = nullptr;
  int id_;
  size_t index_;
  std::string name_;
  std::string short_name_;
  DeviceInfo info_;
  // Declared last: destroyed first, so its regions go back while the plugin is loaded.
  std::unique_ptr<BfcAllocator> allocator_;
};

}  // namespace hxrt::detail
