// Where hxrt's messages go. The default sink writes to stderr; a host app can replace it.
#pragma once

#include <functional>
#include <string_view>

#include "hxrt/export.hpp"

namespace hxrt {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// "DEBUG", "INFO", "WARNING", "ERROR".
HXRT_API const char* log_level_name(LogLevel level);
// Parses "debug", "info", "warning", "error" (any case); throws Error(kInvalidArgument).
HXRT_API LogLevel parse_log_level(std::string_view text);

// Receives each line without a trailing newline; `message` lives only during the call (copy
// what you keep). Lines come one at a time, in the order they were logged, and the runtime
// holds no lock while the sink runs, so a sink may itself use the runtime (run ops, compile
// and run graphs): what they log is queued and handed to the sink once it returns. A line is
// delivered on the thread that logged it, or, when another thread was in the sink at that
// moment, on that thread; a sink that keeps state shared with other threads guards it. A sink
// that throws loses its line. While a sink takes long, at most 10,000 lines wait for it; the
// number of lines dropped beyond that is logged when it catches up.
// Given through RuntimeOptions::log_sink (from start-up on) or Runtime::set_log_sink:
//
//   hxrt::RuntimeOptions options;
//   options.log_sink = [](hxrt::LogLevel level, std::string_view message) {
//     std::cerr << "[hxrt " << hxrt::log_level_name(level) << "] " << message << '\n';
//   };
//   hxrt::Runtime rt = hxrt::Runtime::create(options);
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

}  // namespace hxrt
