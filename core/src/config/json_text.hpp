// Config text to JSON and back, with the mistakes a JSON parser lets through, reports vaguely
// or throws its own exceptions for.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

// The deepest nesting of arrays and objects a config may have. The config's own keys need
// five levels and plugin options a few more; refusing deeper text while parsing keeps
// anything recursive (dump, copy, compare) from running out of stack on it.
constexpr size_t kMaxNesting = 64;

// Parses `text`, the value at JSON pointer `path` of `source` ("" for a whole file). Fails
// with an Error(kInvalidArgument) naming `source`: malformed JSON with its line and column;
// nesting deeper than kMaxNesting with the line and column where it goes deeper; a number
// beyond a double's range with its JSON pointer; a key given twice in one object with its
// JSON pointer, because the parser would otherwise keep the last one and silently drop the
// first. No exception of the JSON library escapes.
nlohmann::json parse_config_json(const std::string& text, const std::string& source,
                                 const std::string& path = "");

// `value` as compact JSON text. Bytes that are not UTF-8 (strings from the environment or
// the API may hold any) become U+FFFD instead of making the library throw.
std::string json_text(const nlohmann::json& value);

}  // namespace hxrt::detail
