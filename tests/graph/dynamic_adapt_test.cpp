// The dynamic placer's executable after compile: graph inputs placed where their feeds live
// (CompileOptions::feed_devices, an input's own device, or learned from the first run), and
// placements judged by the run times they measure: one that measures more than 5% slower than
// the simple placer's gives way to it; checks that keep a placement come ever less often.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "error_from.hpp"
#include "graph_support.hpp"
#include "temp_dir.hpp"

using graph_test::device;
using graph_test::dynamic_placer;
using graph_test::placement_of;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt_test::error_from;

namespace {

bool logged(graph_test::LogLines& log, const std::string& start, const std::string& part) {
  std::lock_guard<std::mutex> lock(log.mutex);
  return std::any_of(log.lines.begin(), log.lines.end(), [&](const std::string& line) {
    return line.rfind(start, 0) == 0 && line.find(part) != std::string::npos;
  });
}

// Two sim GPUs and no CPU plugin: a 64x64 MatMul takes 8 ms on GPU:0, 1 ms on GPU:1, and a
// copy between them 3 ms. With no CPU, the placer's host is GPU:0: where it assumes feeds come
// from unless told.
hxrt::Runtime two_gpus(const std::string& config_path = {}) {
  hxrt::RuntimeOptions options;
  options.config_path = config_path;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options = {
      {"sim", R"({"device_type": "GPU", "matmul_gflops": 0.065536, "launch_latency_us": 20,
                  "d2d_gbps": 8, "d2d_latency_us": 3000,
                  "devices": [{}, {"matmul_gflops": 0.524288}]})"}};
  return hxrt::Runtime::create(options);
}

// The issue's graph, smaller: four branches of a 64x64 MatMul then Relu, and four of an 8x8
// MatMul, on inputs x, w (64x64) and s (8x8).
struct BranchGraph {
  hxrt::Graph graph;
  std::vector<NodeOutput> fetches;
};
BranchGraph branches(hxrt::Runtime& rt) {
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {64, 64});
  const NodeOutput w = builder.input("w", DType::kF32, {64, 64});
  const NodeOutput s = builder.input("s", DType::kF32, {8, 8});
  std::vector<NodeOutput> fetches;
  for (int i = 0; i < 4; ++i) {
    const std::string big = "big" + std::to_string(i);
    fetches.push_back(builder.add(big + "/relu", "Relu", {builder.add(big, "MatMul", {x, w})}));
    fetches.push_back(builder.add("small" + std::to_string(i), "MatMul", {s, s}));
  }
  return {builder.build(), fetches};
}

std::map<std::string, hxrt::Tensor> feeds_on(hxrt::Runtime& rt, const std::string& where) {
  return {{"x", rt.tensor<float>({64, 64}, std::vector<float>(64 * 64, 0.5f), where)},
          {"w", rt.tensor<float>({64, 64}, std::vector<float>(64 * 64, 0.25f), where)},
          {"s", rt.tensor<float>({8, 8}, std::vector<float>(64, 1.0f), where)}};
}

}  // namespace

TEST_CASE("Graph inputs fed on another device than assumed are placed there after the first "
          "run", "[graph][dynamic][feeds]") {
  hxrt::Runtime rt = two_gpus();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  const BranchGraph made = branches(rt);
  const hxrt::Executable exe = rt.compile(made.graph, made.fetches, dynamic_placer());
  // Assumed fed from the host, GPU:0 here: no copy in there. (s goes where its small MatMuls
  // fit best beside the big ones.)
  for (const char* input : {"x", "w"}) {
    INFO(input);
    CHECK(placement_of(exe, input).device == device("GPU:0"));
  }
  rt.set_log_device_placement(true);
  const std::map<std::string, hxrt::Tensor> feeds = feeds_on(rt, "/GPU:1");
  const std::vector<hxrt::Tensor> first = exe.run(feeds);
  CHECK(exe.replacements() == 1);
  for (const char* input : {"x", "w"}) {
    INFO(input);
    CHECK(placement_of(exe, input).device == device("GPU:1"));
  }
  CHECK(logged(log, "Graph placed again after 1 runs: its feeds live elsewhere than assumed (",
               "x on " + device("GPU:1")));
  // Nothing copies x or w out of GPU:0 any more. (Whether a consumer still runs on GPU:0, with a
  // copy from GPU:1, is the cost model's call on measured times, which a loaded machine moves.)
  for (const std::string& transfer : exe.transfers()) {
    INFO(transfer);
    CHECK(transfer.rfind("x:0 from GPU:0", 0) != 0);
    CHECK(transfer.rfind("w:0 from GPU:0", 0) != 0);
  }
  // Learned once: the same feeds again change nothing, and the values are the same.
  const std::vector<hxrt::Tensor> second = exe.run(feeds);
  CHECK(exe.replacements() == 1);
  REQUIRE(second.size() == first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    CHECK(second[i].to_vector<float>() == first[i].to_vector<float>());
  }
}

