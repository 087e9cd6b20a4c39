// The start of a span the hooks may record: taken only while tracing(), so that a hook off
// costs the switch's load and a test of this value.
#pragma once

#include <cstdint>

#include "trace/trace_clock.hpp"
#include "trace/trace_switch.hpp"

namespace hxrt::detail {

class SpanTimer {
 public:
  SpanTimer() : SpanTimer(tracing()) {}
  // Started when `on`: for a caller that has tested tracing() already.
  explicit SpanTimer(bool on) : start_ns_(on ? trace_now_ns() : -1) {}
  // Whether the span started while tracing: only then is it recorded.
  bool on() const { return start_ns_ >= 0; }
  int64_t start_ns() const { return start_ns_; }

 private:
  int64_t start_ns_;
};

}  // namespace hxrt::detail
