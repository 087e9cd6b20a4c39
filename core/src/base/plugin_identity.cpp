#include "base/plugin_identity.hpp"

#include <hxrt/plugin_vocabulary.h>

#include "base/logger.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

// A text from JSON may hold a NUL, which the C grammar would read as its end.
bool matches(const std::string& text, bool (*grammar)(const char*)) {
  return text.find('\0') == std::string::npos && grammar(text.c_str());
}

[[noreturn]] void refuse(const std::string& what, const std::string& text,
                         const std::string& rule, const char* field) {
  throw Error(StatusCode::kInvalidArgument, what + " '" + printable(text) + "' must be " + rule +
                                                " (" + field + " in plugin_api.h)");
}

}  // namespace

void check_plugin_name(const std::string& name) {
  if (!matches(name, hx_is_plugin_name)) {
    refuse("plugin name", name,
           "[a-z][a-z0-9_]* of at most " + std::to_string(HX_MAX_PLUGIN_NAME_LENGTH) +
               " characters",
           "hx_plugin_api.name");
  }
}

void check_plugin_version(const std::string& version) {
  if (!matches(version, hx_is_plugin_version)) {
    refuse("plugin version", version,
           "printable ASCII of 1 to " + std::to_string(HX_MAX_PLUGIN_VERSION_LENGTH) +
               " characters",
           "hx_plugin_api.version");
  }
}

void check_device_type(const std::string& type, const std::string& what) {
  if (!matches(type, hx_is_device_type)) {
    refuse(what, type,
           "[A-Z][A-Z0-9_]* of at most " + std::to_string(HX_MAX_DEVICE_TYPE_LENGTH) +
               " characters",
           "hx_plugin_api.device_type");
  }
}

void check_op_name(const std::string& name, const std::string& who) {
  if (!matches(name, hx_is_op_name)) {
    throw Error(StatusCode::kInvalidArgument,
                who + ": an op name must match [A-Z][A-Za-z0-9_]* in at most " +
                    std::to_string(HX_MAX_OP_NAME_LENGTH) + " characters (hx_op_def.name in "
                    "plugin_api.h)");
  }
}

}  // namespace hxrt::detail
