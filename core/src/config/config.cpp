#include "config/config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& path,
                       const std::string& what) {
  throw Error(StatusCode::kInvalidArgument, source + ": " + (path.empty() ? "/" : path) + ": " + what);
}

std::string type_of(const json& value) {
  if (value.is_string()) return "string " + value.dump();
  return std::string(value.type_name()) + " " + value.dump();
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

void check_keys(const json& object, const std::vector<std::string>& known,
                const std::string& source, const std::string& path) {
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    std::string message = "unknown key";
    auto nearest = std::min_element(known.begin(), known.end(), [&](auto& a, auto& b) {
      return edit_distance(item.key(), a) < edit_distance(item.key(), b);
    });
    if (nearest != known.end() && edit_distance(item.key(), *nearest) <= 3) {
      message += "; did you mean '" + *nearest + "'?";
    } else {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      message += "; known keys here: " + list;
    }
    fail(source, path + "/" + item.key(), message);
  }
}

bool read_bool(const json& value, const std::string& source, const std::string& path) {
  if (!value.is_boolean()) fail(source, path, "expected true or false, got " + type_of(value));
  return value.get<bool>();
}

std::vector<std::string> read_strings(const json& value, const std::string& source,
                                      const std::string& path) {
  if (!value.is_array()) fail(source, path, "expected a list of strings, got " + type_of(value));
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      fail(source, path + "/" + std::to_string(i), "expected a string, got " + type_of(value[i]));
    }
    out.push_back(value[i].get<std::string>());
  }
  return out;
}

LogLevel read_log_level(const std::string& text, const std::string& source,
                        const std::string& path) {
  try {
    return parse_log_level(text);
  } catch (const Error& e) {
    fail(source, path, e.what());
  }
}

// Line and column of a byte offset, for parse errors.
std::string position_of(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

bool parse_flag(const char* text, const std::string& variable) {
  std::string value = text;
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off" || value.empty()) {
    return false;
  }
  throw Error(StatusCode::kInvalidArgument,
              variable + "='" + text + "': expected 1, 0, true or false");
}

std::vector<std::string> split_path_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ':')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

void apply_placement(const json& placement, const std::string& source, Config& config) {
  if (!placement.is_object()) {
    fail(source, "/placement", "expected an object, got " + type_of(placement));
  }
  check_keys(placement, {"device_priority", "soft_placement"}, source, "/placement");
  if (placement.contains("device_priority")) {
    config.device_priority =
        read_strings(placement["device_priority"], source, "/placement/device_priority");
    for (size_t i = 0; i < config.device_priority.size(); ++i) {
      std::string& type = config.device_priority[i];
      std::transform(type.begin(), type.end(), type.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      bool valid = !type.empty() && std::isupper(static_cast<unsigned char>(type[0])) &&
                   std::all_of(type.begin(), type.end(), [](char c) {
                     return std::isupper(static_cast<unsigned char>(c)) ||
                            std::isdigit(static_cast<unsigned char>(c)) || c == '_';
                   });
      if (!valid) {
        fail(source, "/placement/device_priority/" + std::to_string(i),
             "expected a device type like \"GPU\" ([A-Z][A-Z0-9_]*), got \"" + type + "\"");
      }
    }
  }
  if (placement.contains("soft_placement")) {
    const json& mode = placement["soft_placement"];
    const char* const expected = "expected one of \"strict\", \"missing_kernel\", \"soft\"";
    if (!mode.is_string()) fail(source, "/placement/soft_placement", std::string(expected) + ", got " + type_of(mode));
    const std::string text = mode.get<std::string>();
    bool known = false;
    for (SoftPlacement candidate : {SoftPlacement::kStrict, SoftPlacement::kFallbackOnMissingKernel,
                                    SoftPlacement::kSoft}) {
      if (text == soft_placement_name(candidate)) {
        config.soft_placement = candidate;
        known = true;
      }
    }
    if (!known) fail(source, "/placement/soft_placement", std::string(expected) + ", got " + type_of(mode));
  }
}

}  // namespace

