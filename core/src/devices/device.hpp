// One logical device: what ops are placed on and tensors live on. It is a physical device
// (devices/physical_device.hpp), or one part of one, with its own id, canonical name,
// caching allocator under its memory policy, and its stream, on which all of its work is
// queued (docs/embedding.md, "Asynchronous execution"). Holds its physical device, and through
// it the plugin, so both stay while the device is referenced.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "base/device_name.hpp"
#include "devices/physical_device.hpp"
#include "devices/tensor_kinds.hpp"
#include "execution/event_pool.hpp"
#include "execution/pending_releases.hpp"
#include "execution/ready_event.hpp"
#include "execution/staging_ring.hpp"
#include "hxrt/device_info.hpp"
#include "hxrt/plugin_api.h"
#include "memory/bfc_allocator.hpp"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

class Device : public std::enable_shared_from_this<Device> {
 public:
  // `id` is the logical id among the devices of its type, `index` the index among all
  // logical devices. Creates the allocator (which takes its budget now under `preallocate`)
  // and the default stream (when the plugin has streams); throws Error when either fails.
  // Named as a device of `task` ("/job:worker/replica:0/task:1/device:GPU:0").
  Device(std::shared_ptr<PhysicalDevice> physical, int id, size_t index,
         const BfcOptions& memory, std::string memory_policy, const TaskName& task = {});
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
  // From the device's caching allocator, after releasing memory whose readers on other
  // streams have finished; when it is out of memory, waits for the rest of those readers and
  // tries again. Throws Error(kOutOfMemory) naming the device, the request and the
  // allocator's figures.
  Block allocate(size_t bytes) {
    // The thread cache's hit, inline (every op's output): where the allocator's rounding is
    // the device's and no release waits.
    if (allocator_rounds_ && pending_.empty()) {
      if (void* block = allocator_->allocate_cached(bytes)) return located(block);
    }
    return allocate_slow(bytes);
  }
  // Back to the allocator at once: work queued later on this device's stream runs after every
  // earlier use of it, so the next tensor may reuse it now. Inline: every tensor's end.
  void deallocate(void* block) noexcept {
    try {
      allocator_->deallocate(block);
    } catch (const Error&) {
      // Only a block this allocator never handed out gets here: a core bug, not worth a crash.
    }
  }
  // Back to the allocator once every event in `readers` (recorded after reads of the block on
  // other streams) has completed: PyTorch's record-stream rule. Without memory to note that,
  // waits for them now.
  // Takes ownership of `readers`.
  void deallocate_after(void* block, PendingReleases::Events* readers) noexcept;
  AllocatorStats memory_stats() const { return allocator_->stats(); }
  void reset_peak_memory() { allocator_->reset_peak(); }
  size_t release_unused_memory();

  // Whether work is queued on a stream (the plugin has streams and events); otherwise each
  // call completes before it returns.
  bool asynchronous() const { return stream_ != nullptr; }
  // Whether buffer handles are host addresses (HX_MEMORY_HOST), which the core then reads
  // directly once a tensor's work has completed...
  bool host_addressable() const { return physical_->memory_kind() == HX_MEMORY_HOST; }
  // ...and writes directly when the device is also synchronous (no queued work may still be
  // using a reused block).
  bool host_writable() const { return host_addressable() && !asynchronous(); }
  unsigned char* host_address(const Block& block) const {
    return reinterpret_cast<unsigned char*>(block.buffer) + block.offset;
  }

  // An event recorded after everything queued so far on this device's stream, for `work`
  // ("MatMul"); nullptr on a synchronous device, where everything has completed.
  std::shared_ptr<ReadyEvent> record(std::string work);
  // Work queued on this device's stream from now on runs after `event` (an event of this
  // device's plugin), without the host waiting; but where the device declares
  // HX_WAIT_ON_HOST and `event` is another device's, the host waits here, and throws the
  // work's failure.
  void wait_for(const ReadyEvent& event);
  void release_event(hx_event* event) noexcept { events_->release(event); }
  // Whether the device times its queued work itself (the plugin's events.elapsed_ns). False on
  // a synchronous device, whose work is done when its call returns, so the caller times the
  // call; false too where the plugin offers no timing.
  bool has_timing() const { return asynchronous() && plugin().has_event_timing(); }
  // The device's own time, in nanoseconds, from `start` to `end`: two events of this device
  // (record), `start` recorded first. Waits for both, and throws the failure of their work.
  // nullopt without has_timing(). Throws Error(kInvalidArgument) for an event of another
  // device, and the plugin's error (naming the device and both events) when it refuses.
  std::optional<uint64_t> elapsed_ns(const ReadyEvent& start, const ReadyEvent& end) const;
  // After a failure of queued work was seen: synchronising the stream clears it
  // (plugin_api.h), so later work runs.
  void clear_stream_failure() noexcept;

  // Queues a copy from host memory, which must stay valid until an event recorded after it
  // completes (on a synchronous device: until it returns).
  void upload(const Block& dst, const void* src, size_t bytes);
  // Copies to host memory before returning, without waiting for other queued work: the
  // caller has waited for the work that writes `src`.
  void download(void* dst, const Block& src, size_t bytes);
  // Queues a copy from `source` (a device of this plugin, or this one) on this device's
  // stream.
  void copy_from(const Device& source, const Block& dst, const Block& src, size_t bytes);
  StagingRing& staging() { return staging_; }
  // The record that every tensor of `dtype` and `shape` on this device shares, or nullptr
  // (devices/tensor_kinds.hpp).
  const TensorKind* tensor_kind(DType dtype, const Shape& shape) {
    return kinds_.intern(dtype, shape);
  }
  PendingReleases& pending() { return pending_; }

  // Waits for all work queued on the stream; throws Error naming the device and the plugin
  // when queued work failed (the stream is then cleared).
  void synchronize();

 private:
  // `free` as memory_info gave it, no more than its `total` nor the device's memory_total;
  // warns once when it was more.
  uint64_t plausible_free(uint64_t free, uint64_t total, uint64_t memory_total) const;
  Block allocate_slow(size_t bytes);
  Block located(void* block) const {
    const BufferLocation location = allocator_->locate(block);
    return {block, static_cast<hx_buffer*>(location.buffer), location.offset};
  }

  std::shared_ptr<PhysicalDevice> physical_;
  hx_stream* stream_ = nullptr;
  int id_;
  size_t index_;
  std::string name_;
  std::string short_name_;
  std::string memory_policy_;
  mutable std::atomic<bool> memory_info_failed_{false};   // logged once
  mutable std::atomic<bool> memory_info_overfull_{false};  // logged once
  std::unique_ptr<EventPool> events_;  // asynchronous devices only
  StagingRing staging_;
  PendingReleases pending_;
  TensorKinds kinds_;
  // Whether the allocator's rounding (to BfcAllocator::kAlignment) makes every size a
  // multiple of the device's alignment too, so that allocate need not round first.
  bool allocator_rounds_;
  // Declared last: destroyed first, so its regions go back while the plugin is loaded.
  std::unique_ptr<BfcAllocator> allocator_;
};

}  // namespace hxrt::detail
