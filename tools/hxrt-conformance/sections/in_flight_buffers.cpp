// Many live buffers: small buffers until 8192 are live or allocate refuses with OUT_OF_MEMORY,
// each keeping bytes of its own; once all are deallocated, as many again, which a deallocate
// that leaks a driver allocation or a handle fails.
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_transfers.hpp"
#include "sections/in_flight_checks.hpp"
#include "sections/live_handles.hpp"

namespace hxrt_conformance::in_flight_section {
namespace {

// Twice Vulkan's usual maxMemoryAllocationCount (4096), so that a plugin giving each buffer an
// allocation of the driver's meets that limit here rather than in a user's model.
constexpr size_t kMostBuffers = 8192;
// Small, so that the count runs out rather than the memory: 2 MiB in all.
constexpr size_t kBufferBytes = 256;

using LiveBuffers = LiveHandles<hx_buffer>;

HandleKind buffer_kind(const DeviceUnderTest& device) {
  return {"buffer", allocate_call(kBufferBytes, device.alignment), HX_OUT_OF_MEMORY,
          "at its limit refuse with OUT_OF_MEMORY naming the limit"};
}

LiveBuffers::Create allocator(const DeviceUnderTest& device) {
  return [&device](hx_buffer** out) {
    return device.api->allocate(device.device, kBufferBytes, device.alignment, out);
  };
}

LiveBuffers::Release deallocator(const DeviceUnderTest& device) {
  return
      [&device](hx_buffer* buffer) { device.api->deallocate(device.device, buffer, kBufferBytes); };
}

// "buffer 17 of 8192".
std::string buffer_text(size_t index, size_t count) {
  return "buffer " + std::to_string(index + 1) + " of " + std::to_string(count);
}

// Why buffer `index` does not hold its part of `sent`: another buffer's bytes, when it holds
// exactly those (two handles on one memory), else its first wrong byte.
std::string wrong_bytes(size_t index, const Bytes& sent, const unsigned char* got,
                        const RandomBytes& random) {
  const size_t count = sent.size() / kBufferBytes;
  const std::string what =
      buffer_text(index, count) + ", read back after every live buffer was written";
  const std::string advice = "give every live buffer memory of its own";
  for (size_t other = 0; other < count; ++other) {
    if (other != index && std::memcmp(&sent[other * kBufferBytes], got, kBufferBytes) == 0) {
      return what + ", holds the bytes written to " + buffer_text(other, count) + "; " + advice +
             random.seed_note();
    }
  }
  const Bytes expected(sent.begin() + static_cast<std::ptrdiff_t>(index * kBufferBytes),
                       sent.begin() + static_cast<std::ptrdiff_t>((index + 1) * kBufferBytes));
  return memory_section::compare_bytes(what, expected, got,
                                       "a write to another buffer changed it; " + advice, random);
}

// Writes random bytes into every buffer, then reads every one back.
std::string own_bytes_failure(const DeviceUnderTest& device, const std::vector<hx_buffer*>& buffers,
                              RandomBytes& random) {
  const Bytes sent = random.next(buffers.size() * kBufferBytes);
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Outcome put =
        copy_to_device(device, nullptr, {buffers[i], 0}, &sent[i * kBufferBytes], kBufferBytes);
    if (!put.ok()) {
      return call_failed("copy_host_to_device of " + byte_count(kBufferBytes) + " into " +
                             buffer_text(i, buffers.size()) + " live",
                         put);
    }
  }
  Bytes got(kBufferBytes);
  for (size_t i = 0; i < buffers.size(); ++i) {
    // Every byte differs from the one expected, so that a byte the copy did not write shows.
    for (size_t byte = 0; byte < kBufferBytes; ++byte) {
      got[byte] = static_cast<unsigned char>(~sent[i * kBufferBytes + byte]);
    }
    const Outcome read = copy_to_host(device, nullptr, got.data(), {buffers[i], 0}, kBufferBytes);
    if (!read.ok()) {
      return call_failed("copy_device_to_host of " + byte_count(kBufferBytes) + " from " +
                             buffer_text(i, buffers.size()) + " live",
                         read);
    }
    if (std::memcmp(&sent[i * kBufferBytes], got.data(), kBufferBytes) != 0) {
      return wrong_bytes(i, sent, got.data(), random);
    }
  }
  return {};
}

// "" when allocate gives `reached` buffers again, all of them having been deallocated.
std::string allocate_again_failure(const DeviceUnderTest& device, LiveBuffers& again,
                                   size_t reached) {
  again.fill(reached, allocator(device));
  if (!again.problem().empty() || again.count() == reached) return again.problem();
  return "once all " + std::to_string(reached) + " buffers were deallocated, " +
         call_failed(
             buffer_kind(device).call + " with " + std::to_string(again.count()) + " live buffers",
             again.refusal()) +
         "; deallocate must give back all that allocate took (memory, handles, the driver's "
         "allocations)";
}

}  // namespace

void check_many_buffers(const DeviceUnderTest& device, const std::string& cannot_read,
                        RandomBytes& random, SectionLog& log) {
  const std::string live_name = device.label + ": allocate gives " + std::to_string(kMostBuffers) +
                                " live buffers, or OUT_OF_MEMORY at its limit";
  const std::string bytes_name =
      device.label + ": each of the many live buffers keeps its own bytes";
  const std::string again_name =
      device.label + ": allocate gives as many buffers again once all are deallocated";
  LiveBuffers buffers(buffer_kind(device), deallocator(device));
  buffers.fill(kMostBuffers, allocator(device));
  std::string failure = buffers.problem();
  if (failure.empty() && buffers.count() == 0) {
    failure = call_failed(buffer_kind(device).call + " with no buffer live", buffers.refusal()) +
              "; a device must give at least one small buffer";
  }
  if (!failure.empty()) {
    log.fail(live_name, failure);
    const std::string reason = "needs the live buffers of '" + live_name + "'";
    log.skip(bytes_name, reason);
    log.skip(again_name, reason);
    return;
  }
  log.pass(live_name, buffers.summary());
  if (cannot_read.empty()) {
    const std::string wrong = own_bytes_failure(device, buffers.handles(), random);
    log.expect(wrong.empty(), bytes_name, wrong);
  } else {
    log.skip(bytes_name, cannot_read);
  }
  const size_t reached = buffers.count();
  buffers.release_all();
  LiveBuffers again(buffer_kind(device), deallocator(device));
  const std::string again_failure = allocate_again_failure(device, again, reached);
  if (again_failure.empty()) {
    log.pass(again_name, again.summary());
  } else {
    log.fail(again_name, again_failure);
  }
}

}  // namespace hxrt_conformance::in_flight_section