void apply_config_text(const std::string& text, const std::string& source, Config& config) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(StatusCode::kInvalidArgument,
                source + ": malformed JSON at " + position_of(text, e.byte > 0 ? e.byte - 1 : 0) +
                    ": " + e.what());
  }
  if (!root.is_object()) fail(source, "", "expected a JSON object, got " + type_of(root));
  check_keys(root, {"plugins", "placement", "log_device_placement", "log_level"}, source, "");

  if (root.contains("plugins")) {
    const json& plugins = root["plugins"];
    if (!plugins.is_object()) fail(source, "/plugins", "expected an object, got " + type_of(plugins));
    check_keys(plugins, {"search_paths", "libraries", "use_installed", "options"}, source,
               "/plugins");
    if (plugins.contains("search_paths")) {
      config.plugin_search_paths =
          read_strings(plugins["search_paths"], source, "/plugins/search_paths");
    }
    if (plugins.contains("libraries")) {
      config.plugin_libraries = read_strings(plugins["libraries"], source, "/plugins/libraries");
    }
    if (plugins.contains("use_installed")) {
      config.use_installed_plugins =
          read_bool(plugins["use_installed"], source, "/plugins/use_installed");
    }
    if (plugins.contains("options")) {
      const json& options = plugins["options"];
      if (!options.is_object()) {
        fail(source, "/plugins/options",
             "expected an object of plugin name -> options object, got " + type_of(options));
      }
      for (const auto& item : options.items()) {
        if (!item.value().is_object()) {
          fail(source, "/plugins/options/" + item.key(),
               "expected an object of options for plugin '" + item.key() + "', got " +
                   type_of(item.value()));
        }
        config.plugin_options[item.key()] = item.value().dump();
      }
    }
  }
  if (root.contains("placement")) apply_placement(root["placement"], source, config);
  if (root.contains("log_device_placement")) {
    config.log_device_placement =
        read_bool(root["log_device_placement"], source, "/log_device_placement");
  }
  if (root.contains("log_level")) {
    const json& level = root["log_level"];
    if (!level.is_string()) {
      fail(source, "/log_level",
           "expected one of \"debug\", \"info\", \"warning\", \"error\", got " + type_of(level));
    }
    config.log_level = read_log_level(level.get<std::string>(), source, "/log_level");
  }
}

Config resolve_config(const RuntimeOptions& options) {
  Config config;
  std::string file = options.config_path;
  if (file.empty()) {
    if (const char* env = std::getenv("HXRT_CONFIG")) file = env;
  }
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) {
      throw Error(StatusCode::kNotFound,
                  "config file '" + file + "' cannot be read: check the path (given by " +
                      (options.config_path.empty() ? "$HXRT_CONFIG" : "RuntimeOptions") + ")");
    }
    std::stringstream text;
    text << in.rdbuf();
    config.file = file;
    apply_config_text(text.str(), file, config);
    // Relative plugin paths in a file mean "next to this file", wherever the program runs.
    std::filesystem::path folder = std::filesystem::path(file).parent_path();
    for (auto* list : {&config.plugin_libraries, &config.plugin_search_paths}) {
      for (std::string& path : *list) {
        if (std::filesystem::path(path).is_relative()) path = (folder / path).string();
      }
    }
  }

  if (const char* env = std::getenv("HXRT_PLUGIN_PATH")) config.env_plugin_paths = split_path_list(env);
  if (const char* env = std::getenv("HXRT_LOG_DEVICE_PLACEMENT")) {
    config.log_device_placement = parse_flag(env, "HXRT_LOG_DEVICE_PLACEMENT");
  }
  if (const char* env = std::getenv("HXRT_LOG_LEVEL"); env && *env) {
    config.log_level = read_log_level(env, "environment", "HXRT_LOG_LEVEL");
  }

  config.api_plugin_paths = options.plugin_paths;
  if (!options.use_installed_plugins) config.use_installed_plugins = false;
  for (const auto& [name, text] : options.plugin_options) {
    const std::string source = "RuntimeOptions::plugin_options['" + name + "']";
    json parsed;
    try {
      parsed = json::parse(text);
    } catch (const json::parse_error& e) {
      throw Error(StatusCode::kInvalidArgument,
                  source + ": malformed JSON at " +
                      position_of(text, e.byte > 0 ? e.byte - 1 : 0) + ": " + e.what());
    }
    if (!parsed.is_object()) fail(source, "", "expected a JSON object, got " + type_of(parsed));
    config.plugin_options[name] = parsed.dump();
  }
  if (options.log_device_placement) config.log_device_placement = *options.log_device_placement;
  if (options.log_level) config.log_level = *options.log_level;
  if (options.soft_placement) config.soft_placement = *options.soft_placement;
  if (options.device_priority) {
    // Checked like the file's list, under the name of the option.
    json list = *options.device_priority;
    apply_placement(json{{"device_priority", list}}, "RuntimeOptions::device_priority", config);
  }
  return config;
}

std::vector<std::string> Config::plugin_candidates(const std::string& installed_dir) const {
  std::vector<std::string> all;
  for (const auto* list : {&plugin_libraries, &plugin_search_paths, &env_plugin_paths,
                           &api_plugin_paths}) {
    all.insert(all.end(), list->begin(), list->end());
  }
  if (use_installed_plugins && !installed_dir.empty()) all.push_back(installed_dir);
  return all;
}

}  // namespace hxrt::detail
