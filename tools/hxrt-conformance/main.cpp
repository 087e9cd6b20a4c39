// hxrt-conformance: checks plugins against the plugin ABI and prints what each does wrong.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "discovery.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace {

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

}  // namespace

int main(int argc, char** argv) {
  using namespace hxrt_conformance;
  const std::optional<CommandLine> command_line = parse_command_line(argc, argv);
  if (!command_line) return kExitUsage;
  if (command_line->help) {
    std::cout << usage();
    return 0;
  }
  std::vector<Target> targets;
  if (command_line->plugins.empty()) {
    std::string error;
    std::optional<std::vector<Target>> found = discover_targets(
        command_line->options, command_line->seed, command_line->timeout_seconds, &error);
    if (!found) {
      std::cerr << "hxrt-conformance: " << error << '\n';
      return kExitFailed;
    }
    if (found->empty()) {
      std::cerr << "hxrt-conformance: hxrt found no plugin files; name one "
                   "(hxrt-conformance path/to/libhx_x.so) or set HXRT_PLUGIN_PATH\n";
      return kExitFailed;
    }
    targets = std::move(*found);
  } else {
    for (const std::string& path : command_line->plugins) {
      targets.push_back(Target{path, command_line->options.value_or("{}"), command_line->seed});
    }
  }
  std::vector<PluginResult> results;
  for (const Target& target : targets) {
    results.push_back(run_suite(target, command_line->sections, command_line->timeout_seconds));
  }
  if (command_line->json) {
    std::cout << json_report(results).dump(2, ' ', false,
                                           nlohmann::ordered_json::error_handler_t::replace)
              << '\n';
  } else {
    print_text_report(std::cout, results);
  }
  return any_failed(results) ? kExitFailed : 0;
}
