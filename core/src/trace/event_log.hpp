// Where events wait until the trace is written: one buffer per recording thread, so that
// threads never contend on a shared lock (each buffer's mutex is only ever taken by its own
// thread, and by drain at the end). At most `max_events` are kept in all; later ones are
// counted as dropped, so a long trace cannot exhaust memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "trace/trace_event.hpp"

namespace hxrt::detail {

struct HostThread {
  uint32_t ordinal;  // 1, 2, ... in the order threads first recorded
  long os_id;        // the kernel's thread id, for the thread's name in the trace
};

struct TensorMeta;

struct DrainedEvents {
  std::vector<TraceEvent> events;
  std::vector<int64_t> dims;  // the inputs' shapes events point into (TraceEvent::dims_begin)
  std::vector<HostThread> threads;
  uint64_t dropped = 0;
};

class EventLog {
 public:
  // Forgets what an earlier trace left and keeps at most `max_events` from now.
  void reset(uint64_t max_events);
  void append(TraceEvent&& event) { append(std::move(event), nullptr, 0); }
  // With the shapes of `num_inputs` inputs, copied into the thread's pool.
  void append(TraceEvent&& event, const TensorMeta* inputs, size_t num_inputs);
  // Everything appended since reset, taken out of the buffers.
  DrainedEvents drain();

 private:
  struct ThreadBuffer {
    HostThread thread;
    std::mutex mutex;
    std::vector<TraceEvent> events;
    std::vector<int64_t> dims;
  };
  // A thread's buffer of the current trace (generation_), cached per thread.
  struct CachedBuffer {
    uint64_t generation = 0;
    std::shared_ptr<ThreadBuffer> buffer;
  };
  ThreadBuffer& own_buffer();

  std::mutex buffers_mutex_;  // guards buffers_; taken once per thread per trace
  std::vector<std::shared_ptr<ThreadBuffer>> buffers_;
  std::atomic<uint64_t> generation_{0};  // a thread's cached buffer is for this trace only
  std::atomic<uint64_t> kept_{0};
  std::atomic<uint64_t> dropped_{0};
  // Atomic: a thread that saw the switch on just before a stop may still append while the
  // next start resets it. Only appends read it, so the untraced path never does.
  std::atomic<uint64_t> max_events_{0};
};

}  // namespace hxrt::detail
