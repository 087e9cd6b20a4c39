// hxrt-info's options, and its usage text.
#pragma once

#include <optional>

namespace hxrt_info {

struct CommandLine {
  bool json = false;    // --json: JSON instead of aligned text
  bool config = false;  // --config: the effective configuration instead of the report
  bool ops = false;     // --ops: the ops' specification instead of the report
  bool markdown = false;  // --markdown (with --ops): the ops reference as Markdown
  bool probe = true;    // --no-probe: load plugins without probing them in a child first
  bool help = false;    // --help / -h
};

extern const char* const kUsage;

// The options, or nullopt after printing to stderr why `argv` holds an unknown one.
std::optional<CommandLine> parse_command_line(int argc, char** argv);

}  // namespace hxrt_info
