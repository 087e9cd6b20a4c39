// Recorded events: event_synchronize blocks until the work before the record is done,
// event_query says so only then, and stream_wait_event holds a second stream back until then.
#include "call_text.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
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
                          device.api->events->record(device.device, event.get(), stream.get()));
  }
  return failure;
}

std::string event_synchronize(const DeviceUnderTest& device, const DeviceEvent& event) {
  return failed_call("event_synchronize",
                     device.api->events->synchronize(device.device, event.get()));
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
        failed_call("event_query", device.api->events->query(device.device, event.get(), &done));
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
          return device.api->events->query(device.device, event.get(), out_done);
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
                          device.api->events->record(device.device, event.get(), uploading.get()));
  }
  if (failure.empty()) {
    failure = failed_call("stream_wait_event", device.api->streams->wait_event(
                                                   device.device, downloading.get(), event.get()));
  }
  if (failure.empty()) failure = work.enqueue_download(downloading.get());
  if (failure.empty()) {
    failure = failed_call("stream_synchronize",
                          device.api->streams->synchronize(device.device, downloading.get()));
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

void check_wait_across_devices(const DeviceUnderTest& waiting, const DeviceUnderTest& recording,
                               RandomBytes& random, SectionLog& log) {
  // Several MiB, so that a copy the wait did not hold back reads the source before it is
  // written on a device that really runs work later.
  constexpr size_t kBytes = 4 << 20;
  const Bytes sent = random.next(kBytes);
  Bytes received = memory_section::complement(sent);
  const DeviceAllocation source(recording, kBytes);
  const DeviceAllocation target(waiting, kBytes);
  const DeviceEvent event(recording);
  const DeviceStream uploading(recording);
  const DeviceStream downloading(waiting);
  std::string failure = first_failure({source.failure(), target.failure(), event.failure(),
                                       uploading.failure(), downloading.failure()});
  const auto on_stream = [](const std::string& call, const Outcome& outcome) {
    return outcome.ok() ? std::string() : call_failed(call + " on a stream", outcome);
  };
  if (failure.empty()) {
    failure = on_stream("copy_host_to_device of " + byte_count(kBytes),
                        copy_to_device(recording, uploading.get(),
                                       DevicePlace{source.buffer(), 0}, sent.data(), kBytes));
  }
  if (failure.empty()) {
    failure = failed_call("events.record", recording.api->events->record(
                                               recording.device, event.get(), uploading.get()));
  }
  if (failure.empty()) {
    failure = failed_call(
        "streams.wait_event on " + waiting.label + " for an event of " + recording.label,
        waiting.api->streams->wait_event(waiting.device, downloading.get(), event.get()));
  }
  if (failure.empty()) {
    failure = on_stream("copy_device_to_device of " + byte_count(kBytes) + " from " +
                            recording.label + " to " + waiting.label,
                        copy_between(waiting, downloading.get(), DevicePlace{target.buffer(), 0},
                                     recording, DevicePlace{source.buffer(), 0}, kBytes));
  }
  if (failure.empty()) {
    failure = on_stream("copy_device_to_host of " + byte_count(kBytes),
                        copy_to_host(waiting, downloading.get(), received.data(),
                                     DevicePlace{target.buffer(), 0}, kBytes));
  }
  if (failure.empty()) {
    failure = failed_call("streams.synchronize", waiting.api->streams->synchronize(
                                                     waiting.device, downloading.get()));
  }
  if (failure.empty()) {
    failure = memory_section::compare_bytes(
        "copy_host_to_device and events.record on " + recording.label + ", then " +
            "streams.wait_event, copy_device_to_device and copy_device_to_host on " +
            waiting.label + ", read once streams.synchronize returned",
        sent, received.data(),
        "streams.wait_event must hold back the work enqueued after it until an event of any "
        "device of the plugin has completed",
        random);
  }
  log.expect(failure.empty(),
             recording.label + " -> " + waiting.label +
                 ": stream_wait_event on another device's event",
             failure);
}

}  // namespace hxrt_conformance::stream_section
