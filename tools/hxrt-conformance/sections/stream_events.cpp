// Recorded events: event_synchronize blocks until the work before the record is done,
// event_query says so only then, and stream_wait_event holds a second stream back until then.
#include "device_stream.hpp"
#include "sections/stream_calls.hpp"
#include "sections/stream_checks.hpp"

namespace hxrt_conformance::stream_section {
namespace {

const DoneClaim kEventSynchronizeClaim = {
    "event_synchronize returned", "the copies enqueued on the stream before event_record",
    "block until the work before the event's record has finished"};

// Enqueues the round trip on `stream` and records `event` after it.
std::string enqueue_and_record(const DeviceUnderTest& device, StreamWork& work,
                               const DeviceEvent& event, const DeviceStream& stream) {
  std::string failure = first_failure({work.failure(), event.failure(), stream.failure()});
  if (failure.empty()) failure = work.enqueue_round_trip(stream.get());
  if (failure.empty()) {
    failure = failed_call("event_record",
                          device.api->event_record(device.device, event.get(), stream.get()));
  }
  return failure;
}

std::string event_synchronize(const DeviceUnderTest& device, const DeviceEvent& event) {
  return failed_call("event_synchronize",
                     device.api->event_synchronize(device.device, event.get()));
}

}  // namespace

void check_event_synchronize(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  StreamWork work(device, random);
  const DeviceEvent event(device);
  const DeviceStream stream(device);
  std::string failure = enqueue_and_record(device, work, event, stream);
  if (failure.empty()) failure = event_synchronize(device, event);
  if (failure.empty()) failure = work.verdict(kEventSynchronizeClaim);
  log.expect(failure.empty(),
             device.label + ": event_synchronize waits for the work recorded before the event",
             failure);
}

void check_event_query_after_synchronize(const DeviceUnderTest& device, RandomBytes& random,
                                         SectionLog& log) {
  StreamWork work(device, random);
  const DeviceEvent event(device);
  const DeviceStream stream(device);
  std::string failure = enqueue_and_record(device, work, event, stream);
  if (failure.empty()) failure = event_synchronize(device, event);
  bool done = false;
  if (failure.empty()) {
    failure =
        failed_call("event_query", device.api->event_query(device.device, event.get(), &done));
  }
  if (failure.empty() && !done) {
    failure =
        "event_query reported not done after event_synchronize returned; once "
        "synchronize returns, the event has completed";
  }
  log.expect(failure.empty(), device.label + ": event_query reports done after event_synchronize",
             failure);
}

void check_event_query(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  StreamWork work(device, random);
  const DeviceEvent event(device);
  const DeviceStream stream(device);
  std::string failure = enqueue_and_record(device, work, event, stream);
  if (failure.empty()) {
    failure = verdict_when_done(
        work, "event_query",
        [&](bool* out_done) {
          return device.api->event_query(device.device, event.get(), out_done);
        },
        " of being recorded after a few MiB of copies; report done once the work before the "
        "record has finished",
        {"event_query reported done", "the copies enqueued on the stream before event_record",
         "report done only when the work before the event's record has finished"});
  }
  const std::string name =
      device.label + ": event_query reports done only once the recorded work has completed";
  log.expect(failure.empty(), name, failure);
}

void check_stream_wait_event(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  StreamWork work(device, random);
  const DeviceEvent event(device);
  const DeviceStream uploading(device);
  const DeviceStream downloading(device);
  std::string failure =
      first_failure({work.failure(), event.failure(), uploading.failure(), downloading.failure()});
  if (failure.empty()) failure = work.enqueue_upload(uploading.get());
  if (failure.empty()) {
    failure = failed_call("event_record",
                          device.api->event_record(device.device, event.get(), uploading.get()));
  }
  if (failure.empty()) {
    failure = failed_call("stream_wait_event", device.api->stream_wait_event(
                                                   device.device, downloading.get(), event.get()));
  }
  if (failure.empty()) failure = work.enqueue_download(downloading.get());
  if (failure.empty()) {
    failure = failed_call("stream_synchronize",
                          device.api->stream_synchronize(device.device, downloading.get()));
  }
  if (failure.empty()) {
    failure = work.verdict({"stream_synchronize on the waiting stream returned",
                            "the copy enqueued on it after stream_wait_event",
                            "block until all enqueued work has finished"});
  }
  log.expect(failure.empty(),
             device.label + ": stream_wait_event makes a second stream wait for the first",
             failure);
}

}  // namespace hxrt_conformance::stream_section
