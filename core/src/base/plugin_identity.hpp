// The rules for the text that identifies a plugin, its devices and its ops, as
// plugin_vocabulary.h's grammars state them. Each check throws Error(kInvalidArgument) whose
// message quotes the offending text, escaped, and states the rule.
#pragma once

#include <string>

namespace hxrt::detail {

// [a-z][a-z0-9_]*, at most HX_MAX_PLUGIN_NAME_LENGTH characters.
void check_plugin_name(const std::string& name);
// Printable ASCII, 1 to HX_MAX_PLUGIN_VERSION_LENGTH characters.
void check_plugin_version(const std::string& version);
// [A-Z][A-Z0-9_]*, at most HX_MAX_DEVICE_TYPE_LENGTH characters; `what` names the text in the
// message ("device type", "kernel device type").
void check_device_type(const std::string& type, const std::string& what);
// [A-Z][A-Za-z0-9_]*, at most HX_MAX_OP_NAME_LENGTH characters; `who` opens the message
// ("op 'x' from plugin 'y'").
void check_op_name(const std::string& name, const std::string& who);

}  // namespace hxrt::detail
