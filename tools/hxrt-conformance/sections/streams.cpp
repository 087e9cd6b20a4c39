// The streams section: streams and events are optional groups of five functions each; what a
// plugin offers must keep its promises about order and completion, which is what the checks
// watch in host memory that stream-ordered copies write.
#include <utility>

#include "sections/sections.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance {
namespace {

using FunctionPresence = std::vector<std::pair<std::string, bool>>;

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

// Records whether the group `kind` ("stream") is offered whole (pass), not at all (skip with
// `absent`) or in part (fail); returns true for whole.
bool group_offered(const std::string& kind, const FunctionPresence& functions,
                   const std::string& absent, SectionLog& log) {
  std::vector<std::string> set;
  std::vector<std::string> missing;
  for (const auto& [function, present] : functions) (present ? set : missing).push_back(function);
  const std::string name = kind + " functions";
  if (missing.empty()) {
    log.pass(name, "all " + std::to_string(set.size()) + " set");
    return true;
  }
  if (set.empty()) {
    log.skip(name, absent);
    return false;
  }
  log.fail(name, joined(set) + (set.size() == 1 ? " is" : " are") + " set but " + joined(missing) +
                     (missing.size() == 1 ? " is" : " are") + " NULL; a plugin offers all " +
                     std::to_string(functions.size()) + " " + kind + " functions or none");
  return false;
}

}  // namespace

void check_streams(const Target& target, PluginSession& session, SectionLog& log) {
  using namespace stream_section;
  const hx_plugin_api& api = session.api();
  const bool streams =
      group_offered("stream",
                    {{"stream_create", api.stream_create != nullptr},
                     {"stream_destroy", api.stream_destroy != nullptr},
                     {"stream_synchronize", api.stream_synchronize != nullptr},
                     {"stream_query", api.stream_query != nullptr},
                     {"stream_wait_event", api.stream_wait_event != nullptr}},
                    "the plugin has no streams: everything it does is synchronous", log);
  const bool events = group_offered("event",
                                    {{"event_create", api.event_create != nullptr},
                                     {"event_destroy", api.event_destroy != nullptr},
                                     {"event_record", api.event_record != nullptr},
                                     {"event_synchronize", api.event_synchronize != nullptr},
                                     {"event_query", api.event_query != nullptr}},
                                    "the plugin has no events", log);
  if (!streams && !events) return;
  if (events && !streams) {
    log.skip("recorded events", "events are recorded on streams, and the plugin has none");
  }
  if (!require_devices(session, log, "streams on a device")) return;
  RandomBytes random(target.seed);
  for (const DeviceUnderTest& device : devices_under_test(session)) {
    const bool streams_work = streams && check_stream_lifetime(device, log);
    if (streams_work) {
      check_stream_synchronize(device, random, log);
      check_stream_query_after_synchronize(device, random, log);
      check_stream_query(device, random, log);
      check_stream_order(device, random, log);
    }
    const bool events_work = events && check_event_lifetime(device, log);
    if (streams_work && events_work) {
      check_event_synchronize(device, random, log);
      check_event_query_after_synchronize(device, random, log);
      check_event_query(device, random, log);
      check_stream_wait_event(device, random, log);
    }
  }
}

}  // namespace hxrt_conformance
