// The runtime's log: a level filter in front of a replaceable sink. Shared (by pointer) with
// every plugin's core handle, so plugins can log for as long as they are loaded.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>

#include "hxrt/log.hpp"
#include "hxrt/printable.hpp"  // what the core quotes from plugins passes through it

namespace hxrt::detail {

class Logger {
 public:
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
  std::mutex mutex_;
  LogSink sink_;
  std::atomic<LogLevel> level_{LogLevel::kWarning};
};

}  // namespace hxrt::detail
