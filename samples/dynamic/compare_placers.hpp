// What both dynamic-placer samples do with their graph: compile it under the simple placer and
// under the dynamic one, print where each node goes and why, time runs of each, and check that
// both give the same results.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace dynamic_sample {

// The exit status of a sample run the wrong way.
inline constexpr int kUsageError = 2;

// Options for `<program> CONFIG_FILE`, else $HXRT_CONFIG. With neither, prints the usage line
// (naming `config_hint`, the file the sample is meant for) to stderr and returns nullopt.
std::optional<hxrt::RuntimeOptions> options_from_command_line(int argc, char** argv,
                                                              const char* config_hint);

struct SampleGraph {
  hxrt::Graph graph;
  std::vector<hxrt::NodeOutput> fetches;
  std::map<std::string, hxrt::Tensor> feeds;
};

// Prints, for the simple placer and then the dynamic one, each node's device and reason and
// the median wall time of a run; then the ratio of the two times and whether the fetched
// results match. Returns the sample's exit status (1 when they differ). Error as compile and
// run throw it.
int compare_placers(hxrt::Runtime& rt, const SampleGraph& sample);

}  // namespace dynamic_sample
