// What the in_flight checks need before they put thousands of things in flight: device memory
// that can be read back, and a stream whose synchronize waits for its work.
#include <optional>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_stream.hpp"
#include "device_transfers.hpp"
#include "sections/in_flight_checks.hpp"

namespace hxrt_conformance::in_flight_section {
namespace {

constexpr size_t kRoundTripBytes = 256;
// Few, so that a plugin whose synchronize returns early costs little time at stream_destroy.
constexpr size_t kShortQueue = 8;

// "" when kRoundTripBytes go to the device and come back intact, else what went wrong.
std::string round_trip(const DeviceUnderTest& device, RandomBytes& random) {
  const DeviceAllocation buffer(device, kRoundTripBytes);
  if (!buffer.ok()) return buffer.failure();
  const Bytes sent = random.next(kRoundTripBytes);
  Bytes received = memory_section::complement(sent);
  const std::string put_call = "copy_host_to_device of " + byte_count(kRoundTripBytes);
  const Outcome put =
      copy_to_device(device, nullptr, {buffer.buffer(), 0}, sent.data(), kRoundTripBytes);
  if (!put.ok()) return call_failed(put_call, put);
  const Outcome got =
      copy_to_host(device, nullptr, received.data(), {buffer.buffer(), 0}, kRoundTripBytes);
  if (!got.ok()) return call_failed(put_call + " then copy_device_to_host", got);
  return memory_section::compare_bytes(put_call + " then copy_device_to_host", sent,
                                       received.data(), "a copy must move all `size` bytes",
                                       random);
}

}  // namespace

std::string round_trip_failure(const DeviceUnderTest& device, RandomBytes& random) {
  const std::string failure = round_trip(device, random);
  if (failure.empty()) return {};
  return "device memory is read back through copy_host_to_device and copy_device_to_host, and "
         "a round trip of " +
         byte_count(kRoundTripBytes) + " fails (" + failure + "); see the memory section";
}

std::string short_queue_failure(const DeviceUnderTest& device) {
  const DeviceAllocation buffer(device, kShortQueue);
  if (!buffer.ok()) return buffer.failure();
  const DeviceStream stream(device);
  if (!stream.ok()) return stream.failure();
  Bytes expected(kShortQueue);
  for (size_t i = 0; i < kShortQueue; ++i) {
    expected[i] = static_cast<unsigned char>(0xa0 + i);
    const Outcome set = memset_device(device, stream.get(), {buffer.buffer(), i}, expected[i], 1);
    if (!set.ok()) return call_failed("memset of 1 byte on a stream", set);
  }
  const Outcome synchronized =
      KitCore::take(device.api->streams->synchronize(device.device, stream.get()));
  if (!synchronized.ok()) return call_failed("stream_synchronize", synchronized);
  Bytes got = memory_section::complement(expected);
  const Outcome read = copy_to_host(device, nullptr, got.data(), {buffer.buffer(), 0}, kShortQueue);
  if (!read.ok()) return call_failed("copy_device_to_host", read);
  const std::optional<size_t> wrong =
      memory_section::first_difference(expected.data(), got.data(), kShortQueue);
  if (!wrong) return {};
  return std::to_string(kShortQueue) + " memsets of 1 byte queued on one stream had not all " +
         "run when stream_synchronize returned: " +
         memory_section::wrong_byte(*wrong, expected[*wrong], got[*wrong]) +
         "; the kit cannot wait for thousands on such a stream; see the streams section";
}

}  // namespace hxrt_conformance::in_flight_section
