// What the tests of compile's passes share: a runtime of the CPU plugin logging at info level,
// the op compile gave a node, and the check that a pass left what a run computes unchanged.
#pragma once

#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include "graph_support.hpp"

namespace passes_test {

using hxrt::NodeOutput;

inline hxrt::Runtime passes_runtime(const std::string& config_path = {}) {
  hxrt::RuntimeOptions options;
  options.config_path = config_path;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  options.log_level = hxrt::LogLevel::kInfo;
  return hxrt::Runtime::create(options);
}

// The node's op in the executable's placement; "" when compile left it out.
inline std::string op_in(const hxrt::Executable& exe, const std::string& node) {
  for (const hxrt::NodePlacement& placement : exe.placement()) {
    if (placement.node == node) return placement.op;
  }
  return "";
}

inline bool logged_line(graph_test::LogLines& log, const std::string& line) {
  std::lock_guard<std::mutex> lock(log.mutex);
  return std::find(log.lines.begin(), log.lines.end(), line) != log.lines.end();
}

inline std::vector<float> ramp_values(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = scale * static_cast<float>(static_cast<int>(i % 17) - 8);
  }
  return values;
}

inline hxrt::CompileOptions passes_off() {
  hxrt::CompileOptions options;
  options.passes.remove_identities = false;
  options.passes.fold_constants = false;
  options.passes.fuse_kernels = false;
  options.passes.block_channels = false;
  return options;
}

inline void expect_close(const std::vector<float>& got, const std::vector<float>& expected) {
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(i);
    CHECK(std::fabs(got[i] - expected[i]) <= 1e-4f * (1 + std::fabs(expected[i])));
  }
}

// `optimised` (of `graph`, fetching `fetch`), fed `x`, computes what the graph compiled with
// no pass does.
inline void expect_unchanged(hxrt::Runtime& rt, const hxrt::Executable& optimised,
                      const hxrt::Graph& graph, const NodeOutput& fetch, const hxrt::Tensor& x) {
  expect_close(optimised.run({{"x", x}})[0].to_vector<float>(),
               rt.compile(graph, {fetch}, passes_off()).run({{"x", x}})[0].to_vector<float>());
}


}  // namespace passes_test
