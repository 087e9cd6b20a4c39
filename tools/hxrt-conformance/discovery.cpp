#include "discovery.hpp"

#include <hxrt/hxrt.hpp>
#include <nlohmann/json.hpp>

#include "child_process.hpp"

namespace hxrt_conformance {
namespace {

// The options the effective config gives the plugin called `name`, "{}" when none.
std::string configured_options(const std::vector<hxrt::ConfigSetting>& settings,
                               const std::string& name) {
  const std::string path = "/plugins/options/" + name;
  for (const hxrt::ConfigSetting& setting : settings) {
    if (setting.path == path) return setting.value;
  }
  return "{}";
}

// The plugin name the core derives from a file name: libhx_<name>.so.
std::string name_from_path(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  if (stem.rfind("lib", 0) == 0) stem = stem.substr(3);
  if (stem.rfind("hx_", 0) == 0) stem = stem.substr(3);
  return stem.substr(0, stem.find('.'));
}

}  // namespace

std::optional<std::vector<Target>> discover_targets(const std::optional<std::string>& options,
                                                    uint64_t seed, int timeout_seconds,
                                                    std::string* error) {
  const ChildOutcome outcome = run_in_child(
      [](int channel) {
        nlohmann::json answer;
        try {
          // Quiet: the start-up log would mix with the report.
          hxrt::RuntimeOptions runtime_options;
          runtime_options.log_sink = [](hxrt::LogLevel, std::string_view) {};
          runtime_options.probe_plugins = true;  // a plugin that crashes in init is reported
          const hxrt::Runtime runtime = hxrt::Runtime::create(runtime_options);
          const std::vector<hxrt::ConfigSetting> settings = runtime.effective_config();
          nlohmann::json plugins = nlohmann::json::array();
          for (const hxrt::PluginReport& report : runtime.load_report()) {
            const std::string name = report.name.empty() ? name_from_path(report.path)
                                                         : report.name;
            plugins.push_back({{"path", report.path},
                               {"options", configured_options(settings, name)}});
          }
          answer = {{"plugins", plugins}};
        } catch (const hxrt::Error& failure) {
          answer = {{"error", failure.what()}};
        }
        write_all(channel, answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      },
      timeout_seconds);
  const nlohmann::json answer = nlohmann::json::parse(outcome.output, nullptr, false);
  if (answer.is_discarded() || !answer.is_object()) {
    *error = "hxrt did not start: the discovery process ended without an answer (" +
             (outcome.end == ChildOutcome::End::kSignalled
                  ? signal_description(outcome.signal)
                  : "exit code " + std::to_string(outcome.exit_code)) +
             "); a plugin crashed while loading: name plugin files to check them one by one";
    return std::nullopt;
  }
  if (answer.contains("error")) {
    *error = "hxrt did not start: " + answer["error"].get<std::string>();
    return std::nullopt;
  }
  std::vector<Target> targets;
  for (const nlohmann::json& plugin : answer["plugins"]) {
    targets.push_back(Target{plugin["path"].get<std::string>(),
                             options ? *options : plugin["options"].get<std::string>(), seed});
  }
  return targets;
}

}  // namespace hxrt_conformance
