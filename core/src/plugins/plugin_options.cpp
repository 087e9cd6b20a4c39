#include "plugins/plugin_options.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <vector>

#include "base/status.hpp"
#include "config/json_checks.hpp"
#include "hxcommon/nearest_name.hpp"
#include "plugins/core_handle.hpp"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_text.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

// What a message says the options are: "sim plugin options".
std::string whose(const hx_core* core) { return core->plugin_name + " plugin options"; }

// The getters' shared frame. `read` is called with the handle's lock held, on the option's
// value, and returns "" when it wrote the out pointer or what it expected ("an integer").
// A C entry point: the only exception that can pass is running out of memory.
template <class Read>
hx_status* read_option(hx_core* core, const char* name, bool outs_given, Read read) {
  try {
    if (core == nullptr || name == nullptr || !outs_given) {
      return make_status(HX_INVALID_ARGUMENT,
                         "option getter: the core handle, the option's name or an out pointer "
                         "is NULL; pass init's args->core, a name and where the value goes");
    }
    const std::string key = read_bounded(name, kMaxMessageLength);
    std::lock_guard<std::mutex> lock(core->mutex);
    if (!core->registration_open) {
      return make_status(HX_FAILED_PRECONDITION,
                         "option getter for '" + printable(key) +
                             "': options are read during hx_plugin_init only; keep what init "
                             "read in the plugin's state");
    }
    if (!core->options_problem.empty()) {
      return make_status(HX_INVALID_ARGUMENT, whose(core) + ": " + core->options_problem);
    }
    const auto found = core->options.find(key);
    if (found == core->options.end()) {
      return make_status(HX_NOT_FOUND, whose(core) + ": '" + printable(key) +
                                           "' is not given; use the plugin's default");
    }
    const std::string expected = read(*found);
    if (expected.empty()) return nullptr;
    return make_status(HX_INVALID_ARGUMENT, whose(core) + ": '" + printable(key) + "' must be " +
                                                expected + ", got " + type_of(*found));
  } catch (...) {
    return out_of_memory_status();
  }
}

}  // namespace

ParsedOptions parse_options(const std::string& options_json) {
  ParsedOptions parsed;
  if (options_json.find_first_not_of(" \t\r\n") == std::string::npos) return parsed;
  try {
    json value = json::parse(options_json);
    if (value.is_object()) {
      parsed.object = std::move(value);
    } else {
      parsed.problem = "expected a JSON object like {\"name\": value}, got " + type_of(value);
    }
  } catch (const json::exception& error) {
    parsed.problem = std::string("not valid JSON: ") + error.what();
  }
  return parsed;
}

hx_status* option_bool(hx_core* core, const char* name, bool* out) {
  return read_option(core, name, out != nullptr, [&](const json& value) -> std::string {
    if (!value.is_boolean()) return "true or false";
    *out = value.get<bool>();
    return "";
  });
}

hx_status* option_int(hx_core* core, const char* name, int64_t* out) {
  return read_option(core, name, out != nullptr, [&](const json& value) -> std::string {
    const auto integer = integer_in(value, std::numeric_limits<int64_t>::min(),
                                    std::numeric_limits<int64_t>::max());
    if (!integer) return "an integer";
    *out = *integer;
    return "";
  });
}

hx_status* option_float(hx_core* core, const char* name, double* out) {
  return read_option(core, name, out != nullptr, [&](const json& value) -> std::string {
    if (!value.is_number()) return "a number";
    *out = value.get<double>();
    return "";
  });
}

hx_status* option_string(hx_core* core, const char* name, const char** out, size_t* length) {
  return read_option(core, name, out != nullptr && length != nullptr,
                     [&](const json& value) -> std::string {
                       if (!value.is_string()) return "a string";
                       const std::string& text = value.get_ref<const std::string&>();
                       if (text.find('\0') != std::string::npos) return "a string without NUL";
                       *out = text.c_str();
                       *length = text.size();
                       return "";
                     });
}

hx_status* option_keys(hx_core* core, const char* const* known, size_t count) {
  try {
    if (core == nullptr || (known == nullptr && count > 0)) {
      return make_status(HX_INVALID_ARGUMENT,
                         "option_keys: the core handle is NULL, or known is NULL with a count; "
                         "pass init's args->core and the plugin's option names");
    }
    // Bounded: names are the plugin's own, and an option's name is a JSON key of the config.
    if (count > 65536) {
      return make_status(HX_INVALID_ARGUMENT, "option_keys: " + std::to_string(count) +
                                                  " names, more than any plugin takes; pass "
                                                  "the length of the list of names");
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i) {
      if (known[i] == nullptr) {
        return make_status(HX_INVALID_ARGUMENT, "option_keys: known[" + std::to_string(i) +
                                                    "] is NULL; every name must be a string");
      }
      names.push_back(read_bounded(known[i], kMaxMessageLength));
    }
    std::lock_guard<std::mutex> lock(core->mutex);
    if (!core->registration_open) {
      return make_status(HX_FAILED_PRECONDITION,
                         "option_keys: options are read during hx_plugin_init only");
    }
    if (!core->options_problem.empty()) {
      return make_status(HX_INVALID_ARGUMENT, whose(core) + ": " + core->options_problem);
    }
    for (const auto& item : core->options.items()) {
      if (std::find(names.begin(), names.end(), item.key()) != names.end()) continue;
      std::string message = whose(core) + ": unknown option '" + printable(item.key()) + "'";
      if (names.empty()) {
        message += " (the " + core->plugin_name + " plugin takes no options)";
      } else if (const std::string* nearest = hxcommon::nearest_name(item.key(), names)) {
        message += "; did you mean '" + printable(*nearest) + "'?";
      } else {
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + printable(n);
        message += "; the options it takes: " + list;
      }
      return make_status(HX_INVALID_ARGUMENT, std::move(message));
    }
    return nullptr;
  } catch (...) {
    return out_of_memory_status();
  }
}

}  // namespace hxrt::detail
