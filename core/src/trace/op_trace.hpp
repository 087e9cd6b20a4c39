// The trace of one eager op: the host-side span (from the call to the kernel's return, on the
// calling thread) and the device-side span of the kernel (on the device's stream; with
// synchronous devices, the kernel call itself).
#pragma once

#include <cstddef>
#include <string>

#include "ops/op_schema.hpp"
#include "trace/span_timer.hpp"

namespace hxrt::detail {

struct OpTraceInfo {
  const std::string& op;
  const TensorMeta* inputs;
  size_t num_inputs;
  const std::string& device;
  const std::string& plugin;
  const std::string& requested;  // "" when nothing was requested
  const std::string& reason;     // the placer's, "" when the device is what was asked for
};

class OpTrace {
 public:
  // `traced`: whether tracing() was on when the op began (a constant in the caller's
  // untraced instantiation, so that every test below folds away there).
  explicit OpTrace(bool traced) : call_(traced), kernel_(false) {}
  // Whether the op started while tracing: only then is it recorded. The caller tests it, so
  // that the OpTraceInfo is only built when it is.
  bool on() const { return call_.on(); }
  void kernel_starts() {
    if (call_.on()) kernel_ = SpanTimer(true);
  }
  // Records both spans; the kernel's ends now.
  void record(const OpTraceInfo& info) const;

 private:
  SpanTimer call_;
  SpanTimer kernel_;
};

}  // namespace hxrt::detail
