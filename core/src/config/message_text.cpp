#include "config/message_text.hpp"

#include "config/json_text.hpp"

namespace hxrt::detail {
namespace {

// The length of `text`'s first kShownBytes bytes, less a UTF-8 sequence the cut would split.
size_t shown_length(const std::string& text) {
  if (text.size() <= kShownBytes) return text.size();
  size_t end = kShownBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

std::string cut_note(const std::string& text) {
  return text.size() <= kShownBytes ? "" : "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace

std::string shown(const std::string& text) {
  const std::string quoted = json_text(text.substr(0, shown_length(text)));
  return quoted.substr(1, quoted.size() - 2) + cut_note(text);
}

std::string shown_json(const nlohmann::json& value) {
  if (value.is_string()) return "\"" + shown(value.get_ref<const std::string&>()) + "\"";
  const std::string text = json_text(value);
  return text.substr(0, shown_length(text)) + cut_note(text);
}

std::string shown_pointer(const std::string& pointer) {
  std::string result;
  size_t start = 0;
  while (start < pointer.size()) {
    // Every token starts after a '/': "/devices/GPU:0" is "", "devices", "GPU:0".
    const size_t slash = pointer.find('/', start + 1);
    const size_t end = slash == std::string::npos ? pointer.size() : slash;
    result += pointer[start] + shown(pointer.substr(start + 1, end - start - 1));
    start = end;
  }
  return result;
}

}  // namespace hxrt::detail
