// The rules for the text that identifies a plugin and its devices (plugin_api.h states them on
// hx_plugin_api's fields). Each check throws Error(kInvalidArgument) whose message quotes the
// offending text, escaped, and states the rule.
#pragma once

#include <string>

namespace hxrt::detail {

// [a-z][a-z0-9_]*, at most kMaxPluginNameLength characters.
void check_plugin_name(const std::string& name);
// Printable ASCII, 1 to kMaxVersionLength characters.
void check_plugin_version(const std::string& version);
// [A-Z][A-Z0-9_]*, at most kMaxDeviceTypeLength characters; `what` names the text in the
// message ("device type", "kernel device type").
void check_device_type(const std::string& type, const std::string& what);

}  // namespace hxrt::detail
