// hxrt-info: loads plugins the way a host application would and prints what it found.
#include <exception>
#include <iostream>
#include <string>

#include "hxrt/hxrt.hpp"
#include "json_report.hpp"
#include "snapshot.hpp"
#include "text_report.hpp"

namespace {

constexpr int kExitRuntimeError = 1;
constexpr int kExitUsage = 2;

const char* const kUsage = R"(Usage: hxrt-info [--json]

Starts hxrt as a host application would (config file from $HXRT_CONFIG, plugins from the
config, $HXRT_PLUGIN_PATH and the folder installed beside libhxrt) and prints:
  plugins   every candidate file, loaded or skipped with the reason
  devices   every device with its plugin, product, memory and location
  kernels   every registered kernel: op, device type, dtypes, priority, plugin

Options:
  --json    print the same as one JSON object with keys "plugins", "devices", "kernels"
  --help    print this help

Exit status: 0 on success, 1 when hxrt cannot start (for example a bad config file),
2 for an unknown option.
)";

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "hxrt-info: unknown option '" << arg << "'\n"
                << "Run 'hxrt-info --help' for the options.\n";
      return kExitUsage;
    }
  }

  try {
    const hxrt::Runtime runtime = hxrt::Runtime::create();
    const hxrt_info::Snapshot snapshot = hxrt_info::take_snapshot(runtime);
    if (json) {
      // A path that is not UTF-8 must not make the report fail: replace the bad bytes.
      std::cout << hxrt_info::json_report(snapshot).dump(
                       2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                << '\n';
    } else {
      hxrt_info::print_text_report(std::cout, snapshot);
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
