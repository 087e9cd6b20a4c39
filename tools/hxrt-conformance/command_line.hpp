// hxrt-conformance's options, and its usage text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sections/sections.hpp"

namespace hxrt_conformance {

struct CommandLine {
  std::vector<std::string> plugins;           // shared objects; empty: every plugin discovered
  std::optional<std::string> options;         // --options: JSON object text for every plugin
  std::vector<const Section*> sections;       // --section, in suite order; all when not given
  uint64_t seed = 1;                          // --seed
  int timeout_seconds = 300;                  // --timeout, per section
  bool json = false;                          // --json
  bool help = false;                          // --help / -h
};

// The usage text, with the sections listed.
std::string usage();

// The options, or nullopt after printing to stderr what is wrong with `argv`.
std::optional<CommandLine> parse_command_line(int argc, char** argv);

}  // namespace hxrt_conformance
