// The trace of one eager op: the host-side span (from the call to the kernel's return, on the
// calling thread) and the kernel's span on its device's stream: for a synchronous device the
// kernel call itself (record), for an asynchronous one from its enqueue until its ready event
// is seen complete (record_enqueued, through trace/device_work.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "trace/device_work.hpp"
#include "trace/span_timer.hpp"
#include "base/tensor_meta.hpp"

namespace hxrt::detail {

struct OpTraceInfo {
  const std::string& op;
  const TensorMeta* inputs;
  size_t num_inputs;
  const std::string& device;
  const std::string& plugin;
  const std::string& requested;  // "" when nothing was requested
  const std::string& reason;     // the placer's, "" when the device is what was asked for
  const std::string* node = nullptr;  // the graph node running the op; nullptr when eager
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
  // A synchronous device: records both spans; the kernel's ends now.
  void record(const OpTraceInfo& info) const;
  // An asynchronous device: records the host span, and the kernel's on `stream` of the
  // device from when it was enqueued until `done` first returns true (see note_device_work).
  void record_enqueued(const OpTraceInfo& info, int stream, CompletionTest done) const;
  // The op failed (its kernel returned an error, or threw): the host span with the error,
  // and an error instant on the device.
  void record_failure(const OpTraceInfo& info, const std::string& message) const;

 private:
  SpanTimer call_;
  SpanTimer kernel_;
};

}  // namespace hxrt::detail
