#include "hxrt/printable.hpp"

#include <cstdio>
#include <string>

namespace hxrt {
namespace {

// Bytes in the well-formed UTF-8 sequence that starts at text[at] (1 to 4), or 0 when none
// starts there (a stray continuation byte, an overlong form, a surrogate, a cut sequence).
size_t utf8_sequence_length(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size() || byte(1) < low || byte(1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

void append_escaped(std::string& out, unsigned char byte) {
  char escaped[5];
  std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
  out += escaped;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const size_t length = utf8_sequence_length(text, at);
    // U+0080..U+009F are C1 controls (U+009B is CSI), encoded C2 80 .. C2 9F.
    const bool c1 = length == 2 && lead == 0xC2 && static_cast<unsigned char>(text[at + 1]) < 0xA0;
    if (length == 0 || c1 || lead < 0x20 || lead == 0x7F) {
      for (size_t i = 0; i < (c1 ? 2 : 1); ++i) {
        append_escaped(out, static_cast<unsigned char>(text[at + i]));
      }
      at += c1 ? 2 : 1;
    } else {
      out.append(text, at, length);
      at += length;
    }
  }
  return out;
}

}  // namespace hxrt
