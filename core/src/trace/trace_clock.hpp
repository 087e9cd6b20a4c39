// The trace's clock: the steady clock in nanoseconds; written relative to the trace's start.
#pragma once

#include <chrono>
#include <cstdint>

namespace hxrt::detail {

inline int64_t trace_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace hxrt::detail
