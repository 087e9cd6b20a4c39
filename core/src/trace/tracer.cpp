#include "trace/tracer.hpp"

#include <cstdio>
#include <exception>

#include "hxrt/error.hpp"
#include "trace/chrome_trace_writer.hpp"
#include "trace/trace_clock.hpp"
#include "trace/trace_switch.hpp"

namespace hxrt::detail {
namespace {

// How long stop_trace waits for queued device work to complete before writing it as
// unfinished: longer than any op of a test or sample, short enough not to hang a program
// whose device stopped answering.
constexpr std::chrono::milliseconds kSettleBound{2000};

}  // namespace

Tracer& Tracer::instance() {
  static Tracer tracer;
  return tracer;
}

Tracer::~Tracer() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!file_) return;
  try {
    stop_locked();
  } catch (const std::exception& error) {
    // At exit no runtime, so no logger, is left to tell it; without this line the trace
    // would be missing without a word.
    std::fprintf(stderr, "hxrt error: at exit: %s\n", error.what());
  }
}

void Tracer::start(const std::string& path, uint64_t max_events, const void* owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (file_) {
    throw Error(StatusCode::kFailedPrecondition,
                "start_trace(\"" + path + "\"): a trace is already being recorded to '" +
                    file_->path() + "' (one per process); call stop_trace() first");
  }
  if (path.empty()) {
    throw Error(StatusCode::kInvalidArgument,
                "start_trace: the path is empty; give the file to write the trace to");
  }
  try {
    file_ = std::make_unique<TraceFile>(path);
  } catch (const Error& error) {
    throw Error(error.code(), std::string("start_trace: ") + error.what());
  }
  owner_ = owner;
  max_events_ = max_events;
  log_.reset(max_events);
  origin_ns_ = trace_now_ns();
  g_tracing.store(true, std::memory_order_release);
}

std::string Tracer::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_locked();
}

std::string Tracer::stop_locked() {
  if (!file_) return {};
  g_tracing.store(false, std::memory_order_release);
  // Stopped from here on, whatever fails below: a failure loses this trace, never the next
  // one. The temporary file goes with `file` unless the commit put it in place.
  const std::unique_ptr<TraceFile> file = std::move(file_);
  owner_ = nullptr;
  try {
    device_work_.settle(kSettleBound);
    write_chrome_trace(file->stream(), log_.drain(),
                       {origin_ns_, max_events_, kSettleBound.count()});
    file->commit();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& error) {
    // Memory, most likely: the caller is promised an hxrt::Error, whatever the cause.
    throw Error(StatusCode::kInternal, "the timeline trace could not be written to '" +
                                           file->path() + "' (" + error.what() +
                                           "); the trace is lost and the path is as it was");
  }
  return file->path();
}

void Tracer::settle_device_work() { device_work_.settle(kSettleBound); }

std::string Tracer::path() {
  std::lock_guard<std::mutex> lock(mutex_);
  return file_ ? file_->path() : std::string();
}

std::string Tracer::stop_owned_by(const void* owner) noexcept {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!file_ || owner_ != owner) return {};
    stop_locked();
  } catch (const std::exception& error) {
    return error.what();
  }
  return {};
}

}  // namespace hxrt::detail
