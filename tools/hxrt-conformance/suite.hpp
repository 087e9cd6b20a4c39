// Runs the chosen sections against one plugin, each in a child process of its own.
#pragma once

#include <string>
#include <vector>

#include "check_log.hpp"
#include "sections/sections.hpp"

namespace hxrt_conformance {

struct PluginResult {
  Target target;
  std::vector<Check> checks;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
};

// `chosen`: the sections to run, in suite order. `timeout_seconds`: per section.
PluginResult run_suite(const Target& target, const std::vector<const Section*>& chosen,
                       int timeout_seconds);

}  // namespace hxrt_conformance
