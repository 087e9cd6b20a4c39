// What plugins.options.<name> holds, read once for every plugin: a JSON object, or nothing.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <nlohmann/json.hpp>

namespace hxplugin {

// Parses the options text into *out: an object ({} for no text). Else INVALID_ARGUMENT
// "<plugin_name> plugin options: not valid JSON: ..." or "...: expected a JSON object, got
// <type>".
hx_status* parse_options_object(const hx_core_services& services, const char* plugin_name,
                                const char* text, size_t length, nlohmann::json* out);

}  // namespace hxplugin
