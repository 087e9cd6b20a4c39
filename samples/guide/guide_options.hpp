// What every guide sample does first: find the config file, which sets up the simulated GPUs,
// and send placement logging to stdout so that log lines and results read as one stream.
#pragma once

#include <optional>

#include "hxrt/hxrt.hpp"

namespace guide {

// The exit status of a sample run the wrong way.
inline constexpr int kUsageError = 2;

// Options for a sample run as `<program> [CONFIG_FILE]`: the file named on the command line,
// else $HXRT_CONFIG. With neither, prints the usage line to stderr and returns nullopt.
std::optional<hxrt::RuntimeOptions> options_from_command_line(int argc, char** argv);

}  // namespace guide
