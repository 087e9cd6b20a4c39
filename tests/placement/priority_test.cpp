// Priority placement: device types in order, the lowest id of the chosen type.
#include <catch2/catch.hpp>

#include "sim_runtime.hpp"

using namespace placement_test;
using Catch::Matchers::Contains;

TEST_CASE("by default GPU comes first, then other accelerators, then CPU") {
  hxrt::Runtime rt = four_gpus();
  CHECK(rt.device_priority() == std::vector<std::string>{"GPU", "CPU"});
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/CPU:0");
  CHECK(rt.execute("MatMul", {a, a}).device() == kGpu0);

  hxrt::Runtime sim = hxrt::Runtime::create(sim_options(R"({"device_count": 2})"));
  CHECK(sim.device_priority() == std::vector<std::string>{"SIM", "CPU"});
  hxrt::Tensor b = sim.tensor<float>({1}, {-1});
  CHECK(sim.execute("Relu", {b}).device() == "/job:localhost/replica:0/task:0/device:SIM:0");
}

TEST_CASE("by default discrete accelerators come first, then the CPU, then host accelerators") {
  // A GPU that runs on the host's own cores would compete with the CPU for them: it loses to
  // the CPU by default whatever its name, while a discrete one wins.
  hxrt::Runtime host = hxrt::Runtime::create(sim_options(
      R"({"device_type": "GPU", "device_count": 1, "placement_class": "host_accelerator"})"));
  CHECK(host.device_priority() == std::vector<std::string>{"CPU", "GPU"});
  hxrt::Tensor a = host.tensor<float>({1}, {-1}, "/CPU:0");
  CHECK(host.execute("Relu", {a}).device() == kCpu0);

  hxrt::Runtime discrete = hxrt::Runtime::create(sim_options(
      R"({"device_type": "GPU", "device_count": 1, "placement_class": "discrete_accelerator"})"));
  CHECK(discrete.device_priority() == std::vector<std::string>{"GPU", "CPU"});
  hxrt::Tensor b = discrete.tensor<float>({1}, {-1}, "/CPU:0");
  CHECK(discrete.execute("Relu", {b}).device() == kGpu0);

  // A host accelerator named before CPU in the alphabet still follows it.
  hxrt::Runtime aaa = hxrt::Runtime::create(sim_options(
      R"({"device_type": "AAA", "device_count": 1, "placement_class": "host_accelerator"})"));
  CHECK(aaa.device_priority() == std::vector<std::string>{"CPU", "AAA"});
}

TEST_CASE("placement.device_priority overrides the placement classes either way") {
  hxrt::RuntimeOptions host = sim_options(
      R"({"device_type": "GPU", "device_count": 1, "placement_class": "host_accelerator"})");
  host.device_priority = std::vector<std::string>{"GPU"};
  hxrt::Runtime preferred = hxrt::Runtime::create(host);
  CHECK(preferred.device_priority() == std::vector<std::string>{"GPU", "CPU"});
  hxrt::Tensor a = preferred.tensor<float>({1}, {-1}, "/CPU:0");
  CHECK(preferred.execute("Relu", {a}).device() == kGpu0);

  hxrt::RuntimeOptions discrete = sim_options(
      R"({"device_type": "GPU", "device_count": 1, "placement_class": "discrete_accelerator"})");
  discrete.device_priority = std::vector<std::string>{"CPU"};
  hxrt::Runtime demoted = hxrt::Runtime::create(discrete);
  CHECK(demoted.device_priority() == std::vector<std::string>{"CPU", "GPU"});
  hxrt::Tensor b = demoted.tensor<float>({1}, {-1}, "/CPU:0");
  CHECK(demoted.execute("Relu", {b}).device() == kCpu0);
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
