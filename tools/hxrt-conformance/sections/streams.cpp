// The streams section: streams and events are optional groups of five functions each; what a
// plugin offers must keep its promises about order and completion, which is what the checks
// watch in host memory that stream-ordered copies write. The events group's optional
// elapsed_ns, where offered, must time the work between two events and refuse misuse; the
// recording group, where offered, must replay what it recorded (stream_recording.cpp).
#include <hxrt/plugin_vocabulary.h>

#include <string>
#include <vector>

#include "sections/sections.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance {

void check_streams(const Target& target, PluginSession& session, SectionLog& log) {
  using namespace stream_section;
  const bool streams = session.has_streams();
  const bool events = session.has_events();
  const bool timing = session.has_event_timing();
  const bool recording = hx_plugin_api_recording(&session.api()) != nullptr;
  if (!streams) {
    log.skip("streams", "the plugin has no streams group: everything it does is synchronous");
  }
  if (!events) log.skip("events", "the plugin has no events group");
  if (!streams && !events) return;
  if (events && !streams) {
    log.skip("recorded events", "events are recorded on streams, and the plugin has none");
  }
  if (events && !timing) {
    log.skip("event timing", "the events group has no elapsed_ns (NULL, or a group written "
                             "before ABI 2.2): the device cannot time its queued work");
  }
  if (!recording) {
    log.skip("recorded work", "the plugin has no recording group (NULL, or a table written "
                              "before ABI 2.4): the core runs its work call by call");
  } else if (!streams || !events) {
    log.skip("recorded work", "the recording group is of work on streams, ordered by events; "
                              "the plugin lacks one of those groups, so the core never uses it");
  }
  if (!require_devices(session, log, "streams on a device")) return;
  RandomBytes random(target.seed);
  const std::vector<DeviceUnderTest> devices = devices_under_test(session);
  bool all_work = true;
  for (const DeviceUnderTest& device : devices) {
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
      if (timing) check_event_timing(device, log);
      if (recording) check_recording(device, random, log);
    }
    all_work = all_work && streams_work && events_work;
  }
  const std::string across = "stream_wait_event on another device's event";
  if (!streams || !events) {
    log.skip(across, "needs both the streams and the events group");
  } else if (devices.size() < 2) {
    log.skip(across, "the plugin has one device; a wait across devices needs two");
  } else if (!all_work) {
    log.skip(across, "streams or events of a device fail (see above)");
  } else if (devices[1].waits_on_host) {
    log.skip(across, "the devices declare HX_WAIT_ON_HOST: the core waits for another "
                     "device's event on the host, and wait_event takes only a stream's own "
                     "device's events");
  } else {
    check_wait_across_devices(devices[1], devices[0], random, log);
    if (timing) check_timing_across_devices(devices[0], devices[1], log);
  }
}

}  // namespace hxrt_conformance
