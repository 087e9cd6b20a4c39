// What the memory and stream checks move around: device allocations that free themselves,
// random bytes from the run's seed, and the words a failure uses for a wrong byte.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kit_core.hpp"
#include "plugin_session.hpp"

namespace hxrt_conformance::memory_section {

using Bytes = std::vector<unsigned char>;

// One device of the plugin under test, as the checks name it.
struct DeviceUnderTest {
  const hx_plugin_api* api;
  hx_device* device;
  std::string label;  // "device 0"
};

// The devices of a session, labelled by ordinal.
std::vector<DeviceUnderTest> devices_under_test(const hx_plugin_api& api,
                                                const std::vector<hx_device*>& devices);

// The alignment the core's allocator asks for; the checks allocate with it unless they are
// checking alignment.
constexpr size_t kCoreAlignment = 256;

// "1 byte", "1000 bytes".
std::string byte_count(size_t size);

// "allocate(1000 bytes, alignment 256)".
std::string allocate_call(size_t size, size_t alignment);

// One allocation, released with deallocate when it goes out of scope.
class DeviceBuffer {
 public:
  DeviceBuffer(const DeviceUnderTest& target, size_t size, size_t alignment = kCoreAlignment);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(DeviceBuffer&&) = delete;

  // allocate succeeded and, unless size is 0, gave a pointer.
  bool ok() const { return outcome_.ok() && (ptr_ != nullptr || size_ == 0); }
  // Why it is not ok(): "allocate(1000 bytes, alignment 256) failed: OUT_OF_MEMORY: ...".
  std::string failure() const;
  // What allocate returned.
  const Outcome& outcome() const { return outcome_; }
  unsigned char* ptr() const { return static_cast<unsigned char*>(ptr_); }
  size_t size() const { return size_; }
  size_t alignment() const { return alignment_; }

 private:
  const DeviceUnderTest* target_;
  size_t size_;
  size_t alignment_;
  void* ptr_ = nullptr;
  Outcome outcome_;
  bool owned_ = false;  // deallocate is due: allocate succeeded and the buffer was not moved
};

// Random bytes drawn from the run's seed, in a fixed order, so that --seed reproduces a
// failure.
class RandomBytes {
 public:
  explicit RandomBytes(uint64_t seed) : seed_(seed), state_(seed) {}
  Bytes next(size_t size);
  // " (random bytes from --seed 1)", for the end of a failure.
  std::string seed_note() const;

 private:
  uint64_t seed_;
  uint64_t state_;
};

// A buffer of the size of `bytes` in which every byte differs from the one in `bytes`, so that
// a byte a copy did not write is always seen.
Bytes complement(const Bytes& bytes);

// The first offset at which `actual` differs from `expected` (same size), or nullopt.
std::optional<size_t> first_difference(const unsigned char* expected, const unsigned char* actual,
                                       size_t size);

// "first wrong byte at offset 65536 (expected 0x5a, got 0x00)".
std::string wrong_byte(size_t offset, unsigned char expected, unsigned char got);
// "" when `got` holds `expected`, else "<what>: first wrong byte at offset ...; <advice>" and
// the seed the bytes came from.
std::string compare_bytes(const std::string& what, const Bytes& expected, const unsigned char* got,
                          const std::string& advice, const RandomBytes& random);
// "0x5a".
std::string hex_byte(unsigned char value);
// "0x7f3a10000040".
std::string hex_pointer(const void* ptr);

// The plugin's copies and memset, their status taken.
Outcome copy_to_device(const DeviceUnderTest& target, hx_stream* stream, void* dst, const void* src,
                       size_t size);
Outcome copy_to_host(const DeviceUnderTest& target, hx_stream* stream, void* dst, const void* src,
                     size_t size);
Outcome copy_between(const DeviceUnderTest& dst_target, hx_stream* stream, void* dst,
                     const DeviceUnderTest& src_target, const void* src, size_t size);
Outcome memset_device(const DeviceUnderTest& target, hx_stream* stream, void* dst, uint8_t value,
                      size_t size);

// "copy_host_to_device of 4096 bytes failed: INVALID_ARGUMENT: ...".
std::string call_failed(const std::string& call, const Outcome& outcome);

}  // namespace hxrt_conformance::memory_section
