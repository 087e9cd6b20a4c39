// Where hxrt's messages go. The default sink writes to stderr; a host app can replace it.
#pragma once

#include <functional>
#include <string_view>

namespace hxrt {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// "DEBUG", "INFO", "WARNING", "ERROR".
const char* log_level_name(LogLevel level);
// Parses "debug", "info", "warning", "error" (any case); throws Error(kInvalidArgument).
LogLevel parse_log_level(std::string_view text);

// Receives each line without a trailing newline. Called from whichever thread logs.
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

}  // namespace hxrt
