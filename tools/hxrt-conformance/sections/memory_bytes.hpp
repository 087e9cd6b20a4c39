// The bytes the memory, streams and threads checks move through device memory: random bytes
// from the run's seed, so that --seed reproduces a failure, and the words a failure uses for
// a wrong byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hxrt_conformance::memory_section {

using Bytes = std::vector<unsigned char>;

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

}  // namespace hxrt_conformance::memory_section
