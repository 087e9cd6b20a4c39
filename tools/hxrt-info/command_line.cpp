#include "command_line.hpp"

#include <iostream>
#include <string>

namespace hxrt_info {

const char* const kUsage = R"(Usage: hxrt-info [--json] [--config] [--ops [--markdown]] [--no-probe]

Starts hxrt as a host application would (config file from $HXRT_CONFIG, plugins from the
config, $HXRT_PLUGIN_PATH and the folder installed beside libhxrt), probing each plugin
in a child process first, and prints:
  plugins           every candidate file, loaded or skipped with the reason
  physical devices  every device a plugin reports, and the logical devices made from it
                    (or "not visible" when visible_devices or device_count hide it)
  devices           every logical device with its physical device, plugin, product,
                    memory policy and memory figures (in use, peak, reserved, limit,
                    allocations, largest free block, fragmentation)
  kernels           every registered kernel: op, device type, dtypes, priority, plugin

Options:
  --json      print the same as one JSON object with keys "plugins", "physical_devices",
              "devices", "kernels"; sizes in bytes, a memory limit of none as null
  --config    print the effective configuration instead: one line per setting with its
              JSON path, value and source (default, file, environment or API); with
              --json, an array of {"path", "value", "source"}
  --ops       print every op instead (the core's and the plugins' custom ones): what it
              computes, its inputs and outputs with their dtypes, its attributes with
              types and defaults, where its type parameter T comes from (the dtype
              kernels register for), its shape rule and the kernels each device type has;
              with --json, an array of objects
  --markdown  with --ops: print the ops reference as Markdown (share/doc/hxrt/ops.md is
              the core's part of it)
  --no-probe  load plugins without probing them in a child process first, as a host
              application does by default; a plugin that crashes in its init then ends
              hxrt-info
  --help      print this help

Exit status: 0 on success, 1 when hxrt cannot start (for example a bad config file, or
a device setup that cannot be applied), 2 for an unknown option.
)";

std::optional<CommandLine> parse_command_line(int argc, char** argv) {
  CommandLine command_line;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      command_line.json = true;
    } else if (arg == "--config") {
      command_line.config = true;
    } else if (arg == "--ops") {
      command_line.ops = true;
    } else if (arg == "--markdown") {
      command_line.markdown = true;
    } else if (arg == "--no-probe") {
      command_line.probe = false;
    } else if (arg == "--help" || arg == "-h") {
      command_line.help = true;
    } else {
      std::cerr << "hxrt-info: unknown option '" << arg << "'\n"
                << "Run 'hxrt-info --help' for the options.\n";
      return std::nullopt;
    }
  }
  if (command_line.markdown && !command_line.ops) {
    std::cerr << "hxrt-info: --markdown goes with --ops (hxrt-info --ops --markdown)\n";
    return std::nullopt;
  }
  return command_line;
}

}  // namespace hxrt_info
