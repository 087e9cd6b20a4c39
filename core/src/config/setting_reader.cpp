#include "config/setting_reader.hpp"

#include <algorithm>
#include <cmath>

#include "base/ascii_case.hpp"
#include "config/json_checks.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

bool is_name_of(const SettingRow& row, const json& value) {
  if (!value.is_string()) return false;
  const std::string text = value.get<std::string>();
  return std::any_of(row.names.begin(), row.names.end(), [&](const std::string& name) {
    return row.any_case ? lowercase_ascii(text) == lowercase_ascii(name) : text == name;
  });
}

bool in_range(const SettingRow& row, double number) {
  const bool above_min = row.exclusive_min ? number > row.min : number >= row.min;
  const bool below_max = row.exclusive_max ? number < row.max : number <= row.max;
  return above_min && below_max;  // false for NaN
}

[[noreturn]] void fail_expected(const SettingRow& row, const json& value,
                                const std::string& source) {
  fail(source, row.path, "expected " + expected_text(row) + ", got " + type_of(value));
}

// The token of `path` right under `section` ("/plugins/options/<plugin name>" under
// "/plugins": "options"); "" when `path` is not under it.
std::string key_under(const std::string& section, const std::string& path) {
  if (path.size() <= section.size() + 1 || path.compare(0, section.size(), section) != 0 ||
      path[section.size()] != '/') {
    return "";
  }
  const size_t start = section.size() + 1;
  return path.substr(start, path.find('/', start) - start);
}

}  // namespace

std::string bound_text(double bound) {
  if (std::trunc(bound) == bound && std::fabs(bound) < 0x1p53) {
    return std::to_string(static_cast<int64_t>(bound));
  }
  return json(bound).dump();
}

std::string expected_text(const SettingRow& row) {
  if (!row.expected.empty()) return row.expected;
  switch (row.kind) {
    case SettingKind::kBool:
      return "true or false";
    case SettingKind::kInteger:
      return "an integer from " + bound_text(row.min) + " to " + bound_text(row.max);
    case SettingKind::kNumber:
      return "a number from " + bound_text(row.min) + (row.exclusive_min ? " (excluded)" : "") +
             " to " + (row.exclusive_max ? "below " : "") + bound_text(row.max);
    case SettingKind::kString:
      return row.min_length > 0 ? "a non-empty string" : "a string";
    case SettingKind::kEnum: {
      std::string names;
      for (const std::string& name : row.names) {
        names += (names.empty() ? "" : ", ") + json(name).dump();
      }
      return "one of " + names + (row.any_case ? " (any case)" : "");
    }
    case SettingKind::kStringList:
      return "a list of strings";
    case SettingKind::kObject:
      return "an object";
    case SettingKind::kObjectList:
      return "a list of objects";
  }
  return "";
}

void apply_setting(const SettingRow& row, const json& value, const std::string& source,
                   Config& config) {
  switch (row.kind) {
    case SettingKind::kBool:
      if (!value.is_boolean()) fail_expected(row, value, source);
      break;
    case SettingKind::kInteger:
      if (!integer_in(value, static_cast<int64_t>(row.min), static_cast<int64_t>(row.max))) {
        fail_expected(row, value, source);
      }
      break;
    case SettingKind::kNumber:
      if (!value.is_number() || !in_range(row, value.get<double>())) {
        fail_expected(row, value, source);
      }
      break;
    case SettingKind::kString:
      if (!value.is_string()) fail_expected(row, value, source);
      break;
    case SettingKind::kEnum:
      if (!is_name_of(row, value)) fail_expected(row, value, source);
      break;
    case SettingKind::kStringList:
      read_strings(value, source, row.path);  // its messages name the item that is wrong
      break;
    case SettingKind::kObject:
    case SettingKind::kObjectList:
      break;  // structured: never here
  }
  if (row.check) row.check(value, source, row.path);
  if (row.kind == SettingKind::kString && value.get<std::string>().size() < row.min_length) {
    fail_expected(row, value, source);
  }
  row.apply(value, source, config);
  config.origins[row.path] = source;
}

void apply_section(const std::string& path, const json& object, const std::string& source,
                   Config& config) {
  if (!path.empty()) require_object(object, source, path);
  std::vector<std::string> keys;
  for (const SettingRow& row : setting_rows()) {
    const std::string key = row.file_setting() ? key_under(path, row.path) : "";
    if (!key.empty() && std::find(keys.begin(), keys.end(), key) == keys.end()) {
      keys.push_back(key);
    }
  }
  check_keys(object, keys, source, path);
  for (const std::string& key : keys) {
    if (!object.contains(key)) continue;
    const std::string key_path = path + "/" + key;
    const SettingRow* row = find_setting(key_path);
    if (row != nullptr && !row->structured()) {
      apply_setting(*row, object[key], source, config);
      continue;
    }
    const auto first = std::find_if(
        setting_rows().begin(), setting_rows().end(),
        [&](const SettingRow& r) { return key_under(path, r.path) == key; });
    if (first->structured()) {
      first->read(object[key], source, config);
    } else {
      apply_section(key_path, object[key], source, config);
    }
  }
}

}  // namespace hxrt::detail
