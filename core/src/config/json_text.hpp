// JSON text to values and back, with the mistakes a JSON parser lets through, reports vaguely
// or throws its own exceptions for. Every JSON text hxrt reads (the config file, plugin
// options, a saved placement, a saved cost model) goes through parse_json, and every value it
// writes through json_text (types/json_writing.hpp), so that no exception of the JSON library
// reaches a caller.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "base/json_writing.hpp"  // json_text, which writes what parse_json reads

namespace hxrt::detail {

// The deepest nesting of arrays and objects a JSON text may have. The config's own keys need
// five levels, plugin options and a saved cost model a few more; refusing deeper text while
// parsing keeps anything recursive (dump, copy, compare) from running out of stack on it.
constexpr size_t kMaxNesting = 64;

// Parses `text`, the value at JSON pointer `path` of `source` ("" for a whole text). Fails
// with an Error(kInvalidArgument) naming `source`: malformed JSON with its line and column;
// nesting deeper than kMaxNesting with the line and column where it goes deeper; a number
// beyond a double's range with its JSON pointer; a key given twice in one object with its
// JSON pointer, because the parser would otherwise keep the last one and silently drop the
// first. No exception of the JSON library escapes.
nlohmann::json parse_json(const std::string& text, const std::string& source,
                          const std::string& path = "");


}  // namespace hxrt::detail
