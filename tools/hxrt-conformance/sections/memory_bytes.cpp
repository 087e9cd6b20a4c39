#include "sections/memory_bytes.hpp"

#include <cstdio>
#include <cstring>

namespace hxrt_conformance::memory_section {

// The loops below run over many MiB per section and use raw pointers and one small generator
// (splitmix64) rather than vector indexing and std::mt19937_64: in the unoptimised sanitizer
// build those calls per byte made the sections several times slower.
Bytes RandomBytes::next(size_t size) {
  Bytes bytes(size);
  unsigned char* out = bytes.data();
  unsigned char* const end = out + size;
  while (out != end) {
    state_ += 0x9e3779b97f4a7c15u;
    uint64_t word = state_;
    word = (word ^ (word >> 30)) * 0xbf58476d1ce4e5b9u;
    word = (word ^ (word >> 27)) * 0x94d049bb133111ebu;
    word ^= word >> 31;
    for (int byte = 0; byte < 8 && out != end; ++byte, word >>= 8) {
      *out++ = static_cast<unsigned char>(word);
    }
  }
  return bytes;
}

std::string RandomBytes::seed_note() const {
  return " (random bytes from --seed " + std::to_string(seed_) + ")";
}

Bytes complement(const Bytes& bytes) {
  Bytes other(bytes.size());
  const unsigned char* in = bytes.data();
  for (unsigned char *out = other.data(), *end = out + other.size(); out != end; ++out, ++in) {
    *out = static_cast<unsigned char>(~*in);
  }
  return other;
}

std::optional<size_t> first_difference(const unsigned char* expected, const unsigned char* actual,
                                       size_t size) {
  if (size == 0 || std::memcmp(expected, actual, size) == 0) return std::nullopt;
  // Bounded: a plugin that claimed its work done too early may still be writing `actual`, so
  // the bytes memcmp saw differ may be equal by now.
  size_t offset = 0;
  while (offset < size && expected[offset] == actual[offset]) ++offset;
  if (offset == size) return std::nullopt;
  return offset;
}

std::string wrong_byte(size_t offset, unsigned char expected, unsigned char got) {
  return "first wrong byte at offset " + std::to_string(offset) + " (expected " +
         hex_byte(expected) + ", got " + hex_byte(got) + ")";
}

std::string compare_bytes(const std::string& what, const Bytes& expected, const unsigned char* got,
                          const std::string& advice, const RandomBytes& random) {
  const std::optional<size_t> offset = first_difference(expected.data(), got, expected.size());
  if (!offset) return {};
  return what + ": " + wrong_byte(*offset, expected[*offset], got[*offset]) + "; " + advice +
         random.seed_note();
}

std::string hex_byte(unsigned char value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", static_cast<unsigned>(value));
  return text;
}

std::string hex_pointer(const void* ptr) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(ptr)));
  return text;
}

}  // namespace hxrt_conformance::memory_section
