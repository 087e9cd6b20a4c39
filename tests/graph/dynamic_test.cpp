// The dynamic placer (placement.placer "dynamic"): nodes without a request placed on the cost
// model, constraints kept, every choice explained with estimates per device, and the model
// measured by runs, saved and given back.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include <fstream>

#include "error_from.hpp"
#include "graph_support.hpp"
#include "temp_dir.hpp"

using graph_test::cpu_and_gpus;
using graph_test::device;
using graph_test::dynamic_placer;
using graph_test::placement_of;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt_test::error_from;

namespace {

// The CPU plugin's BLAS and the sim device sum a MatMul's products in different orders (which
// order OpenBLAS takes depends on the core it picked for the machine's CPU), so results of two
// placements agree to float tolerance, not bit for bit.
void check_close(const std::vector<float>& got, const std::vector<float>& expected) {
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(expected[i]).epsilon(1e-5));
  }
}

// x (128x128) through three MatMuls with itself.
hxrt::Graph matmul_chain(hxrt::Runtime& rt, NodeOutput& last, const std::string& pin = {}) {
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {128, 128});
  last = x;
  for (int i = 0; i < 3; ++i) {
    last = builder.add("mm" + std::to_string(i), "MatMul", {last, x}, {}, i == 1 ? pin : "");
  }
  return builder.build();
}

}  // namespace

TEST_CASE("The dynamic placer keeps work off a slow accelerator the simple placer would pick, "
          "and says why", "[graph][dynamic]") {
  // 128x128 MatMuls at 0.05 GFLOP/s: 84 ms each on the sim GPU, well under one on the CPU.
  hxrt::Runtime rt = cpu_and_gpus(1, "\"matmul_gflops\":0.05");
  NodeOutput last;
  const hxrt::Graph graph = matmul_chain(rt, last);
  const hxrt::Executable simple = rt.compile(graph, {last});
  CHECK(placement_of(simple, "mm0").device == device("GPU:0"));  // priority: the accelerator
  CHECK(placement_of(simple, "mm0").estimates.empty());

  const hxrt::Executable placed = rt.compile(graph, {last}, dynamic_placer());
  for (const char* node : {"x", "mm0", "mm1", "mm2"}) {
    INFO(node);
    CHECK(placement_of(placed, node).device == device("CPU:0"));
  }
  const hxrt::NodePlacement& mm1 = placement_of(placed, "mm1");
  CHECK_THAT(mm1.reason, Catch::StartsWith("CPU:0: MatMul "));
  CHECK_THAT(mm1.reason, Catch::Contains(" on GPU:0"));
  CHECK_THAT(mm1.reason, Catch::Contains("inputs already there"));
  REQUIRE(mm1.estimates.size() == 2);
  const hxrt::DeviceEstimate& cpu = mm1.estimates[0];
  const hxrt::DeviceEstimate& gpu = mm1.estimates[1];
  CHECK(cpu.device == device("CPU:0"));
  CHECK(cpu.allowed);
  CHECK(gpu.allowed);
  CHECK(gpu.kernel_ms > cpu.kernel_ms);  // 84 ms modelled; the CPU's varies with load
  CHECK(cpu.finish_ms < gpu.finish_ms);

  const hxrt::Tensor fed = rt.tensor<float>({128, 128}, std::vector<float>(128 * 128, 0.01f));
  check_close(placed.run({{"x", fed}})[0].to_vector<float>(),
              simple.run({{"x", fed}})[0].to_vector<float>());
}

TEST_CASE("The dynamic placer keeps user pins, and marks devices without a kernel as not "
          "allowed", "[graph][dynamic]") {
  hxrt::Runtime rt = cpu_and_gpus(1, "\"matmul_gflops\":0.05",
                                  {graph_test::fixture_path("failing_kernel")});
  NodeOutput last;
  const hxrt::Graph graph = matmul_chain(rt, last, "/GPU:0");
  const hxrt::Executable placed = rt.compile(graph, {last}, dynamic_placer());
  CHECK(placement_of(placed, "mm1").device == device("GPU:0"));  // pinned: a constraint
  CHECK(placement_of(placed, "mm1").estimates.empty());
  const hxrt::NodePlacement& mm2 = placement_of(placed, "mm2");
  CHECK(mm2.device == device("CPU:0"));
  const auto faildev = std::find_if(mm2.estimates.begin(), mm2.estimates.end(), [](const auto& e) {
    return e.device == device("FAILDEV:0");
  });
  REQUIRE(faildev != mm2.estimates.end());
  CHECK_FALSE(faildev->allowed);  // it has no MatMul kernel
}

