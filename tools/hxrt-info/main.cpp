// hxrt-info: loads plugins the way a host application would and prints what it found, or
// with --config the configuration it started with.
#include <exception>
#include <iostream>
#include <optional>
#include <vector>

#include "command_line.hpp"
#include "config_report.hpp"
#include "hxrt/hxrt.hpp"
#include "json_report.hpp"
#include "ops_report.hpp"
#include "snapshot.hpp"
#include "text_report.hpp"

namespace {

constexpr int kExitRuntimeError = 1;
constexpr int kExitUsage = 2;

// A path that is not UTF-8 must not make the report fail: the bad bytes are replaced.
void print_json(const nlohmann::ordered_json& json) {
  std::cout << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

void print_config(const hxrt::Runtime& runtime, bool json) {
  // The configuration alone does not initialise the devices, so a device setup that cannot
  // be applied can still be inspected here.
  const std::vector<hxrt::ConfigSetting> settings = runtime.effective_config();
  if (json) {
    print_json(hxrt_info::config_json(settings));
  } else {
    hxrt_info::print_config_text(std::cout, settings);
  }
}

void print_ops(const hxrt::Runtime& runtime, const hxrt_info::CommandLine& command_line) {
  const std::vector<hxrt::OpInfo> ops = runtime.ops();
  if (command_line.json) {
    print_json(hxrt_info::ops_json(ops));
  } else if (command_line.markdown) {
    hxrt_info::print_ops_markdown(std::cout, ops);
  } else {
    hxrt_info::print_ops_text(std::cout, ops);
  }
}

void print_report(const hxrt::Runtime& runtime, bool json) {
  const hxrt_info::Snapshot snapshot = hxrt_info::take_snapshot(runtime);
  if (json) {
    print_json(hxrt_info::json_report(snapshot));
  } else {
    hxrt_info::print_text_report(std::cout, snapshot);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<hxrt_info::CommandLine> command_line =
      hxrt_info::parse_command_line(argc, argv);
  if (!command_line) return kExitUsage;
  if (command_line->help) {
    std::cout << hxrt_info::kUsage;
    return 0;
  }

  try {
    // Probing costs a process per plugin not yet known good, and keeps a plugin that crashes
    // in its init from ending the report that should name it.
    hxrt::RuntimeOptions options;
    options.probe_plugins = command_line->probe;
    const hxrt::Runtime runtime = hxrt::Runtime::create(options);
    // Under mpirun every task starts one: the first task's report lists every task's
    // devices, and the others stay quiet rather than print it again.
    if (runtime.cluster().rank != 0) return 0;
    if (command_line->config) {
      print_config(runtime, command_line->json);
    } else if (command_line->ops) {
      print_ops(runtime, *command_line);
    } else {
      print_report(runtime, command_line->json);
    }
  } catch (const hxrt::Error& error) {
    std::cerr << "hxrt-info: " << hxrt::status_code_name(error.code()) << ": " << error.what()
              << '\n';
    return kExitRuntimeError;
  } catch (const std::exception& error) {
    std::cerr << "hxrt-info: " << error.what() << '\n';
    return kExitRuntimeError;
  }
  return 0;
}
