// Config text to JSON, with the mistakes a JSON parser lets through or reports vaguely.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

// Parses `text`. Malformed JSON fails with its line and column; a key given twice in one
// object fails with its JSON pointer, because the parser would otherwise keep the last one
// and silently drop the first. `source` names the text in errors.
nlohmann::json parse_config_json(const std::string& text, const std::string& source);

}  // namespace hxrt::detail
