// Item 7's acceptance: a trace of MatMuls queued back to back on two sim GPUs shows them
// running at once on the two devices' timelines. Needs the core to record an asynchronous
// device's kernel with OpTrace::record_enqueued (its span ends when its ready event does).
#include <catch2/catch.hpp>

#include <vector>

#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;

TEST_CASE("MatMuls queued on two sim GPUs overlap on the devices' timelines") {
  hxrt_test::TempDir dir("hxrt_trace_overlap");
  const std::string path = (dir.path() / "overlap.json").string();
  hxrt::RuntimeOptions options = trace_test::cpu_and_two_sim_gpus();
  // 2*64^3 flops at 0.0262 GFLOP/s: about 20 ms per MatMul by the sim's model.
  options.plugin_options["sim"] =
      R"({"device_type": "GPU", "device_count": 2, "memory_mb": 8, "matmul_gflops": 0.0262})";
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const std::vector<float> ones(64 * 64, 1.0f);
  hxrt::Tensor a0 = rt.tensor<float>({64, 64}, ones, "GPU:0");
  hxrt::Tensor a1 = rt.tensor<float>({64, 64}, ones, "GPU:1");
  rt.synchronize();
  rt.start_trace(path);
  hxrt::Tensor c0 = rt.execute("MatMul", {a0, a0}, {}, "GPU:0");
  hxrt::Tensor c1 = rt.execute("MatMul", {a1, a1}, {}, "GPU:1");
  rt.synchronize();
  rt.stop_trace();
  const json trace = trace_test::read_trace(path);
  const std::vector<json> kernels = events(trace, "kernel", "MatMul");
  REQUIRE(kernels.size() == 2);
  const json& k0 = kernels[0];
  const json& k1 = kernels[1];
  CHECK(k0.at("pid") != k1.at("pid"));
  // Each span covers its ~20 ms of modelled work (the sim runs it on its stream's worker)...
  CHECK(k0.at("dur").get<double>() >= 10000.0);
  CHECK(k1.at("dur").get<double>() >= 10000.0);
  // ...and the two run at once: each starts before the other ends.
  const double end0 = k0.at("ts").get<double>() + k0.at("dur").get<double>();
  const double end1 = k1.at("ts").get<double>() + k1.at("dur").get<double>();
  CHECK(k0.at("ts").get<double>() < end1);
  CHECK(k1.at("ts").get<double>() < end0);
}
