#include "plugins/probe_key.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

namespace hxrt::detail {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

uint64_t little_endian_64(const unsigned char* bytes, size_t count) {
  uint64_t value = 0;
  for (size_t i = 0; i < count; ++i) value |= uint64_t{bytes[i]} << (8 * i);
  return value;
}

int hex_value(char digit) {
  if (digit >= '0' && digit <= '9') return digit - '0';
  if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
  return -1;
}

uint64_t rotate_left(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

struct SipState {
  uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v1 = rotate_left(v1, 13);
    v1 ^= v0;
    v0 = rotate_left(v0, 32);
    v2 += v3;
    v3 = rotate_left(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotate_left(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotate_left(v1, 17);
    v1 ^= v2;
    v2 = rotate_left(v2, 32);
  }
  void absorb(uint64_t block) {  // two compression rounds: the "2" of SipHash-2-4
    v3 ^= block;
    round();
    round();
    v0 ^= block;
  }
};

}  // namespace

std::optional<ProbeKey> random_probe_key() {
  unsigned char bytes[16];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t now = getrandom(bytes + got, sizeof bytes - got, 0);
    if (now < 0 && errno == EINTR) continue;
    if (now <= 0) return std::nullopt;
    got += static_cast<size_t>(now);
  }
  return ProbeKey{little_endian_64(bytes, 8), little_endian_64(bytes + 8, 8)};
}

std::string probe_key_text(const ProbeKey& key) {
  std::string text;
  for (uint64_t half : {key.k0, key.k1}) {
    for (int byte = 0; byte < 8; ++byte) {
      const unsigned value = (half >> (8 * byte)) & 0xff;
      text += kHexDigits[value >> 4];
      text += kHexDigits[value & 0xf];
    }
  }
  return text;
}

std::optional<ProbeKey> parse_probe_key(std::string_view text) {
  if (text.size() != 32) return std::nullopt;
  unsigned char bytes[16];
  for (size_t i = 0; i < 16; ++i) {
    const int high = hex_value(text[2 * i]);
    const int low = hex_value(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return ProbeKey{little_endian_64(bytes, 8), little_endian_64(bytes + 8, 8)};
}

uint64_t probe_tag(const ProbeKey& key, std::string_view message) {
  SipState state{0x736f6d6570736575ULL ^ key.k0, 0x646f72616e646f6dULL ^ key.k1,
                 0x6c7967656e657261ULL ^ key.k0, 0x7465646279746573ULL ^ key.k1};
  const auto* bytes = reinterpret_cast<const unsigned char*>(message.data());
  const size_t whole = message.size() / 8 * 8;
  for (size_t at = 0; at < whole; at += 8) state.absorb(little_endian_64(bytes + at, 8));
  state.absorb(little_endian_64(bytes + whole, message.size() - whole) |
               (uint64_t{message.size() & 0xff} << 56));
  state.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) state.round();  // the "4": finalisation rounds
  return state.v0 ^ state.v1 ^ state.v2 ^ state.v3;
}

}  // namespace hxrt::detail
