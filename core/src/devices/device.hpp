// One logical device: what ops are placed on and tensors live on. It is a physical device
// (devices/physical_device.hpp), or one part of one, with its own id, canonical name,
// caching allocator under its memory policy, and default stream. Holds its physical device,
// and through it the plugin, so both stay while the device is referenced.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "devices/physical_device.hpp"
#include "hxrt/plugin_api.h"
#include "hxrt/runtime.hpp"
#include "memory/bfc_allocator.hpp"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

class Device : public std::enable_shared_from_this<Device> {
 public:
  // `id` is the logical id among the devices of its type, `index` the index among all
  // logical devices. Creates the allocator (which takes its budget now under `preallocate`)
  // and the default stream (when the plugin has streams); throws Error when either fails.
  Device(std::shared_ptr<PhysicalDevice> physical, int id, size_t index,
         const BfcOptions& memory, std::string memory_policy);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const std::string& type() const { return physical_->type(); }
  int id() const { return id_; }
  size_t index() const { return index_; }
  const std::string& name() const { return name_; }              // canonical
  const std::string& short_name() const { return short_name_; }  // "CPU:0"
  const PhysicalDevice& physical() const { return *physical_; }
  Plugin& plugin() const { return physical_->plugin(); }
  hx_device* handle() const { return physical_->handle(); }
  hx_stream* stream() const { return stream_; }
  // "growth, limit 1.00 GiB": the policy its allocator was made with.
  const std::string& memory_policy() const { return memory_policy_; }
  // Static properties plus free memory read now (which may wake the device: CUDA makes its
  // context for it).
  DeviceInfo info() const;

  // A tensor's memory: the allocator's block (what deallocate takes) and where it lies, a
  // buffer of the plugin and a byte offset in it that is a multiple of the device's alignment.
  struct Block {
    void* block;
    hx_buffer* buffer;
    uint64_t offset;
  };
  // From the device's caching allocator. Throws Error(kOutOfMemory) naming the device, the
  // request and the allocator's figures.
  Block allocate(size_t bytes);
  void deallocate(void* block) noexcept;
  AllocatorStats memory_stats() const { return allocator_->stats(); }
  void reset_peak_memory() { allocator_->reset_peak(); }
  size_t release_unused_memory() { return allocator_->release_unused_regions(); }
  void copy_from_host(const Block& dst, const void* src, size_t bytes);
  // Returns once the bytes are in host memory.
  void copy_to_host(void* dst, const Block& src, size_t bytes);
  // Waits for all work on the default stream.
  void synchronize();

 private:
  std::shared_ptr<PhysicalDevice> physical_;
  hx_stream* stream_ = nullptr;
  int id_;
  size_t index_;
  std::string name_;
  std::string short_name_;
  std::string memory_policy_;
  mutable std::atomic<bool> memory_info_failed_{false};  // logged once
  // Declared last: destroyed first, so its regions go back while the plugin is loaded.
  std::unique_ptr<BfcAllocator> allocator_;
};

}  // namespace hxrt::detail
