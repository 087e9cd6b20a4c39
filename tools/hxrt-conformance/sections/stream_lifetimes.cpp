// Creating and destroying streams and events, and the state of one that has no work yet.
#include "device_stream.hpp"
#include "sections/stream_calls.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance::stream_section {
namespace {

// "" when both handles were created and differ.
template <class Handle>
std::string distinct(const Handle& first, const Handle& second, const char* kind) {
  const std::string failure = first_failure({first.failure(), second.failure()});
  if (!failure.empty() || first.get() != second.get()) return failure;
  return std::string(kind) + "_create returned the same handle for two live " + kind +
         "s; each create must give a new " + kind;
}

}  // namespace

bool check_stream_lifetime(const DeviceUnderTest& device, SectionLog& log) {
  const std::string created = distinct(DeviceStream(device), DeviceStream(device), "stream");
  const bool works = log.expect(
      created.empty(),
      device.label + ": stream_create gives distinct streams that stream_destroy takes back",
      created);
  device.api->streams->destroy(device.device, nullptr);
  log.pass(device.label + ": stream_destroy accepts NULL");
  if (!works) return false;
  const DeviceStream stream(device);
  bool done = false;
  std::string failure = failed_call("stream_query on a new stream",
                                    device.api->streams->query(device.device, stream.get(), &done));
  if (failure.empty() && !done) {
    failure = "stream_query on a new stream reported not done; a stream with no work is done";
  }
  log.expect(failure.empty(), device.label + ": stream_query reports a new stream done", failure);
  return true;
}

bool check_event_lifetime(const DeviceUnderTest& device, SectionLog& log) {
  const std::string created = distinct(DeviceEvent(device), DeviceEvent(device), "event");
  const bool works = log.expect(
      created.empty(),
      device.label + ": event_create gives distinct events that event_destroy takes back", created);
  device.api->events->destroy(device.device, nullptr);
  log.pass(device.label + ": event_destroy accepts NULL");
  if (!works) return false;
  const DeviceEvent event(device);
  bool done = false;
  std::string failure = failed_call("event_query on a never-recorded event",
                                    device.api->events->query(device.device, event.get(), &done));
  if (failure.empty() && !done) {
    failure =
        "event_query on a never-recorded event reported not done; an event that was "
        "never recorded is done";
  }
  if (failure.empty()) {
    failure = failed_call("event_synchronize on a never-recorded event",
                          device.api->events->synchronize(device.device, event.get()));
  }
  log.expect(failure.empty(), device.label + ": a never-recorded event is done at once", failure);
  return true;
}

}  // namespace hxrt_conformance::stream_section
