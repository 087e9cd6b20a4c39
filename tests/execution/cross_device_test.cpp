// Copies between devices: on the destination's stream behind the source's event within one
// plugin; through the host between plugins, in one copy where one side is host memory, staged
// through the plugin's page-locked memory otherwise.
#include <catch2/catch.hpp>

#include "execution_rig.hpp"

using namespace execution_test;

TEST_CASE("An op on another device of the plugin waits for its input on the device, not the "
          "host", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(2, "\"matmul_gflops\":" +
                                              std::to_string(gflops_for(kN, 1.0)));
  const hxrt::Tensor a = rt.tensor({kN, kN}, iota(kN), "/GPU:0");
  const hxrt::Tensor eye = rt.tensor({kN, kN}, identity(kN), "/GPU:0");
  const uint64_t copies_before = sim_counts(1).device_to_device;
  const hxrt::Tensor slow = rt.execute("MatMul", {a, eye}, {}, "/GPU:0");
  const hxrt::Tensor relu = rt.execute("Relu", {slow}, {}, "/GPU:1");
  CHECK_FALSE(slow.ready());  // queued on GPU:1 behind GPU:0's event; the host went on
  CHECK(relu.to_vector<float>() == iota(kN));
  CHECK(sim_counts(1).device_to_device == copies_before + 1);
}

TEST_CASE("Ops hopping across four devices under random completion delays keep their order",
          "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(4, "\"random_delay_us\":3000,\"random_seed\":7");
  const std::vector<float> ones(16 * 16, 1.0f);
  hxrt::Tensor x = rt.tensor({16, 16}, iota(16), "/GPU:0");
  for (int i = 1; i <= 16; ++i) {
    const std::string device = "/GPU:" + std::to_string(i % 4);
    x = rt.execute("Add", {x, rt.tensor({16, 16}, ones, device)}, {}, device);
  }
  CHECK(x.to_vector<float>() == iota(16, 16.0f));
}

TEST_CASE("Between a sim device and the CPU a tensor is copied once, straight into or out of "
          "the CPU's memory", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"d2h_latency_us\":20000,\"h2d_latency_us\":20000");
  const hxrt::Tensor on_gpu = rt.tensor({8, 8}, iota(8, -32.0f), "/GPU:0");
  const hx_sim_transfer_counts_t before = sim_counts(0);
  const hxrt::Tensor relu_on_cpu = rt.execute("Relu", {on_gpu}, {}, "/CPU:0");
  CHECK(sim_counts(0).device_to_host == before.device_to_host + 1);
  std::vector<float> expected = iota(8, -32.0f);
  for (float& value : expected) value = value < 0 ? 0 : value;
  CHECK(relu_on_cpu.to_vector<float>() == expected);

  const hxrt::Tensor on_cpu = rt.tensor({8, 8}, iota(8, -32.0f), "/CPU:0");
  const hx_sim_transfer_counts_t middle = sim_counts(0);
  const hxrt::Tensor relu_on_gpu = rt.execute("Relu", {on_cpu}, {}, "/GPU:0");
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == middle.host_to_device + 1);
  CHECK(after.pinned_allocations == middle.pinned_allocations);  // read from the CPU's memory
  CHECK(relu_on_gpu.to_vector<float>() == expected);
}

TEST_CASE("Uploads are staged in the plugin's page-locked memory, which is reused",
          "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hx_sim_transfer_counts_t before = sim_counts(0);
  for (int i = 0; i < 5; ++i) {
    const hxrt::Tensor t = rt.tensor({32, 32}, iota(32, static_cast<float>(i)), "/GPU:0");
    CHECK(t.to_vector<float>() == iota(32, static_cast<float>(i)));
  }
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == before.host_to_device + 5);
  CHECK(after.pinned_allocations == before.pinned_allocations + 1);
}

TEST_CASE("Without page-locked memory uploads are staged in ordinary memory", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"pinned_memory\":false,\"h2d_latency_us\":20000");
  const hx_sim_transfer_counts_t before = sim_counts(0);
  std::vector<float> values = iota(16);
  const hxrt::Tensor t = rt.tensor({16, 16}, values, "/GPU:0");
  std::fill(values.begin(), values.end(), 0.0f);
  CHECK(t.to_vector<float>() == iota(16));
  CHECK(sim_counts(0).pinned_allocations == before.pinned_allocations);
}

TEST_CASE("Devices that declare HX_WAIT_ON_HOST get no other device's event: the core waits on "
          "the host, and the work still runs in order", "[execution]") {
  // The sim's host_waits refuses wait_event with another device's event, as a Vulkan plugin
  // across contexts cannot honour it: a core that passed one would fail these ops.
  hxrt::Runtime rt = runtime_with_gpus(2, "\"host_waits\":true,\"random_delay_us\":2000,"
                                          "\"random_seed\":3");
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    if (device.type == "GPU") CHECK(device.cross_device_wait == "on host");
  }
  hxrt::Tensor x = rt.tensor({16, 16}, iota(16), "/GPU:0");
  const std::vector<float> ones(16 * 16, 1.0f);
  for (int i = 1; i <= 8; ++i) {
    const std::string device = "/GPU:" + std::to_string(i % 2);
    x = rt.execute("Add", {x, rt.tensor({16, 16}, ones, device)}, {}, device);
  }
  CHECK(x.to_vector<float>() == iota(16, 8.0f));
  // Within one device the stream still orders the work without the host.
  const hxrt::Tensor a = rt.tensor({kN, kN}, iota(kN), "/GPU:0");
  const hxrt::Tensor relu = rt.execute("Relu", {rt.execute("Relu", {a}, {}, "/GPU:0")}, {},
                                       "/GPU:0");
  CHECK(relu.to_vector<float>() == iota(kN));
}

TEST_CASE("Under HX_WAIT_ON_HOST a failure of the work another device waits for surfaces in "
          "the op that reads it", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(2, "\"host_waits\":true,\"fault_ops\":[\"Relu\"]");
  const hxrt::Tensor x = rt.tensor<float>({4}, {-1, 2, -3, 4}, "/GPU:0");
  const hxrt::Tensor relu = rt.execute("Relu", {x}, {}, "/GPU:0");
  const auto error = error_from([&] { rt.execute("Add", {relu, relu}, {}, "/GPU:1").wait(); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("Relu") && Catch::Contains("/device:GPU:0"));
  error_from([&] { rt.synchronize(); });  // the failure is reported there too, and cleared
}
