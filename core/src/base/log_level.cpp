#include <string>

#include "base/ascii_case.hpp"
#include "hxrt/error.hpp"
#include "hxrt/log.hpp"

namespace hxrt {

const char* log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarning: return "WARNING";
    case LogLevel::kError: return "ERROR";
  }
  return "UNKNOWN";
}

LogLevel parse_log_level(std::string_view text) {
  const std::string lower = detail::lowercase_ascii(text);
  if (lower == "debug") return LogLevel::kDebug;
  if (lower == "info") return LogLevel::kInfo;
  if (lower == "warning") return LogLevel::kWarning;
  if (lower == "error") return LogLevel::kError;
  throw Error(StatusCode::kInvalidArgument,
              "unknown log level '" + std::string(text) +
                  "': expected one of debug, info, warning, error (any case)");
}

}  // namespace hxrt
