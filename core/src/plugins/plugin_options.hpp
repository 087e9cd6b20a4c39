// The services' option getters (hx_core_services.option_*): typed reads of the options object
// a plugin's init is given, so that a plugin in C needs no JSON parser, and an unknown option
// is refused with the closest known name as the config's own keys are. They read the object
// that plugin_init_args (init_args.hpp) parsed into the plugin's hx_core, and only while its
// registration is open: the strings they lend live until init returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {

// The options text read: an object (empty for "" or "{}"), or what is wrong with it, which
// every getter and option_keys then return ("not valid JSON: ...", "expected a JSON object,
// got array [1,2]"), so that a plugin refuses malformed options without a parser of its own.
struct ParsedOptions {
  nlohmann::json object = nlohmann::json::object();
  std::string problem;  // "" when the text is an object
};
ParsedOptions parse_options(const std::string& options_json);

hx_status* option_bool(hx_core* core, const char* name, bool* out);
hx_status* option_int(hx_core* core, const char* name, int64_t* out);
hx_status* option_float(hx_core* core, const char* name, double* out);
hx_status* option_string(hx_core* core, const char* name, const char** out, size_t* length);
hx_status* option_keys(hx_core* core, const char* const* known, size_t count);

}  // namespace hxrt::detail
