// Many live events: events until 4096 are live or event_create refuses (a status with a
// message: a limit, not a fault), each recorded on one stream after a memset of a byte of its
// own. Then event_synchronize of each in the order recorded, event_query of each (all done by
// then), and the bytes: every memset queued before a record has run.
#include <string>
#include <vector>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
#include "sections/in_flight_checks.hpp"
#include "sections/live_handles.hpp"

namespace hxrt_conformance::in_flight_section {
namespace {

// As many as Vulkan's usual allocation limit: a plugin that backs each event with a driver
// object (a fence, a timeline value, a cl_event) keeps this many alive when the core records
// an event after every op of a large graph.
constexpr size_t kMostEvents = 4096;

using LiveEvents = LiveHandles<hx_event>;

// "event 17 of 4096".
std::string event_text(size_t index, size_t count) {
  return "event " + std::to_string(index + 1) + " of " + std::to_string(count);
}

// Clears the buffer, then for each event a memset of its byte and the event's record, all on
// `stream`; "" or the call that failed.
std::string record_after_memsets(const DeviceUnderTest& device, hx_stream* stream,
                                 hx_buffer* buffer, const std::vector<hx_event*>& events) {
  const Outcome cleared = memset_device(device, stream, {buffer, 0}, 0, events.size());
  if (!cleared.ok()) return call_failed("memset of " + byte_count(events.size()), cleared);
  for (size_t i = 0; i < events.size(); ++i) {
    const Outcome set = memset_device(device, stream, {buffer, i}, marker_byte(i), 1);
    if (!set.ok()) {
      return call_failed("memset of 1 byte before " + event_text(i, events.size()), set);
    }
    const Outcome recorded =
        KitCore::take(device.api->events->record(device.device, events[i], stream));
    if (!recorded.ok()) {
      return call_failed("event_record of " + event_text(i, events.size()) + " live", recorded);
    }
  }
  return {};
}

// event_synchronize of each in the order recorded, then event_query of each, which must be done
// by then; "" or what went wrong.
std::string synchronize_and_query(const DeviceUnderTest& device,
                                  const std::vector<hx_event*>& events) {
  for (size_t i = 0; i < events.size(); ++i) {
    const Outcome waited = KitCore::take(device.api->events->synchronize(device.device, events[i]));
    if (!waited.ok()) {
      return call_failed("event_synchronize of " + event_text(i, events.size()) + " live", waited);
    }
  }
  for (size_t i = 0; i < events.size(); ++i) {
    bool done = false;
    const Outcome asked = KitCore::take(device.api->events->query(device.device, events[i], &done));
    if (!asked.ok()) return call_failed("event_query of " + event_text(i, events.size()), asked);
    if (!done) {
      return "event_query of " + event_text(i, events.size()) + " reported not done after " +
             "event_synchronize of every event had returned; once synchronize returns, the " +
             "event has completed, however many are live";
    }
  }
  return {};
}

// "" when the byte of every event holds what its memset wrote, read with a copy on stream NULL,
// which waits for nothing queued: the event_synchronize calls must have.
std::string wrong_bytes(const DeviceUnderTest& device, hx_buffer* buffer, size_t count) {
  Bytes got(count, 0);
  const Outcome read = copy_to_host(device, nullptr, got.data(), {buffer, 0}, count);
  if (!read.ok()) return call_failed("copy_device_to_host of " + byte_count(count), read);
  for (size_t i = 0; i < count; ++i) {
    if (got[i] == marker_byte(i)) continue;
    return "after event_synchronize of each of " + std::to_string(count) + " events returned, " +
           "the memset queued before " + event_text(i, count) +
           " had not run: " + memory_section::wrong_byte(i, marker_byte(i), got[i]) +
           "; event_synchronize must block until the work before the event's record has "
           "finished";
  }
  return {};
}

}  // namespace

std::string many_events_check(const DeviceUnderTest& device) {
  return device.label + ": up to " + std::to_string(kMostEvents) +
         " live events, each recorded after queued work, complete";
}

void check_many_events(const DeviceUnderTest& device, const std::string& cannot_run,
                       SectionLog& log) {
  const std::string name = many_events_check(device);
  if (!cannot_run.empty()) {
    log.skip(name, cannot_run);
    return;
  }
  // The buffer outlives the events, which outlive the stream they are recorded on.
  const DeviceAllocation buffer(device, kMostEvents);
  LiveEvents events(
      {"event", "event_create", HX_OK, "at its limit refuse with a status naming the limit"},
      [&device](hx_event* event) { device.api->events->destroy(device.device, event); });
  const DeviceStream stream(device);
  std::string failure = buffer.failure();
  if (failure.empty()) failure = stream.failure();
  if (failure.empty()) {
    events.fill(kMostEvents, [&device](hx_event** out) {
      return device.api->events->create(device.device, out);
    });
    failure = events.problem();
    if (failure.empty() && events.count() == 0) {
      failure = call_failed("event_create with no event live", events.refusal());
    }
  }
  if (failure.empty()) {
    failure = record_after_memsets(device, stream.get(), buffer.buffer(), events.handles());
  }
  if (failure.empty()) failure = synchronize_and_query(device, events.handles());
  if (failure.empty()) failure = wrong_bytes(device, buffer.buffer(), events.count());
  if (failure.empty()) {
    log.pass(name, events.summary());
  } else {
    log.fail(name, failure);
  }
}

}  // namespace hxrt_conformance::in_flight_section
