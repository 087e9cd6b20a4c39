// One recorded event, as the hooks leave it: cheap to make on the recording thread; turned
// into Trace Event Format JSON only when the trace is written.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

struct TraceEvent {
  enum class Kind { kSpan, kAllocation, kFree };
  Kind kind = Kind::kSpan;
  const char* category = "";  // "op", "kernel", "copy", "wait", "memory"
  std::string name;
  int64_t start_ns = 0;       // steady clock
  int64_t duration_ns = 0;    // spans only
  // The device whose timeline it belongs on (its stream, or its memory); empty: the host
  // thread that recorded it.
  std::string device;
  uint32_t host_thread = 0;  // ordinal of the recording thread, set by the event log
  nlohmann::json args = nlohmann::json::object();
  // Allocation and free: the block, and (allocation) its bytes, for the memory counter.
  const void* address = nullptr;
  uint64_t bytes = 0;
};

}  // namespace hxrt::detail
