#include "trace/tracer.hpp"

#include <cerrno>
#include <cstring>

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

Tracer::~Tracer() { stop_owned_by(owner_); }

void Tracer::start(const std::string& path, uint64_t max_events, const void* owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (file_.is_open()) {
    throw Error(StatusCode::kFailedPrecondition,
                "start_trace(\"" + path + "\"): a trace is already being recorded to '" +
                    path_ + "' (one per process); call stop_trace() first");
  }
  if (path.empty()) {
    throw Error(StatusCode::kInvalidArgument,
                "start_trace: the path is empty; give the file to write the trace to");
  }
  file_.open(path, std::ios::out | std::ios::trunc);
  if (!file_) {
    const int error = errno;
    file_ = std::ofstream();
    throw Error(StatusCode::kInvalidArgument,
                "start_trace: cannot open '" + path + "' for writing (" +
                    std::strerror(error) + "); give a path in a folder that exists and that "
                    "this process may write to");
  }
  path_ = path;
  owner_ = owner;
  max_events_ = max_events;
  log_.reset(max_events);
  origin_ns_ = trace_now_ns();
  g_tracing.store(true, std::memory_order_release);
}

std::string Tracer::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!file_.is_open()) return {};
  g_tracing.store(false, std::memory_order_release);
  device_work_.settle(kSettleBound);
  write_chrome_trace(file_, log_.drain(), {origin_ns_, max_events_, kSettleBound.count()});
  file_.close();
  std::string path = std::move(path_);
  path_.clear();
  owner_ = nullptr;
  if (!file_) {
    file_ = std::ofstream();
    throw Error(StatusCode::kInternal,
                "stop_trace: writing the trace to '" + path +
                    "' failed (disk full or the file went away?); the trace is lost");
  }
  return path;
}

void Tracer::settle_device_work() { device_work_.settle(kSettleBound); }

std::string Tracer::path() {
  std::lock_guard<std::mutex> lock(mutex_);
  return path_;
}

std::string Tracer::stop_owned_by(const void* owner) noexcept {
  try {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!file_.is_open() || owner_ != owner) return {};
    }
    stop();
  } catch (const std::exception& error) {
    return error.what();
  }
  return {};
}

}  // namespace hxrt::detail
