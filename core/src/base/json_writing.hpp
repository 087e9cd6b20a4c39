// JSON values as text, the one way hxrt writes them: the config's settings, a saved placement
// or cost model, the timeline trace. Strings may hold any bytes (names from the API, the
// environment or a plugin), and a JSON writer that meets bytes that are not UTF-8 throws; this
// one writes them as U+FFFD instead.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

// `value` as JSON text, compact or, with `indent` >= 0, one member a line.
std::string json_text(const nlohmann::json& value, int indent = -1);

}  // namespace hxrt::detail
