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

// Receives each line without a trailing newline. Called from whichever thread logs, so a
// sink that keeps state guards it; `message` lives only during the call (copy what you keep).
// Given through RuntimeOptions::log_sink (from start-up on) or Runtime::set_log_sink:
//
//   hxrt::RuntimeOptions options;
//   options.log_sink = [](hxrt::LogLevel level, std::string_view message) {
//     std::cerr << "[hxrt " << hxrt::log_level_name(level) << "] " << message << '\n';
//   };
//   hxrt::Runtime rt = hxrt::Runtime::create(options);
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

}  // namespace hxrt
