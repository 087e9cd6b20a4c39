#include "config/config_sections.hpp"
#include "config/json_checks.hpp"

namespace hxrt::detail {

namespace {
// A cap a machine can hold: each event takes a few hundred bytes until the trace is written.
constexpr int64_t kMaxTraceEvents = 100000000;
}  // namespace

void apply_trace_section(const nlohmann::json& trace, const std::string& source,
                         Config& config) {
  require_object(trace, source, "/trace");
  check_keys(trace, {"path", "max_events"}, source, "/trace");
  if (trace.contains("path")) {
    const nlohmann::json& path = trace["path"];
    if (!path.is_string() || path.get<std::string>().empty()) {
      fail(source, "/trace/path",
           "expected the file to write the timeline trace to (a non-empty string), got " +
               type_of(path));
    }
    config.trace_path = path.get<std::string>();
    config.origins["/trace/path"] = source;
  }
  if (trace.contains("max_events")) {
    const nlohmann::json& value = trace["max_events"];
    const std::optional<int64_t> max = integer_in(value, 1, kMaxTraceEvents);
    if (!max) {
      fail(source, "/trace/max_events",
           "expected an integer from 1 to " + std::to_string(kMaxTraceEvents) + ", got " +
               type_of(value));
    }
    config.trace_max_events = *max;
    config.origins["/trace/max_events"] = source;
  }
}

}  // namespace hxrt::detail
