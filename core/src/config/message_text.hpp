// Values and keys as error messages show them. A config value may be megabytes long and may
// hold control characters or bytes that are not UTF-8 (the environment and the API pass any
// bytes), so a message shows at most kShownBytes of it, cut at a character boundary, escaped
// as inside a JSON string, then "... (N bytes)" when it was cut: a 10 MB value makes a short
// message that a terminal or a JSON log can hold.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

constexpr size_t kShownBytes = 80;

// `text` (a key, a name, a string value) as a message shows it, without quotes.
std::string shown(const std::string& text);

// The JSON text of `value` as a message shows it: a string as shown() writes it, in quotes;
// anything else as compact JSON, cut after kShownBytes.
std::string shown_json(const nlohmann::json& value);

// A JSON pointer with each of its tokens as shown() writes it, so that a 10 MB key gives a
// short path. The pointer itself stays exact where it is a key (Config::origins).
std::string shown_pointer(const std::string& pointer);

}  // namespace hxrt::detail