TEST_CASE("With placement.replace_every_runs 0 an executable keeps its placement whatever it is "
          "fed", "[graph][dynamic][feeds]") {
  hxrt_test::TempDir dir("hxrt_never_again");
  const std::string config = (dir.path() / "config.json").string();
  std::ofstream(config) << R"({"placement": {"replace_every_runs": 0}})";
  hxrt::Runtime rt = two_gpus(config);
  const BranchGraph made = branches(rt);
  const hxrt::Executable exe = rt.compile(made.graph, made.fetches, dynamic_placer());
  const std::map<std::string, hxrt::Tensor> feeds = feeds_on(rt, "/GPU:1");
  for (int run = 0; run < 3; ++run) exe.run(feeds);
  CHECK(exe.replacements() == 0);
  CHECK(placement_of(exe, "x").device == device("GPU:0"));
}

TEST_CASE("CompileOptions::feed_devices places graph inputs where their feeds live from the "
          "start, and is checked", "[graph][dynamic][feeds]") {
  hxrt::Runtime rt = two_gpus();
  const BranchGraph made = branches(rt);
  hxrt::CompileOptions options = dynamic_placer();
  options.feed_devices = {{"x", "/GPU:1"}, {"w", "GPU:1"}, {"s", "/device:GPU:1"}};
  const hxrt::Executable exe = rt.compile(made.graph, made.fetches, options);
  for (const char* input : {"x", "w"}) {
    INFO(input);
    const hxrt::NodePlacement& placed = placement_of(exe, input);
    CHECK(placed.device == device("GPU:1"));
    CHECK(placed.reason.rfind("GPU:1: Placeholder 0.00 ms there vs ", 0) == 0);
  }
  // s anywhere else is a copy from GPU:1.
  const hxrt::NodePlacement& s = placement_of(exe, "s");
  if (s.device != device("GPU:1")) {
    CHECK(s.reason.find(" vs 0.00 ms on GPU:1") != std::string::npos);
  }
  exe.run(feeds_on(rt, "/GPU:1"));
  CHECK(exe.replacements() == 0);  // the feeds are where it was told

  options.feed_devices = {{"big0", "/GPU:1"}};
  std::optional<hxrt::Error> error =
      error_from([&] { rt.compile(made.graph, made.fetches, options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("CompileOptions::feed_devices names 'big0', which "
                                            "is not a graph input"));
  options.feed_devices = {{"nope", "/GPU:1"}};
  error = error_from([&] { rt.compile(made.graph, made.fetches, options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("'nope', which is not a node of the graph"));
  options.feed_devices = {{"x", "/GPU:7"}};
  options.placer = hxrt::GraphPlacer::kSimple;  // checked under either placer
  error = error_from([&] { rt.compile(made.graph, made.fetches, options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("puts the feed of 'x' on '/GPU:7', which names no "
                                            "device"));
}

TEST_CASE("A dynamic placement that measures slower than the simple placer's gives way to it",
          "[graph][dynamic][measured]") {
  // The simple placer puts everything on the CPU (first by priority here). The sim GPU's model
  // says its MatMul takes no time, and its events agree, so the cost model keeps the GPU;
  // but the sim computes a MatMul on the host, naively, after its modelled time: a 192x192
  // one takes milliseconds of wall time, where the CPU's BLAS takes a fraction of one.
  hxrt_test::TempDir dir("hxrt_measured");
  const std::string config = (dir.path() / "config.json").string();
  std::ofstream(config) << R"({"placement": {"replace_every_runs": 2,
                                             "device_priority": ["CPU", "GPU"]}})";
  hxrt::RuntimeOptions options;
  options.config_path = config;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options = {{"sim", R"({"device_type":"GPU","device_count":1,
                                       "matmul_gflops":1000000})"}};
  // One thread for the CPU's MatMul: a team of OpenMP threads, one of them descheduled by
  // other work on a loaded machine (a parallel test run), waits for it at the end of every
  // kernel, and the CPU's runs then measure slower than the sim's.
  options.intra_op_threads = 1;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // What calibration measured by the wall clock is overruled by a saved model that has the
  // GPU's MatMul at a microsecond; runs then time it by the GPU's events, which agree.
  const double work = 2.0 * 192 * 192 * 192;
  rt.load_cost_model_json(R"({"format": "hxrt cost model", "version": 1, "devices": {")" +
                          device("GPU:0") + R"(": {"kernels": [{"op": "MatMul", "flops": true,
                          "work": )" + std::to_string(work) + R"(, "seconds": [1e-6]}]}}})");
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {192, 192});
  NodeOutput last = x;
  for (int i = 0; i < 3; ++i) last = builder.add("mm" + std::to_string(i), "MatMul", {last, x});
  const hxrt::Executable exe = rt.compile(builder.build(), {last}, dynamic_placer());
  REQUIRE(placement_of(exe, "mm1").device == device("GPU:0"));  // believed fast

  rt.set_log_device_placement(true);
  const std::map<std::string, hxrt::Tensor> feeds = {
      {"x", rt.tensor<float>({192, 192}, std::vector<float>(192 * 192, 0.01f), "/CPU:0")}};
  for (int run = 0; run < 2; ++run) exe.run(feeds);  // the second is timed
  // The simple placer's placement runs next, for a window, to compare.
  CHECK(logged(log, "Graph placement trial after 2 runs", "the simple placer's placement"));
  CHECK(placement_of(exe, "mm1").device == device("CPU:0"));
  for (int run = 0; run < 2; ++run) exe.run(feeds);
  CHECK(logged(log, "Graph placement compared after 4 runs: the dynamic placer's measured ",
               "% faster; the simple placer's is kept"));
  CHECK(placement_of(exe, "mm1").device == device("CPU:0"));
  // The model still prefers the GPU, but that placement measured slower: it is not taken again.
  for (int run = 0; run < 2; ++run) exe.run(feeds);
  CHECK(logged(log, "Graph placement kept: after 6 runs", "the best found measured slower"));
  CHECK(placement_of(exe, "mm1").device == device("CPU:0"));
  CHECK(exe.replacements() == 0);
}

