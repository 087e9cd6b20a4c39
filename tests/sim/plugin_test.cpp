// The sim plugin's identity, options, devices and kernel registrations, as the runtime
// reports them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "error_from.hpp"
#include "sim_test_support.hpp"
#include "abi_text.hpp"

namespace {

std::vector<hxrt::DeviceInfo> devices_of_type(const hxrt::Runtime& rt, const std::string& type) {
  std::vector<hxrt::DeviceInfo> found;
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    if (device.type == type) found.push_back(device);
  }
  return found;
}

}  // namespace

TEST_CASE("The sim plugin configured as four GPUs provides GPU:0 to GPU:3", "[sim][plugin]") {
  hxrt::Runtime& rt = sim_test::four_gpus();
  const hxrt::PluginReport& report = sim_test::sim_report(rt);
  CHECK(report.loaded);
  CHECK(report.name == "sim");
  CHECK(report.version == "0.1.0");
  CHECK(report.abi_version == abi_text());
  CHECK(report.device_type == "GPU");
  CHECK(report.device_count == 4);
  CHECK(report.note.empty());

  const std::vector<hxrt::DeviceInfo> gpus = devices_of_type(rt, "GPU");
  REQUIRE(gpus.size() == 4);
  for (int id = 0; id < 4; ++id) {
    const hxrt::DeviceInfo& gpu = gpus[static_cast<size_t>(id)];
    INFO("GPU " << id);
    CHECK(gpu.name == "/job:localhost/replica:0/task:0/device:GPU:" + std::to_string(id));
    CHECK(gpu.short_name == "GPU:" + std::to_string(id));
    CHECK(gpu.id == id);
    CHECK(gpu.plugin == "sim");
    CHECK(gpu.product == "hxrt simulated accelerator");
    CHECK(gpu.vendor == "hxrt");
    CHECK(gpu.arch == "sim");
    CHECK(gpu.bus_id == "sim:" + std::to_string(id));
    CHECK(gpu.memory_total == uint64_t{1024} << 20);
    CHECK(gpu.memory_free <= gpu.memory_total);
    CHECK(gpu.numa_node == -1);
    CHECK(gpu.compute_units == 1);
  }
  CHECK(devices_of_type(rt, "CPU").size() == 1);
}

TEST_CASE("The sim plugin's device type defaults to SIM and memory_mb sets each budget",
          "[sim][plugin]") {
  const hxrt::Runtime rt = sim_test::make_runtime(R"({"device_count": 2, "memory_mb": 64})");
  CHECK(sim_test::sim_report(rt).device_type == "SIM");
  const std::vector<hxrt::DeviceInfo> sims = devices_of_type(rt, "SIM");
  REQUIRE(sims.size() == 2);
  CHECK(sims[1].name == "/job:localhost/replica:0/task:0/device:SIM:1");
  for (const hxrt::DeviceInfo& sim : sims) {
    CHECK(sim.memory_total == uint64_t{64} << 20);
    CHECK(sim.memory_free == sim.memory_total);  // nothing allocated yet
  }
}

TEST_CASE("Without options the sim plugin loads with no devices and says why", "[sim][plugin]") {
  const std::string options = GENERATE(std::string(), std::string("{}"));
  const hxrt::Runtime rt = sim_test::make_runtime(options);
  const hxrt::PluginReport& report = sim_test::sim_report(rt);
  CHECK(report.loaded);
  CHECK(report.device_count == 0);
  CHECK(report.note == "no simulated devices configured: set plugins.options.sim.device_count");
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0].type == "CPU");
}

