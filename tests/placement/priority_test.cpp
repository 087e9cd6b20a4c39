// Priority placement: device types in order, the lowest id of the chosen type.
#include <catch2/catch.hpp>

#include "sim_runtime.hpp"

using namespace placement_test;
using Catch::Matchers::Contains;

TEST_CASE("by default GPU comes first, then other accelerators, then CPU") {
  hxrt::Runtime rt = four_gpus();
  CHECK(rt.device_priority() == std::vector<std::string>{"GPU", "CPU"});
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4});
  CHECK(a.device() == kCpu0);  // tensors start on CPU:0
  CHECK(rt.execute("MatMul", {a, a}).device() == kGpu0);

  hxrt::Runtime sim = hxrt::Runtime::create(sim_options(R"({"device_count": 2})"));
  CHECK(sim.device_priority() == std::vector<std::string>{"SIM", "CPU"});
  hxrt::Tensor b = sim.tensor<float>({1}, {-1});
  CHECK(sim.execute("Relu", {b}).device() == "/job:localhost/replica:0/task:0/device:SIM:0");
}

TEST_CASE("an op without a kernel on the preferred type runs on the next type that has one") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor i = rt.tensor<int32_t>({2}, {1, 2});
  CHECK(rt.execute("Add", {i, i}).device() == kCpu0);  // the sim has float32 kernels only
  hxrt::Tensor f = rt.tensor<float>({2}, {1, 2});
  CHECK(rt.execute("Sub", {f, f}).device() == kCpu0);  // nor Sub
}

TEST_CASE("placement.device_priority reorders device types") {
  hxrt::RuntimeOptions options = sim_options(R"({"device_type": "GPU", "device_count": 4})");
  options.device_priority = std::vector<std::string>{"cpu"};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  CHECK(rt.device_priority() == std::vector<std::string>{"CPU", "GPU"});
  hxrt::Tensor a = rt.tensor<float>({1, 1}, {3});
  CHECK(rt.execute("MatMul", {a, a}).device() == kCpu0);

  options.device_priority = std::vector<std::string>{"not a type"};
  auto error = error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("/placement/device_priority/0"));
}

TEST_CASE("results stay on the op's device until they are read or used elsewhere") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 0, 0, 1}, "/GPU:1");
  reset_sim_counts();
  hxrt::Tensor c = rt.execute("MatMul", {a, a}, {}, "/GPU:1");
  hxrt::Tensor d = rt.execute("Relu", {c}, {}, "/GPU:1");
  CHECK(d.device() == kGpu1);
  CHECK(sim_counts(1).device_to_host == 0);
  CHECK(d.to_vector<float>() == std::vector<float>{1, 0, 0, 1});
  CHECK(sim_counts(1).device_to_host == 1);
}
