#include "devices/device.hpp"

#include "base/device_name.hpp"
#include "plugins/core_handle.hpp"
#include "hxrt/plugin_vocabulary.h"
#include "base/status.hpp"
#include "trace/transfer_trace.hpp"

namespace hxrt::detail {
namespace {

// The allocator's options for this device: regions within its largest allocation, sized in
// multiples of its alignment (at least the allocator's own 256 bytes).
BfcOptions device_memory_options(BfcOptions options, const PhysicalDevice& physical) {
  if (physical.max_allocation() != 0 && physical.max_allocation() < options.max_region_bytes) {
    options.max_region_bytes = static_cast<size_t>(physical.max_allocation());
  }
  if (physical.alignment() > options.region_alignment) {
    options.region_alignment = static_cast<size_t>(physical.alignment());
  }
  return options;
}

}  // namespace

Device::Device(std::shared_ptr<PhysicalDevice> physical, int id, size_t index,
               const BfcOptions& memory, std::string memory_policy, const TaskName& task)
    : physical_(std::move(physical)),
      id_(id),
      index_(index),
      name_(canonical_device_name(task, type(), id)),
      short_name_(short_device_name(type(), id)),
      memory_policy_(std::move(memory_policy)),
      staging_(physical_->plugin(), physical_->handle()),
      allocator_rounds_(physical_->alignment() <= BfcAllocator::kAlignment) {
  Plugin& owner = plugin();
  hx_device* device = handle();
  // The physical device, not this logical one, is what the plugin knows: the message names
  // both when they differ.
  const std::string where = short_name_ == physical_->short_name()
                                ? name_
                                : name_ + " (physical " + physical_->short_name() + ")";
  const size_t alignment = static_cast<size_t>(physical_->alignment());
  RawMemory raw;
  LiveBuffers& live = physical_->live_buffers();
  raw.allocate = [&owner, &live, device, where, alignment](size_t bytes) -> void* {
    hx_buffer* buffer = nullptr;
    throw_if_error(owner.api().allocate(device, bytes, alignment, &buffer),
                   "allocating a buffer of " + std::to_string(bytes) + " bytes on " + where);
    if (buffer == nullptr) {
      throw Error(StatusCode::kInternal, "plugin '" + owner.name() + "' allocate on " + where +
                                             " succeeded but returned a NULL buffer; fix the "
                                             "plugin");
    }
    // Not given back: it is (or overlaps) memory a tensor already holds.
    const std::string reused = live.add(buffer, bytes);
    if (!reused.empty()) {
      throw Error(StatusCode::kInternal,
                  "plugin '" + owner.name() + "' allocate on " + where + " returned " + reused +
                      ": two tensors would share memory; a bug in the plugin, fix it");
    }
    return buffer;
  };
  // plugin_api.h: a buffer goes back only when no queued work uses it. Work on this device's
  // memory is queued on its one stream, so synchronising it is enough.
  raw.deallocate = [this, &owner, &live, device](void* buffer, size_t bytes) {
    if (stream_ != nullptr) free_status(owner.streams()->synchronize(device, stream_));
    live.remove(buffer);
    owner.api().deallocate(device, static_cast<hx_buffer*>(buffer), bytes);
  };
  if (owner.streams() != nullptr) {
    throw_if_error(owner.streams()->create(device, &stream_),
                   "plugin '" + owner.name() + "' streams.create for " + short_name_);
    events_ = std::make_unique<EventPool>(owner, device);
  }
  try {
    allocator_ = std::make_unique<BfcAllocator>(
        name_, std::move(raw), device_memory_options(memory, *physical_));
  } catch (...) {
    events_.reset();
    if (stream_ != nullptr) owner.streams()->destroy(device, stream_);
    throw;
  }
}

Device::~Device() {
  // Work still queued must finish before its memory and its stream go; errors here have no
  // one to go to.
  pending_.drain();
  if (stream_ != nullptr) free_status(plugin().streams()->synchronize(handle(), stream_));
  allocator_.reset();
  events_.reset();
  if (stream_ != nullptr) plugin().streams()->destroy(handle(), stream_);
}

DeviceInfo Device::info() const {
  DeviceInfo info = physical_->descriptive_info();
  info.name = name_;
  info.task = name_.substr(0, name_.rfind("/device:"));
  info.short_name = short_name_;
  info.id = id_;
  info.memory_policy = memory_policy_;
  const auto memory_info = plugin().api().memory_info;
  if (memory_info == nullptr) return info;  // the plugin cannot tell: unknown
  uint64_t free = 0, total = 0;
  hx_status* status = memory_info(handle(), &free, &total);
  if (status == nullptr) {
    info.memory_free = plausible_free(free, total, info.memory_total);
  } else if (!memory_info_failed_.exchange(true)) {
    plugin().core_handle().logger->log(LogLevel::kWarning,
                            "plugin '" + plugin().name() + "' memory_info(" +
                                physical_->short_name() + ") failed, so free memory is shown "
                                "as unknown: " + consume_status(status));
    status = nullptr;
  }
  free_status(status);
  return info;
}

uint64_t Device::plausible_free(uint64_t free, uint64_t total, uint64_t memory_total) const {
  // No device has more free than it has in all, by its own count or by its properties (0:
  // unknown there).
  uint64_t most = total;
  if (memory_total != 0 && memory_total < most) most = memory_total;
  if (free <= most) return free;
  if (!memory_info_overfull_.exchange(true)) {
    plugin().core_handle().logger->log(
        LogLevel::kWarning, "plugin '" + plugin().name() + "' memory_info(" +
                                physical_->short_name() + ") reported " + std::to_string(free) +
                                " bytes free of " + std::to_string(total) +
                                " in all (the device has " + std::to_string(memory_total) +
                                "), so free memory is shown as " + std::to_string(most) +
                                "; fix the plugin");
  }
  return most;
}

Device::Block Device::allocate_slow(size_t bytes) {
  // Every offset a multiple of the device's alignment: sizes are multiples of it too, and
  // regions are (device_memory_options). A request of 0 bytes still gets a block of its own.
  const size_t alignment = static_cast<size_t>(physical_->alignment());
  const size_t rounded = bytes == 0 ? alignment : (bytes + alignment - 1) & ~(alignment - 1);
  const size_t request = rounded < bytes ? bytes : rounded;
  pending_.reclaim();
  void* block;
  try {
    block = allocator_->allocate(request);
  } catch (const Error& error) {
    // Memory that other streams still read is not lost, only late: wait for it.
    if (error.code() != StatusCode::kOutOfMemory || !pending_.drain()) throw;
    block = allocator_->allocate(request);
  }
  return located(block);
}

void Device::deallocate_after(void* block, PendingReleases::Events* taken) noexcept {
  const std::unique_ptr<PendingReleases::Events> readers(taken);
  try {
    pending_.add(std::move(*readers), [this, block] { deallocate(block); });
    return;
  } catch (...) {
    // No memory to note the pending release (add leaves the events as they were).
  }
  for (const std::shared_ptr<ReadyEvent>& reader : *readers) {
    try {
      reader->wait();
    } catch (...) {
    }
  }
  deallocate(block);
}

size_t Device::release_unused_memory() {
  pending_.reclaim();
  return allocator_->release_unused_regions();
}

std::shared_ptr<ReadyEvent> Device::record(std::string work) {
  if (stream_ == nullptr) return nullptr;
  hx_event* event = events_->acquire(name_);
  hx_status* status = plugin().events()->record(handle(), event, stream_);
  if (status != nullptr) {
    events_->release(event);
    throw_if_error(status, "plugin '" + plugin().name() + "' events.record on " + name_ +
                               " after " + work);
  }
  return std::make_shared<ReadyEvent>(shared_from_this(), event, std::move(work));
}

void Device::wait_for(const ReadyEvent& event) {
  if (&event.device() != this && physical_->waits_on_host()) {
    // The device's API cannot queue a wait for another device's work (plugin_api.h,
    // hx_cross_device_wait): the host waits, and the work enqueued next follows it.
    event.wait();
    return;
  }
  if (tracing()) record_stream_wait(name_, 0, event.device().name(), event.work());
  throw_if_error(plugin().streams()->wait_event(handle(), stream_, event.handle()),
                 "plugin '" + plugin().name() + "' streams.wait_event: " + name_ +
                     " waiting for " + event.work() + " on " + event.device().name());
}

std::optional<uint64_t> Device::elapsed_ns(const ReadyEvent& start, const ReadyEvent& end) const {
  if (!has_timing()) return std::nullopt;
  for (const ReadyEvent* event : {&start, &end}) {
    if (&event->device() != this) {
      throw Error(StatusCode::kInvalidArgument,
                  "timing work on " + name_ + ": the event after " + event->work() +
                      " was recorded on " + event->device().name() +
                      "; time work between two events of the device it was queued on");
    }
  }
  end.wait();
  start.wait();
  uint64_t elapsed = 0;
  throw_if_error(plugin().events()->elapsed_ns(handle(), start.handle(), end.handle(), &elapsed),
                 "plugin '" + plugin().name() + "' events.elapsed_ns on " + name_ +
                     " from the event after " + start.work() + " to the event after " +
                     end.work());
  return elapsed;
}

void Device::clear_stream_failure() noexcept {
  if (stream_ != nullptr) free_status(plugin().streams()->synchronize(handle(), stream_));
}

// Host memory the plugin gave as a buffer (plugins/host_buffers.hpp) is passed as that buffer
// and an offset; any other host memory as a pointer.
void Device::upload(const Block& dst, const void* src, size_t bytes) {
  const hx_plugin_api& api = plugin().api();
  hx_status* status;
  if (const std::optional<HostBuffers::Found> pinned = plugin().host_buffers().find(src, bytes)) {
    status = api.host_memory->copy_to_device(handle(), stream_, dst.buffer, dst.offset,
                                             pinned->value, pinned->offset, bytes);
  } else {
    status = api.copy_host_to_device(handle(), stream_, dst.buffer, dst.offset, src, bytes);
  }
  throw_if_error(status, "copying " + std::to_string(bytes) + " bytes from the host to " + name_);
}

void Device::download(void* dst, const Block& src, size_t bytes) {
  const hx_plugin_api& api = plugin().api();
  hx_status* status;
  if (const std::optional<HostBuffers::Found> pinned = plugin().host_buffers().find(dst, bytes)) {
    status = api.host_memory->copy_to_host(handle(), nullptr, pinned->value, pinned->offset,
                                           src.buffer, src.offset, bytes);
  } else {
    status = api.copy_device_to_host(handle(), nullptr, dst, src.buffer, src.offset, bytes);
  }
  throw_if_error(status, "copying " + std::to_string(bytes) + " bytes from " + name_ +
                             " to the host");
}

void Device::copy_from(const Device& source, const Block& dst, const Block& src,
                       size_t bytes) {
  throw_if_error(plugin().api().copy_device_to_device(handle(), stream_, dst.buffer,
                                                       dst.offset, source.handle(), src.buffer,
                                                       src.offset, bytes),
                 "copying " + std::to_string(bytes) + " bytes from " + source.name() + " to " +
                     name_);
}

void Device::synchronize() {
  if (stream_ == nullptr) return;
  hx_status* status = plugin().streams()->synchronize(handle(), stream_);
  if (status != nullptr) {
    throw_if_error(status, "work queued on " + name_ + " (plugin '" + plugin().name() +
                               "') failed; later work runs normally");
  }
  pending_.reclaim();
}

}  // namespace hxrt::detail
