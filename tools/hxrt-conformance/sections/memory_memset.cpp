// memset over a whole allocation and over ranges inside one, with the bytes around each range
// checked unchanged.
#include <algorithm>
#include <cstddef>

#include "sections/memory_checks.hpp"

namespace hxrt_conformance::memory_section {
namespace {

// Odd, so that no range below ends on a word boundary by chance.
constexpr size_t kBufferBytes = (64 << 10) + 7;

struct Range {
  size_t offset;
  size_t size;
  uint8_t value;
};

// The whole buffer first; then a first byte, an odd range, the last bytes and a long range,
// each over fresh random bytes. 0x00 catches a memset that ignores its value.
const std::vector<Range>& ranges() {
  static const std::vector<Range> all = {{0, kBufferBytes, 0xa5},
                                         {0, 1, 0x00},
                                         {3, 1000, 0x3c},
                                         {kBufferBytes - 7, 7, 0xff},
                                         {4096, (32 << 10) + 1, 0x5a}};
  return all;
}

std::string memset_call(const Range& range) {
  return "memset(allocation+" + std::to_string(range.offset) + ", " + hex_byte(range.value) + ", " +
         byte_count(range.size) + ")";
}

// What a wrong byte says depends on where it is: inside the range it was not written, outside
// it was written though it should not have been.
std::string wrong_fill(const Range& range, const Bytes& expected, const Bytes& got, size_t offset,
                       const RandomBytes& random) {
  const bool inside = offset >= range.offset && offset - range.offset < range.size;
  const std::string advice = inside ? "memset must write all `size` bytes with the value"
                                    : "memset must write only the `size` bytes at dst";
  return memset_call(range) + " over " + std::to_string(kBufferBytes) +
         " random bytes, read back with copy_device_to_host: " +
         wrong_byte(offset, expected[offset], got[offset]) + "; " + advice + random.seed_note();
}

std::string fill_and_compare(const DeviceUnderTest& device, const DeviceAllocation& buffer,
                             const Range& range, RandomBytes& random) {
  Bytes expected = random.next(kBufferBytes);
  const Outcome put = copy_to_device(device, nullptr, DevicePlace{buffer.buffer(), 0}, expected.data(), kBufferBytes);
  if (!put.ok()) return call_failed("copy_host_to_device", put);
  const Outcome set =
      memset_device(device, nullptr, DevicePlace{buffer.buffer(), range.offset}, range.value, range.size);
  if (!set.ok()) return call_failed(memset_call(range), set);
  std::fill_n(expected.begin() + static_cast<std::ptrdiff_t>(range.offset), range.size,
              range.value);
  Bytes got = complement(expected);
  const Outcome read = copy_to_host(device, nullptr, got.data(), DevicePlace{buffer.buffer(), 0}, kBufferBytes);
  if (!read.ok()) return call_failed("copy_device_to_host", read);
  const std::optional<size_t> offset = first_difference(expected.data(), got.data(), kBufferBytes);
  return offset ? wrong_fill(range, expected, got, *offset, random) : std::string();
}

}  // namespace

void check_memset(const DeviceUnderTest& device, bool copies_work, RandomBytes& random,
                  SectionLog& log) {
  const std::string name =
      device.label + ": memset fills whole and partial ranges and nothing around them";
  if (!can_read_device_memory(device, copies_work, name, log)) return;
  const DeviceAllocation buffer(device, kBufferBytes);
  if (!buffer.ok()) {
    log.fail(name, buffer.failure());
    return;
  }
  for (const Range& range : ranges()) {
    const std::string failure = fill_and_compare(device, buffer, range, random);
    if (!failure.empty()) {
      log.fail(name, failure);
      return;
    }
  }
  log.pass(name);
}

}  // namespace hxrt_conformance::memory_section
