// For plugins that take no options yet: the one check of what plugins.options.<name> holds.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

namespace hxplugin {

// Accepts no text at all or an empty JSON object; else INVALID_ARGUMENT saying why the text
// is not a JSON object, or naming the first key ("<plugin_name> plugin options: unknown
// option 'x' (the <plugin_name> plugin takes no options)").
hx_status* check_no_options(const hx_core_services& services, const char* plugin_name,
                            const char* json, size_t length);

}  // namespace hxplugin
