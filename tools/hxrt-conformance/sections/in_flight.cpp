// The in_flight section: a plugin under many things at once, up to its limits, as a large
// graph puts them there: thousands of live buffers, thousands of operations queued on one
// stream, thousands of live events, hundreds of live streams. A device may refuse more at a
// limit of its own (Vulkan allows about 4096 live allocations) with a status saying so, and the
// check passes with the count it reached; it must not crash, return a NULL or repeated handle
// as a success, or lose work. Limits are per device and one device shows them, so the checks
// run on device 0 only, which keeps the section to a second or so.
#include "sections/in_flight_checks.hpp"
#include "sections/sections.hpp"

namespace hxrt_conformance {

void check_in_flight(const Target& target, PluginSession& session, SectionLog& log) {
  using namespace in_flight_section;
  if (!require_devices(session, log, "in_flight")) return;
  const DeviceUnderTest device = devices_under_test(session).front();
  RandomBytes random(target.seed);
  const std::string cannot_read = round_trip_failure(device, random);
  check_many_buffers(device, cannot_read, random, log);
  // The core queues work on streams only with events to order it by.
  std::string no_streams;
  if (!session.has_streams()) {
    no_streams =
        "the plugin has no streams group: every call completes before it returns, so "
        "nothing is ever queued";
  } else if (!session.has_events()) {
    no_streams =
        "the plugin has no events group, and the core uses streams only with events: "
        "it runs this plugin's work synchronously";
  }
  if (!no_streams.empty()) {
    for (const std::string& name :
         {many_queued_check(device), many_events_check(device), many_streams_check(device)}) {
      log.skip(name, no_streams);
    }
    return;
  }
  const std::string cannot_queue = cannot_read.empty() ? short_queue_failure(device) : cannot_read;
  check_many_queued(device, cannot_queue, random, log);
  check_many_events(device, cannot_queue, log);
  check_many_streams(device, cannot_queue, log);
}

}  // namespace hxrt_conformance
