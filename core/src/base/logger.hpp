// The runtime's log: a level filter in front of a replaceable sink. Shared (by pointer) with
// every plugin's core handle, so plugins can log for as long as they are loaded.
//
// Lines reach the sink one at a time and in the order they were logged, but never under a
// lock the sink could wait on: a thread that logs while another is in the sink queues its
// line and returns, and the thread in the sink delivers it once the sink returns. So a sink
// may itself use the runtime (run an op, compile a graph: work that logs, on its own thread
// or on others it waits for) without deadlock; a line may then be delivered on another
// thread than the one that logged it.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "hxrt/log.hpp"
#include "hxrt/printable.hpp"  // what the core quotes from plugins passes through it

namespace hxrt::detail {

class Logger {
 public:
  // The most lines that wait for a slow sink; more are counted, and the count is logged once
  // the sink catches up, so that a sink that blocks cannot make the log grow without bound.
  static constexpr size_t kMaxPendingLines = 10000;

  Logger();

  void set_sink(LogSink sink);  // an empty sink restores the default (stderr)
  void set_level(LogLevel level) { level_.store(level, std::memory_order_relaxed); }
  LogLevel level() const { return level_.load(std::memory_order_relaxed); }
  bool enabled(LogLevel level) const { return level >= this->level(); }

  // Writes when `level` passes the filter.
  void log(LogLevel level, std::string_view message);
  // Writes regardless of the filter: lines the user switched on by name (placement logging).
  void write(LogLevel level, std::string_view message);

 private:
  struct Line {
    LogLevel level;
    std::string message;
  };

  // Hands the queued lines to the sink, one at a time, until none is left. Called with
  // `lock` held and delivering_ set by this thread; returns with both as they were.
  void deliver(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;  // guards the fields below, never held while the sink runs
  std::shared_ptr<const LogSink> sink_;
  std::deque<Line> pending_;
  bool delivering_ = false;  // a thread is handing pending_ to the sink
  size_t dropped_ = 0;       // lines refused because pending_ was full
  std::atomic<LogLevel> level_{LogLevel::kWarning};
};

}  // namespace hxrt::detail