TEST_CASE("Runs measure the cost model, which is saved as JSON and given back", "[graph][dynamic]") {
  std::string saved;
  {
    hxrt::Runtime rt = cpu_and_gpus(1);
    NodeOutput last;
    const hxrt::Graph graph = matmul_chain(rt, last, "/CPU:0");
    const hxrt::Executable placed = rt.compile(graph, {last}, dynamic_placer());
    const hxrt::Tensor fed = rt.tensor<float>({128, 128}, std::vector<float>(128 * 128, 0.01f));
    for (int run = 0; run < 3; ++run) placed.run({{"x", fed}});
    saved = rt.cost_model_json();
  }
  const nlohmann::json model = nlohmann::json::parse(saved);
  CHECK(model.at("format") == "hxrt cost model");
  const nlohmann::json& cpu = model.at("devices").at(device("CPU:0"));
  CHECK(cpu.at("speed").at("flops_per_second").get<double>() > 0);  // calibrated
  const auto& kernels = cpu.at("kernels");
  const auto matmul = std::find_if(kernels.begin(), kernels.end(), [](const nlohmann::json& k) {
    return k.at("op") == "MatMul" && k.at("work").get<double>() == 2.0 * 128 * 128 * 128;
  });
  REQUIRE(matmul != kernels.end());
  CHECK(matmul->at("seconds").size() >= 3);  // three runs of the pinned chain, measured

  hxrt::Runtime again = cpu_and_gpus(1);
  again.load_cost_model_json(saved);
  CHECK(nlohmann::json::parse(again.cost_model_json()).at("devices").at(device("CPU:0")) == cpu);

  auto error = error_from([&] { again.load_cost_model_json(R"({"format": "hxrt cost model",
      "version": 1, "devices": {"x": {"speed": {"flops_per_second": 1, "bytes_per_second": 1,
      "latency": 1}}}})"); });
  CHECK_FALSE(error);  // a device this runtime does not have is skipped
  CHECK(nlohmann::json::parse(again.cost_model_json()).at("devices").count("x") == 0);
  error = error_from([&] {
    again.load_cost_model_json(R"({"format": "hxrt cost model", "version": 1, "devices": {")" +
                               device("CPU:0") + R"(": {"speed": {"flops_per_second": "fast"}}}})");
  });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("/devices/~1job:localhost~1replica:0~1task:0~1device:CPU:0/speed/flops_per_second"));
  error = error_from([&] { again.load_cost_model_json("{}"); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("/format: expected \"hxrt cost model\""));
}

TEST_CASE("An executable placed on a wrong cost model is placed again once runs measure the "
          "truth, and the move is logged", "[graph][dynamic]") {
  hxrt_test::TempDir dir("hxrt_replace");
  const std::string config = (dir.path() / "config.json").string();
  std::ofstream(config) << R"({"placement": {"replace_every_runs": 2, "replace_threshold": 0.1}})";
  hxrt::RuntimeOptions options;
  options.config_path = config;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  // 64x64 MatMuls at 0.05 GFLOP/s: about 10 ms each on the sim GPU, far less on the CPU.
  options.plugin_options = {{"sim", R"({"device_type":"GPU","device_count":1,"matmul_gflops":0.05})"}};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // A saved model that has the GPU's MatMul at a microsecond (one stale sample).
  const double work = 2.0 * 64 * 64 * 64;
  rt.load_cost_model_json(R"({"format": "hxrt cost model", "version": 1, "devices": {")" +
                          device("GPU:0") + R"(": {"kernels": [{"op": "MatMul", "flops": true,
                          "work": )" + std::to_string(work) + R"(, "seconds": [1e-6]}]}}})");
  GraphBuilder builder(rt);
  // The input lives on the GPU, so that copies cannot decide the first placement: only the
  // stale kernel figure does.
  const NodeOutput x = builder.input("x", DType::kF32, {64, 64}, "/GPU:0");
  NodeOutput last = x;
  for (int i = 0; i < 3; ++i) last = builder.add("mm" + std::to_string(i), "MatMul", {last, x});
  const hxrt::Executable exe = rt.compile(builder.graph(), {last}, dynamic_placer());
  CHECK(placement_of(exe, "mm1").device == device("GPU:0"));  // believed fast
  const hxrt::NodePlacement& first = placement_of(exe, "mm1");  // stays valid after a move

  rt.set_log_device_placement(true);
  const hxrt::Tensor fed = rt.tensor<float>({64, 64}, std::vector<float>(64 * 64, 0.01f));
  const std::vector<float> expected = exe.run({{"x", fed}})[0].to_vector<float>();
  CHECK(exe.replacements() == 0);  // one run: not checked yet
  check_close(exe.run({{"x", fed}})[0].to_vector<float>(), expected);  // the second: measured
  CHECK(exe.replacements() == 1);
  CHECK(placement_of(exe, "mm1").device == device("CPU:0"));
  CHECK(first.device == device("GPU:0"));
  const bool logged = std::any_of(log.lines.begin(), log.lines.end(), [](const std::string& line) {
    return line.rfind("Graph placed again: after 2 runs", 0) == 0 &&
           line.find("\nmm1: " + device("GPU:0") + " -> " + device("CPU:0")) != std::string::npos;
  });
  CHECK(logged);
  check_close(exe.run({{"x", fed}})[0].to_vector<float>(), expected);  // on the new placement
  check_close(exe.run({{"x", fed}})[0].to_vector<float>(), expected);  // checked again: stays
  CHECK(exe.replacements() == 1);
  const bool kept = std::any_of(log.lines.begin(), log.lines.end(), [](const std::string& line) {
    return line.rfind("Graph placement kept: after 4 runs", 0) == 0;
  });
  CHECK(kept);
}
