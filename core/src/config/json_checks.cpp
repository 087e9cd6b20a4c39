#include "config/json_checks.hpp"

#include <algorithm>
#include <cmath>

#include "config/json_pointer.hpp"
#include "config/message_text.hpp"
#include "hxcommon/nearest_name.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

void fail(const std::string& source, const std::string& path, const std::string& what) {
  throw Error(StatusCode::kInvalidArgument,
              source + ": " + (path.empty() ? "/" : shown_pointer(path)) + ": " + what);
}

std::string type_of(const nlohmann::json& value) {
  // nlohmann writes NaN and infinities as null; a NaN given through the API must still read
  // as the number it is.
  if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    return std::isnan(value.get<double>()) ? "number NaN" : "number inf";
  }
  return std::string(value.type_name()) + " " + shown_json(value);
}

void check_keys(const nlohmann::json& object, const std::vector<std::string>& known,
                const std::string& source, const std::string& path) {
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    std::string message = "unknown key";
    if (const std::string* nearest = hxcommon::nearest_name(item.key(), known)) {
      message += "; did you mean '" + *nearest + "'?";
    } else {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      message += "; known keys here: " + list;
    }
    fail(source, pointer_child(path, item.key()), message);
  }
}

void require_object(const nlohmann::json& value, const std::string& source,
                    const std::string& path) {
  if (!value.is_object()) fail(source, path, "expected an object, got " + type_of(value));
}

bool read_bool(const nlohmann::json& value, const std::string& source, const std::string& path) {
  if (!value.is_boolean()) fail(source, path, "expected true or false, got " + type_of(value));
  return value.get<bool>();
}

std::vector<std::string> read_strings(const nlohmann::json& value, const std::string& source,
                                      const std::string& path) {
  if (!value.is_array()) fail(source, path, "expected a list of strings, got " + type_of(value));
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      fail(source, pointer_child(path, i), "expected a string, got " + type_of(value[i]));
    }
    out.push_back(value[i].get<std::string>());
  }
  return out;
}

std::optional<int64_t> integer_in(const nlohmann::json& value, int64_t min, int64_t max) {
  if (value.is_number_unsigned()) {
    const uint64_t number = value.get<uint64_t>();
    if (number > static_cast<uint64_t>(max) || (min > 0 && number < static_cast<uint64_t>(min))) {
      return std::nullopt;
    }
    return static_cast<int64_t>(number);
  }
  if (value.is_number_integer()) {
    const int64_t number = value.get<int64_t>();
    if (number < min || number > max) return std::nullopt;
    return number;
  }
  if (value.is_number_float()) {
    const double number = value.get<double>();
    // Compared as doubles before converting: a double beyond int64's range (2^63 and up)
    // has no int64 to become. NaN fails every comparison.
    if (!(number >= static_cast<double>(min) && number <= static_cast<double>(max) &&
          number < 0x1p63) ||
        std::trunc(number) != number) {
      return std::nullopt;
    }
    return static_cast<int64_t>(number);
  }
  return std::nullopt;
}

}  // namespace hxrt::detail
