#include "plugins/probe_protocol.hpp"

#include <charconv>

namespace hxrt::detail::probe_protocol {
namespace {

constexpr size_t kTagDigits = 16;

std::string tag_text(uint64_t tag) {
  constexpr char kHexDigits[] = "0123456789abcdef";
  std::string text(kTagDigits, '0');
  for (size_t i = 0; i < kTagDigits; ++i)
    text[kTagDigits - 1 - i] = kHexDigits[(tag >> (4 * i)) & 0xf];
  return text;
}

// What the tag covers: the sequence number ends at the first space, so no two (sequence,
// text) pairs give the same message.
std::string tagged_message(uint64_t sequence, std::string_view text) {
  return std::to_string(sequence) + " " + std::string(text);
}

}  // namespace

std::string signed_line(const ProbeKey& key, uint64_t sequence, std::string_view text) {
  text = text.substr(0, kTextLimit);
  return "\n" + std::to_string(sequence) + " " +
         tag_text(probe_tag(key, tagged_message(sequence, text))) + " " + std::string(text) + "\n";
}

std::optional<SignedLine> verify_line(const ProbeKey& key, std::string_view line) {
  SignedLine signed_text;
  const char* end = line.data() + line.size();
  const auto [after_number, error] = std::from_chars(line.data(), end, signed_text.sequence);
  if (error != std::errc() || after_number == line.data()) return std::nullopt;
  std::string_view rest(after_number, static_cast<size_t>(end - after_number));
  if (rest.size() < kTagDigits + 2 || rest[0] != ' ' || rest[kTagDigits + 1] != ' ') {
    return std::nullopt;
  }
  const std::string_view tag = rest.substr(1, kTagDigits);
  const std::string_view text = rest.substr(kTagDigits + 2);
  // The number must be spelled as signed_line spells it ("007" is not 7), or one tag would
  // vouch for several lines.
  if (line.substr(0, static_cast<size_t>(after_number - line.data())) !=
      std::to_string(signed_text.sequence)) {
    return std::nullopt;
  }
  if (tag != tag_text(probe_tag(key, tagged_message(signed_text.sequence, text)))) {
    return std::nullopt;
  }
  signed_text.text = std::string(text);
  return signed_text;
}

}  // namespace hxrt::detail::probe_protocol
