// The kit's option getters: the reads the core's services offer a plugin's init
// (core/src/plugins/plugin_options.cpp), over the options the kit passes, so that a plugin that
// reads its options through them runs under the kit as under the core.
#include <algorithm>
#include <cmath>
#include <limits>

#include "hxcommon/nearest_name.hpp"
#include "kit_core.hpp"

namespace hxrt_conformance {
namespace {

using nlohmann::json;

std::string shown(const json& value) { return std::string(value.type_name()) + " " + value.dump(); }

}  // namespace

hx_status* KitCore::find_option(const char* name, bool outs_given, const json** found) {
  if (name == nullptr || !outs_given) {
    return make_status(HX_INVALID_ARGUMENT,
                       "option getter called without an option name or an out pointer");
  }
  if (!registration_open_) {
    return make_status(HX_FAILED_PRECONDITION, std::string("option getter for '") + name +
                                                   "' called after hx_plugin_init returned");
  }
  if (!options_problem_.empty()) {
    return make_status(HX_INVALID_ARGUMENT, "plugin options: " + options_problem_);
  }
  const auto it = options_.find(name);
  if (it == options_.end()) {
    return make_status(HX_NOT_FOUND, std::string("plugin options: '") + name + "' is not given");
  }
  *found = &*it;
  return nullptr;
}

namespace {

// The getters' frame: `read` returns "" when it wrote the value, else what it expected.
template <class Read>
hx_status* read_option(hx_core* core, const char* name, bool outs_given, Read read) {
  if (core == nullptr) return KitCore::make_status(HX_INVALID_ARGUMENT, "option getter: NULL core");
  auto* kit = reinterpret_cast<KitCore*>(core);
  const json* value = nullptr;
  if (hx_status* status = kit->find_option(name, outs_given, &value)) return status;
  const std::string expected = read(*value);
  if (expected.empty()) return nullptr;
  return KitCore::make_status(HX_INVALID_ARGUMENT, std::string("plugin options: '") + name +
                                                       "' must be " + expected + ", got " +
                                                       shown(*value));
}

}  // namespace

hx_status* KitCore::option_bool(hx_core* core, const char* name, bool* out) {
  return read_option(core, name, out != nullptr, [&](const json& value) -> std::string {
    if (!value.is_boolean()) return "true or false";
    *out = value.get<bool>();
    return "";
  });
}

hx_status* KitCore::option_int(hx_core* core, const char* name, int64_t* out) {
  return read_option(core, name, out != nullptr, [&](const json& value) -> std::string {
    if (value.is_number_integer() && !(value.is_number_unsigned() &&
                                       value.get<uint64_t>() > uint64_t{INT64_MAX})) {
      *out = value.get<int64_t>();
      return "";
    }
    // 3.0 is an integer too, as JSON Schema counts them.
    if (value.is_number_float()) {
      const double number = value.get<double>();
      if (std::trunc(number) == number && number >= -9223372036854775808.0 &&
          number < 9223372036854775808.0) {
        *out = static_cast<int64_t>(number);
        return "";
      }
    }
    return "an integer";
  });
}

hx_status* KitCore::option_float(hx_core* core, const char* name, double* out) {
  return read_option(core, name, out != nullptr, [&](const json& value) -> std::string {
    if (!value.is_number()) return "a number";
    *out = value.get<double>();
    return "";
  });
}

hx_status* KitCore::option_string(hx_core* core, const char* name, const char** out,
                                  size_t* length) {
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

hx_status* KitCore::option_keys(hx_core* core, const char* const* known, size_t count) {
  if (core == nullptr || (known == nullptr && count > 0)) {
    return make_status(HX_INVALID_ARGUMENT, "option_keys: NULL core, or NULL known with a count");
  }
  auto* kit = reinterpret_cast<KitCore*>(core);
  if (!kit->registration_open_) {
    return make_status(HX_FAILED_PRECONDITION, "option_keys called after hx_plugin_init returned");
  }
  if (!kit->options_problem_.empty()) {
    return make_status(HX_INVALID_ARGUMENT, "plugin options: " + kit->options_problem_);
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < count; ++i) {
    if (known[i] == nullptr) {
      return make_status(HX_INVALID_ARGUMENT, "option_keys: known[" + std::to_string(i) +
                                                  "] is NULL");
    }
    names.emplace_back(known[i]);
  }
  for (const auto& item : kit->options_.items()) {
    if (std::find(names.begin(), names.end(), item.key()) != names.end()) continue;
    std::string message = "plugin options: unknown option '" + item.key() + "'";
    if (const std::string* nearest = hxcommon::nearest_name(item.key(), names)) {
      message += "; did you mean '" + *nearest + "'?";
    }
    return make_status(HX_INVALID_ARGUMENT, message);
  }
  return nullptr;
}

}  // namespace hxrt_conformance
