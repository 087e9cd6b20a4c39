// Many live streams: streams until 256 are live or stream_create refuses (a status with a
// message: a limit, not a fault), each given a memset of a range of its own and a copy of that
// range to the host, each synchronized, then all destroyed.
#include <string>
#include <vector>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_transfers.hpp"
#include "sections/in_flight_checks.hpp"
#include "sections/live_handles.hpp"

namespace hxrt_conformance::in_flight_section {
namespace {

// More than a device has hardware queues (tens), so that a plugin mapping streams onto them
// shares them correctly, and more than the core uses (one per device), so that a plugin with a
// small fixed table of streams says so with a status.
constexpr size_t kMostStreams = 256;
constexpr size_t kStreamRangeBytes = 16;

using LiveStreams = LiveHandles<hx_stream>;

// "stream 17 of 256".
std::string stream_text(size_t index, size_t count) {
  return "stream " + std::to_string(index + 1) + " of " + std::to_string(count);
}

// On each stream, a memset of its own range and a copy of that range into `received`; "" or the
// call that failed.
std::string enqueue_on_each(const DeviceUnderTest& device, const std::vector<hx_stream*>& streams,
                            hx_buffer* buffer, Bytes& received) {
  for (size_t i = 0; i < streams.size(); ++i) {
    const DevicePlace range{buffer, i * kStreamRangeBytes};
    const Outcome set = memset_device(device, streams[i], range, marker_byte(i), kStreamRangeBytes);
    if (!set.ok()) {
      return call_failed("memset of " + byte_count(kStreamRangeBytes) + " on " +
                             stream_text(i, streams.size()) + " live",
                         set);
    }
    const Outcome copied = copy_to_host(device, streams[i], &received[i * kStreamRangeBytes], range,
                                        kStreamRangeBytes);
    if (!copied.ok()) {
      return call_failed("copy_device_to_host of " + byte_count(kStreamRangeBytes) + " on " +
                             stream_text(i, streams.size()) + " live",
                         copied);
    }
  }
  return {};
}

// "" or the stream_synchronize that failed.
std::string synchronize_each(const DeviceUnderTest& device,
                             const std::vector<hx_stream*>& streams) {
  for (size_t i = 0; i < streams.size(); ++i) {
    const Outcome waited =
        KitCore::take(device.api->streams->synchronize(device.device, streams[i]));
    if (!waited.ok()) {
      return call_failed("stream_synchronize of " + stream_text(i, streams.size()) + " live",
                         waited);
    }
  }
  return {};
}

// "" when every stream's range reached the host with its byte, which the memset before the copy
// on that stream wrote.
std::string wrong_bytes(const Bytes& received, size_t count) {
  for (size_t i = 0; i < count * kStreamRangeBytes; ++i) {
    const size_t stream = i / kStreamRangeBytes;
    if (received[i] == marker_byte(stream)) continue;
    return "a memset of " + byte_count(kStreamRangeBytes) + " at offset " +
           std::to_string(stream * kStreamRangeBytes) +
           " then a copy_device_to_host of that range, " + "on " + stream_text(stream, count) +
           " live, read once every stream_synchronize " +
           "returned: " + memory_section::wrong_byte(i, marker_byte(stream), received[i]) +
           "; every live stream must run its own work, in order, however many are live";
  }
  return {};
}

}  // namespace

std::string many_streams_check(const DeviceUnderTest& device) {
  return device.label + ": up to " + std::to_string(kMostStreams) +
         " live streams each run their work";
}

void check_many_streams(const DeviceUnderTest& device, const std::string& cannot_run,
                        SectionLog& log) {
  const std::string name = many_streams_check(device);
  if (!cannot_run.empty()) {
    log.skip(name, cannot_run);
    return;
  }
  // The memory outlives the streams, which are synchronized before they are destroyed.
  const DeviceAllocation buffer(device, kMostStreams * kStreamRangeBytes);
  Bytes received(kMostStreams * kStreamRangeBytes, 0);
  LiveStreams streams(
      {"stream", "stream_create", HX_OK, "at its limit refuse with a status naming the limit"},
      [&device](hx_stream* stream) {
        KitCore::take(device.api->streams->synchronize(device.device, stream));
        device.api->streams->destroy(device.device, stream);
      });
  std::string failure = buffer.failure();
  if (failure.empty()) {
    streams.fill(kMostStreams, [&device](hx_stream** out) {
      return device.api->streams->create(device.device, out);
    });
    failure = streams.problem();
    if (failure.empty() && streams.count() == 0) {
      failure = call_failed("stream_create with no stream live", streams.refusal());
    }
  }
  if (failure.empty()) {
    failure = enqueue_on_each(device, streams.handles(), buffer.buffer(), received);
  }
  if (failure.empty()) failure = synchronize_each(device, streams.handles());
  if (failure.empty()) failure = wrong_bytes(received, streams.count());
  if (failure.empty()) {
    log.pass(name, streams.summary());
  } else {
    log.fail(name, failure);
  }
}

}  // namespace hxrt_conformance::in_flight_section
