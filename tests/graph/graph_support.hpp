// Runtimes and graphs the graph-mode tests share.
#pragma once

#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

namespace graph_test {

// The canonical name of a device of this process: "GPU:0" -> "/job:localhost/.../GPU:0".
inline std::string device(const std::string& short_name) {
  return "/job:localhost/replica:0/task:0/device:" + short_name;
}

// Compile options that choose the dynamic placer.
inline hxrt::CompileOptions dynamic_placer() {
  hxrt::CompileOptions options;
  options.placer = hxrt::GraphPlacer::kDynamic;
  return options;
}

// The placement of node `node` in `exe`; fails the test when there is none.
inline const hxrt::NodePlacement& placement_of(const hxrt::Executable& exe,
                                               const std::string& node) {
  const auto& all = exe.placement();
  auto found = std::find_if(all.begin(), all.end(),
                            [&](const hxrt::NodePlacement& p) { return p.node == node; });
  REQUIRE(found != all.end());
  return *found;
}

// The CPU plugin and `gpus` sim GPUs, with `sim_options` added to the sim's options
// ("\"launch_latency_us\":1000").
inline hxrt::Runtime cpu_and_gpus(int gpus, const std::string& sim_options = "",
                                  const std::vector<std::string>& more_plugins = {}) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  for (const std::string& plugin : more_plugins) options.plugin_paths.push_back(plugin);
  // One thread per CPU kernel: on a loaded machine a kernel's second OpenMP thread may wait a
  // scheduler slice per parallel region, and the dynamic placer's calibration then timed a
  // 256x256 MatMul at a second (ctest -j2 beside another build), which these tests' placements
  // are not about.
  options.intra_op_threads = 1;
  options.plugin_options = {
      {"sim", "{\"device_type\":\"GPU\",\"device_count\":" + std::to_string(gpus) +
                  (sim_options.empty() ? "" : "," + sim_options) + "}"}};
  return hxrt::Runtime::create(options);
}

inline std::string fixture_path(const std::string& what) {
  return HXRT_TEST_FIXTURE_DIR "/libhx_fixture_" + what + ".so";
}

// Every line logged, for checks on the placement log.
struct LogLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  hxrt::LogSink sink() {
    return [this](hxrt::LogLevel, std::string_view message) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.emplace_back(message);
    };
  }
};

// The guide's replication: a (2x3) times b (3x2) on each GPU in its scope, summed by AddN on
// the CPU.
inline hxrt::Graph replication_graph(hxrt::Runtime& rt, int gpus) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput a = builder.input("a", hxrt::DType::kF32, {2, 3});
  const hxrt::NodeOutput b = builder.input("b", hxrt::DType::kF32, {3, 2});
  std::vector<hxrt::NodeOutput> products;
  for (int i = 0; i < gpus; ++i) {
    const auto scope = rt.device("/GPU:" + std::to_string(i));
    products.push_back(builder.add("MatMul_" + std::to_string(i), "MatMul", {a, b}));
  }
  const auto scope = rt.device("/CPU:0");
  builder.add("AddN", "AddN", products);
  return builder.build();
}

inline std::vector<float> values(const hxrt::Tensor& tensor) {
  return tensor.to_vector<float>();
}

}  // namespace graph_test
