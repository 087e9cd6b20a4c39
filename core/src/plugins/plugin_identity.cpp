#include "plugins/plugin_identity.hpp"

#include <algorithm>

#include "hxrt/error.hpp"
#include "base/logger.hpp"
#include "plugins/plugin_limits.hpp"

namespace hxrt::detail {
namespace {

bool lower_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
bool upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// `text` is `first` followed by `rest` characters, and no longer than `max_length`.
template <class First, class Rest>
bool matches(const std::string& text, size_t max_length, First first, Rest rest) {
  return !text.empty() && text.size() <= max_length && first(text[0]) &&
         std::all_of(text.begin(), text.end(), rest);
}

[[noreturn]] void refuse(const std::string& what, const std::string& text,
                         const std::string& rule, const char* field) {
  throw Error(StatusCode::kInvalidArgument, what + " '" + printable(text) + "' must be " + rule +
                                                " (" + field + " in plugin_api.h)");
}

}  // namespace

void check_plugin_name(const std::string& name) {
  if (!matches(name, kMaxPluginNameLength, [](char c) { return c >= 'a' && c <= 'z'; },
               lower_or_digit)) {
    refuse("plugin name", name,
           "[a-z][a-z0-9_]* of at most " + std::to_string(kMaxPluginNameLength) + " characters",
           "hx_plugin_api.name");
  }
}

void check_plugin_version(const std::string& version) {
  if (!matches(version, kMaxVersionLength, [](char) { return true; },
               [](char c) { return c >= 0x20 && c < 0x7F; })) {
    refuse("plugin version", version,
           "printable ASCII of 1 to " + std::to_string(kMaxVersionLength) + " characters",
           "hx_plugin_api.version");
  }
}

void check_device_type(const std::string& type, const std::string& what) {
  if (!matches(type, kMaxDeviceTypeLength, [](char c) { return c >= 'A' && c <= 'Z'; },
               upper_or_digit)) {
    refuse(what, type,
           "[A-Z][A-Z0-9_]* of at most " + std::to_string(kMaxDeviceTypeLength) + " characters",
           "hx_plugin_api.device_type");
  }
}

}  // namespace hxrt::detail