TEST_CASE("The sim plugin refuses bad options, naming the option", "[sim][plugin]") {
  struct Case {
    const char* options;
    const char* path;   // the JSON path the error begins with
    const char* named;  // what the plugin's reason must mention
  };
  const Case bad = GENERATE(
      Case{R"({"device_type": "GPU", "device_cnt": 4})", "/plugins/options/sim/device_cnt",
           "unknown option 'device_cnt'"},
      Case{R"({"device_count": "4"})", "/plugins/options/sim/device_count", "'device_count'"},
      Case{R"({"device_count": -1})", "/plugins/options/sim/device_count", "'device_count'"},
      Case{R"({"device_count": 2.5})", "/plugins/options/sim/device_count", "'device_count'"},
      Case{R"({"device_count": 1025})", "/plugins/options/sim/device_count", "'device_count'"},
      Case{R"({"device_type": "gpu"})", "/plugins/options/sim/device_type", "'device_type'"},
      Case{R"({"device_type": 7})", "/plugins/options/sim/device_type", "'device_type'"},
      Case{R"({"device_type": ""})", "/plugins/options/sim/device_type", "'device_type'"},
      Case{R"({"memory_mb": 0})", "/plugins/options/sim/memory_mb", "'memory_mb'"},
      Case{R"({"memory_mb": "8G"})", "/plugins/options/sim/memory_mb", "'memory_mb'"},
      Case{R"({"ops": "MatMul"})", "/plugins/options/sim/ops", "'ops'"},
      Case{R"({"ops": ["MatMul", 3]})", "/plugins/options/sim/ops", "'ops'"},
      Case{R"({"ops": ["MatMul", "MatMul"]})", "/plugins/options/sim/ops",
           "'MatMul' is listed twice"},
      Case{R"({"device_count": 1, "ops": ["MatMul", "Sub"]})", "/plugins/options/sim/ops",
           "'ops': the sim plugin has no kernel for op 'Sub'; it implements MatMul, Gemm, Add, "
           "Mul, Relu, AddN, AllReduce, AllGather, Broadcast, Identity, Fill"},
      Case{R"({"op_models": ["Gemm"]})", "/plugins/options/sim/op_models", "'op_models'"},
      Case{R"({"op_models": {"Conv": {"gflops": 1}}})", "/plugins/options/sim/op_models",
           "'op_models.Conv': the sim has no kernel for 'Conv'; it has MatMul, Gemm"},
      Case{R"({"op_models": {"Gemm": {"gflop": 1}}})", "/plugins/options/sim/op_models",
           "'op_models.Gemm.gflop': unknown figure"},
      Case{R"({"op_models": {"Gemm": {"gflops": -1}}})", "/plugins/options/sim/op_models",
           "'op_models.Gemm.gflops': expected a number from 0 (none)"},
      Case{R"({"devices": [{"op_models": {"Relu": 4}}]})", "/plugins/options/sim/devices",
           "'devices[0].op_models.Relu': expected an object"});
  INFO("options: " << bad.options);
  const auto error = hxrt_test::error_from([&] { sim_test::make_runtime(bad.options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("API: " + std::string(bad.path) + ": plugin ") &&
                                Catch::Contains("refused its options: INVALID_ARGUMENT: ") &&
                                Catch::Contains(bad.named));
}

TEST_CASE("The sim plugin registers float32 kernels for the default ops", "[sim][plugin]") {
  std::set<std::string> ops;
  for (const hxrt::KernelInfo& kernel : sim_test::four_gpus().kernels()) {
    if (kernel.plugin != "sim") continue;
    INFO(kernel.op);
    CHECK(kernel.device_type == "GPU");
    CHECK(kernel.dtypes == std::vector<hxrt::DType>{hxrt::DType::kF32});
    CHECK(kernel.priority == 0);
    CHECK(ops.insert(kernel.op).second);
  }
  CHECK(ops == std::set<std::string>{"MatMul", "Gemm", "Add", "Mul", "Relu", "AddN", "AllReduce",
                                     "AllGather", "Broadcast", "Identity", "Fill"});
}

TEST_CASE("The sim plugin registers only the ops its options list", "[sim][plugin]") {
  const hxrt::Runtime rt = sim_test::make_runtime(
      R"({"device_type": "GPU", "device_count": 1, "ops": ["Relu", "MatMul"]})");
  REQUIRE(sim_test::sim_report(rt).loaded);
  std::set<std::string> ops;
  for (const hxrt::KernelInfo& kernel : rt.kernels()) {
    if (kernel.plugin == "sim") ops.insert(kernel.op);
  }
  CHECK(ops == std::set<std::string>{"MatMul", "Relu"});
}

TEST_CASE("The sim plugin's placement_class reaches the placer", "[sim][plugin]") {
  // A discrete accelerator outranks the CPU; a device of the CPU class ties with it and types of
  // one class go by name, so "CPU" comes before "GPU".
  const char* const placement_class = GENERATE("discrete_accelerator", "cpu");
  INFO(placement_class);
  hxrt::Runtime rt = sim_test::make_runtime(std::string(R"({"device_type":"GPU","device_count":1,)") +
                                            R"("placement_class":")" + placement_class + "\"}");
  const hxrt::Tensor x = rt.tensor<float>({2}, {1, 2}, "/CPU:0");
  const hxrt::Tensor sum = rt.execute("Add", {x, x});
  CHECK(sum.device() == (std::string(placement_class) == "cpu"
                             ? "/job:localhost/replica:0/task:0/device:CPU:0"
                             : "/job:localhost/replica:0/task:0/device:GPU:0"));
  CHECK(sum.to_vector<float>() == std::vector<float>{2, 4});
}