namespace {

// The run counts of the checks logged as keeping the placement ("Graph placement kept: after
// N runs ...").
std::vector<int> kept_checks(graph_test::LogLines& log) {
  const std::string start = "Graph placement kept: after ";
  std::vector<int> runs;
  std::lock_guard<std::mutex> lock(log.mutex);
  for (const std::string& line : log.lines) {
    if (line.rfind(start, 0) == 0) runs.push_back(std::stoi(line.substr(start.size())));
  }
  return runs;
}

// The samples the cost model holds of CPU:0's MatMul of `work` operations.
size_t matmul_samples(const hxrt::Runtime& rt, double work) {
  const nlohmann::json model = nlohmann::json::parse(rt.cost_model_json());
  const nlohmann::json& cpu = model.at("devices").at(device("CPU:0"));
  if (!cpu.contains("kernels")) return 0;  // none measured yet
  for (const nlohmann::json& kernel : cpu.at("kernels")) {
    if (kernel.at("op") == "MatMul" && kernel.at("work").get<double>() == work) {
      return kernel.at("seconds").size();
    }
  }
  return 0;
}

}  // namespace

TEST_CASE("A placement that holds is checked ever less often, and only the runs before a check "
          "are timed", "[graph][dynamic][checks]") {
  hxrt_test::TempDir dir("hxrt_checks");
  const std::string config = (dir.path() / "config.json").string();
  std::ofstream(config) << R"({"placement": {"replace_every_runs": 2}})";
  hxrt::RuntimeOptions options;
  options.config_path = config;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  options.intra_op_threads = 1;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  rt.set_log_device_placement(true);
  // One MatMul of a size nothing else measures (calibration's are larger), so that its
  // samples in the cost model are this executable's runs'.
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {24, 24});
  builder.add("mm", "MatMul", {x, x});
  const hxrt::Executable exe = rt.compile(builder.build(), {{"mm", 0}}, dynamic_placer());
  const std::map<std::string, hxrt::Tensor> feeds = {
      {"x", rt.tensor<float>({24, 24}, std::vector<float>(24 * 24, 0.5f))}};
  const double work = 2.0 * 24 * 24 * 24;
  REQUIRE(matmul_samples(rt, work) == 0);

  // Runs 1 and 2 are timed for the first check, after 2 runs, which keeps the placement; the
  // next comes after 4 runs at the soonest (later where checks would otherwise take over 2%
  // of the runs' time: here, where a check's compile outlasts a hundred runs), then after 8 at
  // the soonest, so runs 5 and 6 are never timed. (The model keeps 9 samples: all 8 runs'
  // would show.)
  for (int run = 0; run < 8; ++run) exe.run(feeds);
  const std::vector<int> early = kept_checks(log);
  REQUIRE(early.size() >= 1);
  CHECK(early[0] == 2);
  CHECK(matmul_samples(rt, work) <= 6);
  CHECK(matmul_samples(rt, work) >= 2);

  // Each check that keeps the placement at least doubles the runs to the next: 2, 4, 8, 16,
  // 32 at the most in 40 runs, where a check every 2 runs would make 20.
  for (int run = 8; run < 40; ++run) exe.run(feeds);
  const std::vector<int> checks = kept_checks(log);
  std::string listed;
  for (int at : checks) listed += " " + std::to_string(at);
  INFO("checks after runs" << listed);
  CHECK(checks.size() <= 5);
  for (size_t i = 2; i < checks.size(); ++i) {
    CHECK(checks[i] - checks[i - 1] >= 2 * (checks[i - 1] - checks[i - 2]));
  }
  CHECK(exe.replacements() == 0);
}
