#include "trace/event_log.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include "trace/per_thread.hpp"
#include "base/tensor_meta.hpp"

namespace hxrt::detail {

void EventLog::reset(uint64_t max_events) {
  std::lock_guard<std::mutex> lock(buffers_mutex_);
  buffers_.clear();
  generation_.fetch_add(1, std::memory_order_release);
  kept_ = 0;
  dropped_ = 0;
  max_events_.store(max_events, std::memory_order_relaxed);
}

EventLog::ThreadBuffer& EventLog::own_buffer() {
  // The buffer stays alive in this cache after drain, so a thread that checked the switch
  // just before it went off appends harmlessly to a buffer nobody reads again.
  CachedBuffer& cached = PerThread<CachedBuffer, CachedBuffer>::get();
  const uint64_t generation = generation_.load(std::memory_order_acquire);
  if (cached.generation != generation || !cached.buffer) {
    auto buffer = std::make_shared<ThreadBuffer>();
    buffer->thread.os_id = static_cast<long>(::syscall(SYS_gettid));
    std::lock_guard<std::mutex> lock(buffers_mutex_);
    buffer->thread.ordinal = static_cast<uint32_t>(buffers_.size() + 1);
    buffers_.push_back(buffer);
    cached.generation = generation;
    cached.buffer = std::move(buffer);
  }
  return *cached.buffer;
}

void EventLog::append(TraceEvent&& event, const TensorMeta* inputs, size_t num_inputs) {
  if (kept_.fetch_add(1, std::memory_order_relaxed) >=
      max_events_.load(std::memory_order_relaxed)) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  ThreadBuffer& buffer = own_buffer();
  event.host_thread = buffer.thread.ordinal;
  std::lock_guard<std::mutex> lock(buffer.mutex);
  event.dims_begin = static_cast<uint32_t>(buffer.dims.size());
  event.num_inputs = static_cast<uint16_t>(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    const Shape& shape = inputs[i].shape;
    buffer.dims.push_back(static_cast<int64_t>(inputs[i].dtype));
    buffer.dims.push_back(shape.rank());
    buffer.dims.insert(buffer.dims.end(), shape.data(), shape.data() + shape.rank());
  }
  buffer.events.push_back(std::move(event));
}

DrainedEvents EventLog::drain() {
  DrainedEvents out;
  std::lock_guard<std::mutex> lock(buffers_mutex_);
  for (const auto& buffer : buffers_) {
    std::lock_guard<std::mutex> buffer_lock(buffer->mutex);
    out.threads.push_back(buffer->thread);
    // One pool for all threads: each event's offset moves by what came before its thread's.
    const auto base = static_cast<uint32_t>(out.dims.size());
    out.dims.insert(out.dims.end(), buffer->dims.begin(), buffer->dims.end());
    for (TraceEvent& event : buffer->events) {
      event.dims_begin += base;
      out.events.push_back(std::move(event));
    }
    buffer->events.clear();
    buffer->dims.clear();
  }
  out.dropped = dropped_.load(std::memory_order_relaxed);
  return out;
}

}  // namespace hxrt::detail
