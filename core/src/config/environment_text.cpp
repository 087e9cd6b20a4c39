#include "config/environment_text.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "base/ascii_case.hpp"
#include "config/json_checks.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {
namespace {

bool parse_flag(const std::string& text, const std::string& source, const std::string& path) {
  const std::string value = lowercase_ascii(trimmed(text));
  if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off") return false;
  fail(source, path,
       "expected 1, 0, true, false, yes, no, on or off (any case), got \"" + shown(text) +
           "\"");
}

// A number when the text reads as one ("4", "-1", "2.5"), else the text as a string, for the
// reader to refuse by type. Only text that starts as a number does (a digit or '-') is
// parsed, so that no value is ever parsed as an array or object, of any depth.
nlohmann::json number_or_text(const std::string& text) {
  const std::string value = trimmed(text);
  if (!value.empty() && (value[0] == '-' || std::isdigit(static_cast<unsigned char>(value[0])))) {
    nlohmann::json parsed = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_number()) return parsed;
  }
  return nlohmann::json(value);
}

}  // namespace

std::string trimmed(const std::string& text) {
  const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  auto begin = std::find_if_not(text.begin(), text.end(), blank);
  auto end = std::find_if_not(text.rbegin(), text.rend(), blank).base();
  return begin < end ? std::string(begin, end) : std::string();
}

nlohmann::json split_path_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ':')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

nlohmann::json split_device_list(const std::string& text) {
  const std::string list = trimmed(text);
  std::vector<std::string> out;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) out.push_back(trimmed(item));
  if (!list.empty() && list.back() == ',') out.push_back("");
  return out;
}

nlohmann::json environment_json(const SettingRow& row, const std::string& text,
                                 const std::string& source) {
  if (row.from_env) return row.from_env(text);
  switch (row.kind) {
    case SettingKind::kBool:
      return parse_flag(text, source, row.path);
    case SettingKind::kInteger:
    case SettingKind::kNumber:
      return number_or_text(text);
    case SettingKind::kEnum:
      return trimmed(text);
    default:
      return text;
  }
}

}  // namespace hxrt::detail
