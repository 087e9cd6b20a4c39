// "did you mean ...?": the known name closest to a mistyped one, for the config's keys and
// the plugin options the core's services refuse, and for the kit's, so that all suggest alike.
#pragma once

#include <string>
#include <vector>

namespace hxcommon {

// The name of `known` within three edits (insert, delete, replace a byte) of `name`, the
// nearest if several, the first of equals; nullptr when none is that close.
const std::string* nearest_name(const std::string& name, const std::vector<std::string>& known);

}  // namespace hxcommon
