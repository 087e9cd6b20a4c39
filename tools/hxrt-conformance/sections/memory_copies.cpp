// Synchronous copies (stream NULL) in every direction, with random bytes of many sizes at
// offsets into the allocations, so that a copy that moves too little, too much or from the
// wrong place shows as a wrong byte.
#include <algorithm>
#include <cstddef>
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
      copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), offset}, sent.data(), size);
  if (!put_outcome.ok()) return call_failed(put, put_outcome);
  const Outcome get_outcome =
      copy_to_host(device, nullptr, received.data(), DevicePlace{buffer.buffer(), offset}, size);
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
  const Outcome put = copy_to_device(src, nullptr, DevicePlace{from.buffer(), offsets.src}, sent.data(), size);
  if (!put.ok()) return call_failed("copy_host_to_device of " + byte_count(size), put);
  const std::string what = "copy_device_to_device of " + byte_count(size) + " from " + src.label +
                           placed(offsets.src) + " to " + dst.label + placed(offsets.dst);
  const Outcome moved =
      copy_between(dst, nullptr, DevicePlace{to.buffer(), offsets.dst}, src, DevicePlace{from.buffer(), offsets.src}, size);
  if (!moved.ok()) return call_failed(what, moved);
  const Outcome got = copy_to_host(dst, nullptr, received.data(), DevicePlace{to.buffer(), offsets.dst}, size);
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

// Two ranges of one buffer: where a copy inside it reads and writes.
struct InsideRanges {
  size_t src;
  size_t dst;
  size_t size;
};

// At offsets a tensor could have (multiples of the alignment, none 0) and at odd ones, so
// that a plugin that ignores an offset, or adds it twice, shows.
std::vector<InsideRanges> inside_ranges(const DeviceUnderTest& device) {
  std::vector<InsideRanges> ranges;
  for (const size_t size : {size_t{1}, size_t{1000}, size_t{(64 << 10) + 3}}) {
    const size_t src = device.alignment;
    ranges.push_back({src, device.aligned_offset(src + size) + device.alignment, size});
    ranges.push_back({3, size + 8, size});
  }
  return ranges;
}

// Fills a buffer with random bytes, copies `ranges.size` new bytes to `src` and from there to
// `dst` inside the buffer, and reads it all back: both ranges hold the new bytes and every
// other byte is as it was.
std::string copy_inside(const DeviceUnderTest& device, const InsideRanges& ranges,
                        RandomBytes& random) {
  const size_t total = std::max(ranges.src, ranges.dst) + ranges.size + 5;
  const DeviceAllocation buffer(device, total);
  if (!buffer.ok()) return buffer.failure();
  Bytes expected = random.next(total);
  const Outcome filled =
      copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), 0}, expected.data(), total);
  if (!filled.ok()) return call_failed("copy_host_to_device of " + byte_count(total), filled);
  const Bytes sent = random.next(ranges.size);
  const Outcome put = copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), ranges.src},
                                     sent.data(), ranges.size);
  if (!put.ok()) {
    return call_failed("copy_host_to_device of " + byte_count(ranges.size) + placed(ranges.src),
                       put);
  }
  const std::string what = "copy_device_to_device of " + byte_count(ranges.size) +
                           " inside one buffer of " + byte_count(total) + ", from offset " +
                           std::to_string(ranges.src) + " to offset " +
                           std::to_string(ranges.dst);
  const Outcome moved =
      copy_between(device, nullptr, DevicePlace{buffer.buffer(), ranges.dst}, device,
                   DevicePlace{buffer.buffer(), ranges.src}, ranges.size);
  if (!moved.ok()) return call_failed(what, moved);
  std::copy(sent.begin(), sent.end(), expected.begin() + static_cast<std::ptrdiff_t>(ranges.src));
  std::copy(sent.begin(), sent.end(), expected.begin() + static_cast<std::ptrdiff_t>(ranges.dst));
  Bytes now = complement(expected);
  const Outcome got =
      copy_to_host(device, nullptr, now.data(), DevicePlace{buffer.buffer(), 0}, total);
  if (!got.ok()) return call_failed("copy_device_to_host of " + byte_count(total), got);
  return compare_bytes(what + ", the whole buffer read back", expected, now.data(),
                       "a copy reads `size` bytes at src + src_offset and writes them at dst + "
                       "dst_offset, and nothing else",
                       random);
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
        copy_to_device(device, nullptr, DevicePlace{each.buffer->buffer(), 0}, each.bytes->data(), kSize);
    if (!put.ok()) return call_failed("copy_host_to_device of " + byte_count(kSize), put);
  }
  const Bytes host_bytes = random.next(kSize);
  Bytes host = host_bytes;
  const std::vector<std::pair<std::string, Outcome>> calls = {
      {"copy_host_to_device", copy_to_device(device, nullptr, DevicePlace{first.buffer(), 0}, host.data(), 0)},
      {"copy_device_to_host", copy_to_host(device, nullptr, host.data(), DevicePlace{first.buffer(), 0}, 0)},
      {"copy_device_to_device",
       copy_between(device, nullptr, DevicePlace{second.buffer(), 0}, device, DevicePlace{first.buffer(), 0}, 0)},
      {"memset", memset_device(device, nullptr, DevicePlace{first.buffer(), 0}, 0xa5, 0)},
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
    const Outcome got = copy_to_host(device, nullptr, now.data(), DevicePlace{each.buffer->buffer(), 0}, kSize);
    if (!got.ok()) return call_failed("copy_device_to_host of " + byte_count(kSize), got);
    wrong = compare_bytes(
        "after copy_host_to_device, copy_device_to_device and memset of 0 bytes, the device "
        "memory",
        *each.bytes, now.data(), kNoOp, random);
  }
  return wrong;
}

// A tensor without elements may have a NULL buffer, so size 0 must not look at it.
std::string empty_calls_ignore_null(const DeviceUnderTest& device) {
  const std::vector<std::pair<std::string, Outcome>> calls = {
      {"copy_host_to_device", copy_to_device(device, nullptr, DevicePlace{}, nullptr, 0)},
      {"copy_device_to_host", copy_to_host(device, nullptr, nullptr, DevicePlace{}, 0)},
      {"copy_device_to_device",
       copy_between(device, nullptr, DevicePlace{}, device, DevicePlace{}, 0)},
      {"memset", memset_device(device, nullptr, DevicePlace{}, 0, 0)},
  };
  for (const auto& [call, outcome] : calls) {
    if (!outcome.ok()) {
      return call_failed(call + " of 0 bytes with NULL buffers", outcome) +
             "; size 0 is a no-op whatever the buffers and pointers";
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

void check_copies_inside_buffer(const DeviceUnderTest& device, bool copies_work,
                                RandomBytes& random, SectionLog& log) {
  const std::string name =
      device.label + ": copy_device_to_device between offsets of one buffer keeps every byte";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  for (const InsideRanges& ranges : inside_ranges(device)) {
    const std::string failure = copy_inside(device, ranges, random);
    if (!failure.empty()) {
      log.fail(name, failure);
      return;
    }
  }
  log.pass(name, "1 byte to 64 KiB, at multiples of the alignment " +
                     std::to_string(device.alignment) + " and at odd offsets");
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
      device.label + ": size-0 copies and memsets are no-ops, NULL buffers included";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  std::string failure = empty_calls_change_nothing(device, random);
  if (failure.empty()) failure = empty_calls_ignore_null(device);
  log.expect(failure.empty(), name, failure);
}

}  // namespace hxrt_conformance::memory_section
