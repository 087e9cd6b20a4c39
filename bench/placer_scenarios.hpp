// The dynamic placer's scenarios: each a runtime of simulated devices of different speeds,
// copies or memory, and a graph on which the choice of placer matters (or, in the last, on
// which the simple placer is already right). hxrt_placer_scenarios_bench runs each under both
// placers. The first two are those of the samples in samples/dynamic, which read the same
// config files and build the same graphs.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

struct ScenarioGraph {
  hxrt::Graph graph;
  std::vector<hxrt::NodeOutput> fetches;
};

struct PlacerScenario {
  const char* name;   // "one_fast_three_slow": the middle part of its benchmarks' names
  const char* label;  // "1 fast 3 slow": its rows in the ratio table (15 characters at most)
  hxrt::RuntimeOptions options;
  // Where runs are fed from: where the dynamic placer assumes feeds come from (the first CPU,
  // else the first device).
  std::string feed_device;
  std::function<ScenarioGraph(hxrt::Runtime&)> graph;
  // The least speedup (simple placer's time / dynamic placer's) asked of it; 0: none, only
  // that the dynamic placer is not slower than the simple one by more than the bench allows.
  double speedup_target = 0;
};

std::vector<PlacerScenario> placer_scenarios();

// A tensor on `device` for every input of `graph`, as declared, each element 1 / (the
// input's last extent): every MatMul of such matrices and every Relu of them gives back the
// same values, exactly, so a chain of them never overflows nor goes subnormal.
std::map<std::string, hxrt::Tensor> scenario_feeds(hxrt::Runtime& rt, const hxrt::Graph& graph,
                                                   const std::string& device);

}  // namespace hxrt_bench
