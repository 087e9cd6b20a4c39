#include "command_line.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

namespace hxrt_conformance {
namespace {

const char* const kUsageHead = R"(Usage: hxrt-conformance [options] [PLUGIN.so ...]

Checks plugins against the hxrt plugin ABI (include/hxrt/plugin_api.h). With no PLUGIN.so,
checks every plugin hxrt discovers as a host application would (config file from
$HXRT_CONFIG, $HXRT_PLUGIN_PATH, the folder installed beside libhxrt), each with the options
its config gives it. Prints one line per check (pass, FAIL or skip, with what to fix under a
failure) and a summary line per plugin. A feature the plugin does not offer (streams,
events, pinned host memory) is a skip, not a failure. Each section runs in a process of its
own, so a plugin that crashes or hangs fails that section and the rest still run.

Sections:
)";

const char* const kUsageTail = R"(
Options:
  --options JSON     the options object given to hx_plugin_init of every plugin checked
                     (default "{}", or the config's plugins.options.<name> for a discovered
                     plugin); e.g. --options '{"device_count": 2}' for libhx_sim.so
  --section NAME     run only this section (repeat for several)
  --seed N           seed of the random inputs (default 1); a failure names the seed
  --timeout SECONDS  how long one section may run before it fails as hung (default 300)
  --json             print the results as one JSON object instead of the table
  --help             print this help

Exit status: 0 when no check failed, 1 when one did, 2 for a bad command line.
)";

bool parse_number(const std::string& text, uint64_t* out) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit)) return false;
  try {
    *out = std::stoull(text);
    return true;
  } catch (...) {
    return false;
  }
}

bool bad(const std::string& message) {
  std::cerr << "hxrt-conformance: " << message << "\n"
            << "Run 'hxrt-conformance --help' for the options.\n";
  return false;
}

}  // namespace

std::string usage() {
  std::string text = kUsageHead;
  for (const Section& section : sections()) {
    std::string name = section.name;
    name.resize(11, ' ');
    text += "  " + name + section.summary + "\n";
  }
  return text + kUsageTail;
}

std::optional<CommandLine> parse_command_line(int argc, char** argv) {
  CommandLine command_line;
  std::vector<std::string> chosen;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--json") {
      command_line.json = true;
    } else if (arg == "--help" || arg == "-h") {
      command_line.help = true;
    } else if (arg == "--options" || arg == "--section" || arg == "--seed" ||
               arg == "--timeout") {
      if (!has_value) {
        bad(arg + " needs a value");
        return std::nullopt;
      }
      const std::string value = argv[++i];
      if (arg == "--options") {
        const nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
        if (parsed.is_discarded() || !parsed.is_object()) {
          bad("--options takes a JSON object, such as '{\"device_count\": 2}'; got '" + value +
              "'");
          return std::nullopt;
        }
        command_line.options = value;
      } else if (arg == "--section") {
        if (find_section(value) == nullptr) {
          std::string names;
          for (const Section& section : sections()) names += std::string(" ") + section.name;
          bad("no section '" + value + "'; the sections are:" + names);
          return std::nullopt;
        }
        chosen.push_back(value);
      } else {
        uint64_t number = 0;
        if (!parse_number(value, &number) || (arg == "--timeout" && (number == 0 || number > 86400))) {
          bad(arg + " takes a " + (arg == "--timeout" ? "number of seconds (1 to 86400)" : "non-negative integer") +
              ", got '" + value + "'");
          return std::nullopt;
        }
        if (arg == "--seed") {
          command_line.seed = number;
        } else {
          command_line.timeout_seconds = static_cast<int>(number);
        }
      }
    } else if (arg.rfind("--", 0) == 0 || arg == "-") {
      bad("unknown option '" + arg + "'");
      return std::nullopt;
    } else {
      command_line.plugins.push_back(arg);
    }
  }
  for (const Section& section : sections()) {
    if (chosen.empty() || std::find(chosen.begin(), chosen.end(), section.name) != chosen.end()) {
      command_line.sections.push_back(&section);
    }
  }
  return command_line;
}

}  // namespace hxrt_conformance
