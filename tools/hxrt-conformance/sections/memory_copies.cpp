// Synchronous copies (stream NULL) in every direction, with random bytes of many sizes at
// offsets into the allocations, so that a copy that moves too little, too much or from the
// wrong place shows as a wrong byte.
#include <utility>

#include "sections/memory_checks.hpp"

namespace hxrt_conformance::memory_section {
namespace {

const char* const kMoveAll = "a copy must move all `size` bytes";

// Odd sizes and sizes around the 64 KiB and 1 MiB steps where copies tend to switch paths
// (chunks, staging buffers, DMA).
const std::vector<size_t>& copy_sizes() {
  static const std::vector<size_t> all = {1, 7, 1000, 4097, 64 << 10, 1 << 20, (3 << 20) + 5};
  return all;
}

// Where a copy reads and writes, as offsets into the source and destination allocations.
struct Offsets {
  size_t src;
  size_t dst;
};

// Aligned starts, then starts that are not: a plugin may assume alignment the core never
// promised for a pointer into a tensor.
const std::vector<Offsets>& copy_offsets() {
  static const std::vector<Offsets> all = {{0, 0}, {3, 5}};
  return all;
}

// A round trip has one allocation: the same, aligned and not.
const std::vector<size_t>& round_trip_offsets() {
  static const std::vector<size_t> all = {0, 3};
  return all;
}

std::string placed(size_t offset) {
  return offset == 0 ? std::string() : " at allocation+" + std::to_string(offset);
}

// Sends `size` random bytes to `offset` into a new allocation and reads them back; "" when they
// come back.
std::string round_trip(const DeviceUnderTest& device, size_t size, size_t offset,
                       RandomBytes& random) {
  const DeviceAllocation buffer(device, size + offset);
  if (!buffer.ok()) return buffer.failure();
  const Bytes sent = random.next(size);
  Bytes received = complement(sent);
  const std::string put = "copy_host_to_device of " + byte_count(size) + placed(offset);
  const Outcome put_outcome =
      copy_to_device(device, nullptr, buffer.ptr() + offset, sent.data(), size);
  if (!put_outcome.ok()) return call_failed(put, put_outcome);
  const Outcome get_outcome =
      copy_to_host(device, nullptr, received.data(), buffer.ptr() + offset, size);
  if (!get_outcome.ok()) {
    return call_failed("copy_device_to_host of " + byte_count(size) + placed(offset), get_outcome);
  }
  return compare_bytes(put + " then copy_device_to_host", sent, received.data(), kMoveAll, random);
}

// Sends random bytes to `src`, copies them device to device into `dst`, reads `dst` back.
std::string device_to_device(const DeviceUnderTest& dst, const DeviceUnderTest& src, size_t size,
                             Offsets offsets, RandomBytes& random) {
  const DeviceAllocation from(src, size + offsets.src);
  if (!from.ok()) return from.failure();
  const DeviceAllocation to(dst, size + offsets.dst);
  if (!to.ok()) return to.failure();
  const Bytes sent = random.next(size);
  Bytes received = complement(sent);
  const Outcome put = copy_to_device(src, nullptr, from.ptr() + offsets.src, sent.data(), size);
  if (!put.ok()) return call_failed("copy_host_to_device of " + byte_count(size), put);
  const std::string what = "copy_device_to_device of " + byte_count(size) + " from " + src.label +
                           placed(offsets.src) + " to " + dst.label + placed(offsets.dst);
  const Outcome moved =
      copy_between(dst, nullptr, to.ptr() + offsets.dst, src, from.ptr() + offsets.src, size);
  if (!moved.ok()) return call_failed(what, moved);
  const Outcome got = copy_to_host(dst, nullptr, received.data(), to.ptr() + offsets.dst, size);
  if (!got.ok()) return call_failed("copy_device_to_host of " + byte_count(size), got);
  return compare_bytes(what + " (read back with copy_device_to_host)", sent, received.data(),
                       kMoveAll, random);
}

void check_device_to_device(const std::string& name, const DeviceUnderTest& dst,
                            const DeviceUnderTest& src, RandomBytes& random, SectionLog& log) {
  for (const size_t size : copy_sizes()) {
    for (const Offsets offsets : copy_offsets()) {
      const std::string failure = device_to_device(dst, src, size, offsets, random);
      if (!failure.empty()) {
        log.fail(name, failure);
        return;
      }
    }
  }
  log.pass(name, "1 byte to 3 MiB, aligned and at odd offsets");
}

// One allocation and the bytes it should hold.
struct Filled {
  const DeviceAllocation* buffer;
  const Bytes* bytes;
};

// The size-0 calls with real pointers must leave both sides as they were.
std::string empty_calls_change_nothing(const DeviceUnderTest& device, RandomBytes& random) {
  constexpr size_t kSize = 64;
  const DeviceAllocation first(device, kSize);
  if (!first.ok()) return first.failure();
  const DeviceAllocation second(device, kSize);
  if (!second.ok()) return second.failure();
  const Bytes first_bytes = random.next(kSize);
  const Bytes second_bytes = random.next(kSize);
  const std::vector<Filled> filled = {{&first, &first_bytes}, {&second, &second_bytes}};
  for (const Filled& each : filled) {
    const Outcome put =
        copy_to_device(device, nullptr, each.buffer->ptr(), each.bytes->data(), kSize);
    if (!put.ok()) return call_failed("copy_host_to_device of " + byte_count(kSize), put);
  }
  const Bytes host_bytes = random.next(kSize);
  Bytes host = host_bytes;
  const std::vector<std::pair<std::string, Outcome>> calls = {
      {"copy_host_to_device", copy_to_device(device, nullptr, first.ptr(), host.data(), 0)},
      {"copy_device_to_host", copy_to_host(device, nullptr, host.data(), first.ptr(), 0)},
      {"copy_device_to_device",
       copy_between(device, nullptr, second.ptr(), device, first.ptr(), 0)},
      {"memset", memset_device(device, nullptr, first.ptr(), 0xa5, 0)},
  };
  for (const auto& [call, outcome] : calls) {
    if (!outcome.ok()) {
      return call_failed(call + " of 0 bytes", outcome) + "; size 0 is a no-op that succeeds";
    }
  }
  const char* const kNoOp = "a call of size 0 must change nothing";
  std::string wrong = compare_bytes("copy_device_to_host of 0 bytes into a host buffer", host_bytes,
                                    host.data(), kNoOp, random);
  for (const Filled& each : filled) {
    if (!wrong.empty()) break;
    Bytes now(kSize);
    const Outcome got = copy_to_host(device, nullptr, now.data(), each.buffer->ptr(), kSize);
    if (!got.ok()) return call_failed("copy_device_to_host of " + byte_count(kSize), got);
    wrong = compare_bytes(
        "after copy_host_to_device, copy_device_to_device and memset of 0 bytes, the device "
        "memory",
        *each.bytes, now.data(), kNoOp, random);
  }
  return wrong;
}

// A tensor without elements may have a NULL data pointer, so size 0 must not look at them.
std::string empty_calls_ignore_null(const DeviceUnderTest& device) {
  const std::vector<std::pair<std::string, Outcome>> calls = {
      {"copy_host_to_device", copy_to_device(device, nullptr, nullptr, nullptr, 0)},
      {"copy_device_to_host", copy_to_host(device, nullptr, nullptr, nullptr, 0)},
      {"copy_device_to_device", copy_between(device, nullptr, nullptr, device, nullptr, 0)},
      {"memset", memset_device(device, nullptr, nullptr, 0, 0)},
  };
  for (const auto& [call, outcome] : calls) {
    if (!outcome.ok()) {
      return call_failed(call + " of 0 bytes with NULL pointers", outcome) +
             "; size 0 is a no-op whatever the pointers";
    }
  }
  return {};
}

std::string round_trips_check(const DeviceUnderTest& device) {
  return device.label + ": host -> device -> host round trips keep every byte";
}

}  // namespace

std::string needs_round_trips(const DeviceUnderTest& device) {
  return "device memory is read through copy_host_to_device and copy_device_to_host, and " +
         device.label + "'s round trips fail (see '" + round_trips_check(device) + "')";
}

bool can_read_device_memory(const DeviceUnderTest& device, bool copies_work,
                            const std::string& name, SectionLog& log) {
  if (!copies_work) log.skip(name, needs_round_trips(device));
  return copies_work;
}

bool check_round_trips(const DeviceUnderTest& device, RandomBytes& random, SectionLog& log) {
  for (const size_t size : copy_sizes()) {
    for (const size_t offset : round_trip_offsets()) {
      const std::string failure = round_trip(device, size, offset, random);
      if (!failure.empty()) {
        log.fail(round_trips_check(device), failure);
        return false;
      }
    }
  }
  log.pass(round_trips_check(device), "1 byte to 3 MiB, aligned and at odd offsets");
  return true;
}

void check_copies_within(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                         SectionLog& log) {
  const std::string name =
      device.label + ": device -> device copies within the device keep every byte";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  check_device_to_device(name, device, device, random, log);
}

void check_copies_between(const DeviceUnderTest& dst, const DeviceUnderTest& src,
                          RandomBytes& random, SectionLog& log) {
  const std::string name =
      src.label + " -> " + dst.label + ": copies between devices keep every byte";
  check_device_to_device(name, dst, src, random, log);
}

void check_empty_transfers(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                           SectionLog& log) {
  const std::string name =
      device.label + ": size-0 copies and memsets are no-ops, NULL pointers included";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  std::string failure = empty_calls_change_nothing(device, random);
  if (failure.empty()) failure = empty_calls_ignore_null(device);
  log.expect(failure.empty(), name, failure);
}

}  // namespace hxrt_conformance::memory_section
