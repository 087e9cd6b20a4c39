// The environment layer. Each variable's value goes through the same reader or setter as
// the file's key it overrides, so it is checked the same way and names its JSON pointer.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <utility>

#include "config/config_layers.hpp"
#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {
namespace {

std::string trimmed(const std::string& text) {
  const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  auto begin = std::find_if_not(text.begin(), text.end(), blank);
  auto end = std::find_if_not(text.rbegin(), text.rend(), blank).base();
  return begin < end ? std::string(begin, end) : std::string();
}

bool parse_flag(const std::string& text, const std::string& source, const std::string& path) {
  std::string value = trimmed(text);
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off") return false;
  fail(source, path,
       "expected 1, 0, true, false, yes, no, on or off (any case), got \"" + shown(text) +
           "\"");
}

// "/a:/b::/c" -> {"/a", "/b", "/c"}: empty entries are skipped, as in $PATH.
std::vector<std::string> split_path_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ':')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// "GPU:1, GPU:0" -> {"GPU:1", "GPU:0"}. An empty item stays, for the setter to reject with
// its position.
std::vector<std::string> split_device_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) out.push_back(trimmed(item));
  if (!text.empty() && text.back() == ',') out.push_back("");
  return out;
}

// The variable's text as the JSON value a file would hold: a number when it reads as one
// ("4", "-1", "2.5"), else the text as a string, for the section's reader to refuse by type.
// Only text that starts as a number does (a digit or '-') is parsed, so that no value is ever
// parsed as an array or object, of any depth.
nlohmann::json number_or_text(const std::string& text) {
  const std::string value = trimmed(text);
  if (!value.empty() && (value[0] == '-' || std::isdigit(static_cast<unsigned char>(value[0])))) {
    nlohmann::json parsed = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_number()) return parsed;
  }
  return nlohmann::json(value);
}

}  // namespace

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || trimmed(value).empty()) return std::nullopt;
  return std::string(value);
}

void apply_environment(Config& config) {
  if (auto paths = environment_variable("HXRT_PLUGIN_PATH")) {
    config.env_plugin_paths = split_path_list(*paths);
    config.origins["/env/HXRT_PLUGIN_PATH"] = "environment HXRT_PLUGIN_PATH";
  }
  if (auto flag = environment_variable("HXRT_PROBE_PLUGINS")) {
    const std::string source = "environment HXRT_PROBE_PLUGINS";
    apply_plugins_section({{"probe", parse_flag(*flag, source, "/plugins/probe")}}, source,
                          config);
  }
  if (auto flag = environment_variable("HXRT_LOG_DEVICE_PLACEMENT")) {
    const std::string source = "environment HXRT_LOG_DEVICE_PLACEMENT";
    apply_log_device_placement(parse_flag(*flag, source, "/log_device_placement"), source,
                               config);
  }
  if (auto level = environment_variable("HXRT_LOG_LEVEL")) {
    apply_log_level(trimmed(*level), "environment HXRT_LOG_LEVEL", config);
  }
  if (auto names = environment_variable("HXRT_VISIBLE_DEVICES")) {
    set_visible_devices(config, split_device_list(trimmed(*names)),
                        "environment HXRT_VISIBLE_DEVICES");
  }
  if (auto path = environment_variable("HXRT_TRACE")) {
    apply_trace_section({{"path", *path}}, "environment HXRT_TRACE", config);
  }
  for (const auto& [variable, key] : {std::pair{"HXRT_INTER_OP_THREADS", "inter_op_threads"},
                                      std::pair{"HXRT_INTRA_OP_THREADS", "intra_op_threads"}}) {
    if (auto count = environment_variable(variable)) {
      apply_execution_section({{key, number_or_text(*count)}},
                              std::string("environment ") + variable, config);
    }
  }
  if (auto flag = environment_variable("HXRT_FORCE_MEMORY_GROWTH")) {
    const std::string source = "environment HXRT_FORCE_MEMORY_GROWTH";
    config.devices.force_memory_growth =
        parse_flag(*flag, source, "/env/HXRT_FORCE_MEMORY_GROWTH");
    config.origins["/env/HXRT_FORCE_MEMORY_GROWTH"] = source;
  }
}

}  // namespace hxrt::detail
