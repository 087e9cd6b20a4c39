// The core's side of device timing (Device::has_timing, Device::elapsed_ns over the plugin's
// events.elapsed_ns): a sim device times a modelled MatMul between two of its events by the
// model, not by the host's clock; a synchronous device, and an asynchronous one whose plugin
// offers no timing, have none; an event of another device, a plugin's refusal and a failure
// of the timed work each reach the caller as an Error naming what was asked.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "devices_runtime.hpp"
#include "tensors/tensor_impl.hpp"

namespace {

using namespace devices_test;
using hxrt::detail::Device;
using hxrt::detail::ReadyEvent;

constexpr double kMs = 1e6;  // nanoseconds

// Sim GPUs on which an 8x8 MatMul (2 * 8^3 flops) takes `matmul_seconds`; `more`: further
// options (JSON members). The figure is written in full: std::to_string keeps six decimals.
std::string sim_gpus(int count, double matmul_seconds, const std::string& more = "") {
  std::ostringstream options;
  options << std::setprecision(17) << R"({"device_type":"GPU","device_count":)" << count
          << R"(,"matmul_gflops":)" << 1024.0 / matmul_seconds / 1e9 << more << "}";
  return options.str();
}

std::shared_ptr<Device> device_of(const hxrt::Tensor& tensor) { return tensor.impl()->device; }

hxrt::Tensor ones_8x8(hxrt::Runtime& rt, const std::string& device) {
  hxrt::Tensor tensor = rt.tensor({8, 8}, std::vector<float>(64, 1.0f), device);
  tensor.wait();
  return tensor;
}

}  // namespace

TEST_CASE("a sim device times the work between two of its events by the model, not the host",
          "[devices][timing]") {
  hxrt::Runtime rt = make_runtime(sim_gpus(1, 0.020));
  const hxrt::Tensor a = ones_8x8(rt, "/GPU:0");
  const std::shared_ptr<Device> gpu = device_of(a);
  REQUIRE(gpu->has_timing());
  const std::shared_ptr<ReadyEvent> start = gpu->record("nothing yet");
  REQUIRE(start != nullptr);
  // Host time before the MatMul is queued is not the device's: its stream sits idle.
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const hxrt::Tensor product = rt.execute("MatMul", {a, a}, {}, "/GPU:0");
  const std::optional<uint64_t> ns = gpu->elapsed_ns(*start, *product.impl()->ready);
  REQUIRE(ns.has_value());
  CHECK(static_cast<double>(*ns) == Approx(20 * kMs).margin(0.01 * kMs));
  CHECK(product.ready());  // elapsed_ns waited for the end event
  CHECK(gpu->elapsed_ns(*start, *start) == std::optional<uint64_t>(0));
}

TEST_CASE("a synchronous device and a plugin without device timing have none",
          "[devices][timing]") {
  {
    hxrt::Runtime rt = make_runtime(sim_gpus(1, 0.001));
    const hxrt::Tensor on_cpu = rt.tensor<float>({2}, {1, 2}, "/CPU:0");
    CHECK_FALSE(device_of(on_cpu)->asynchronous());
    CHECK_FALSE(device_of(on_cpu)->has_timing());
  }
  // QUEUED has streams and events, but its events group leaves elapsed_ns out.
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {kQueuedWork};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const hxrt::Tensor x = rt.tensor<float>({3}, {-1, 0, 2}, "QUEUED:0");
  const std::shared_ptr<Device> queued = device_of(x);
  REQUIRE(queued->asynchronous());
  CHECK_FALSE(queued->has_timing());
  const std::shared_ptr<ReadyEvent> start = queued->record("the upload");
  const hxrt::Tensor y = rt.execute("Relu", {x}, {}, "QUEUED:0");
  CHECK_FALSE(queued->elapsed_ns(*start, *y.impl()->ready).has_value());
  CHECK(y.to_vector<float>() == std::vector<float>{0, 0, 2});
}

TEST_CASE("timing between events of two devices is refused, naming both",
          "[devices][timing]") {
  hxrt::Runtime rt = make_runtime(sim_gpus(2, 0.001));
  const hxrt::Tensor a0 = ones_8x8(rt, "/GPU:0");
  const hxrt::Tensor a1 = ones_8x8(rt, "/GPU:1");
  const std::shared_ptr<ReadyEvent> start = device_of(a0)->record("the upload");
  const hxrt::Tensor p1 = rt.execute("MatMul", {a1, a1}, {}, "/GPU:1");
  const auto error = error_from([&] { device_of(a0)->elapsed_ns(*start, *p1.impl()->ready); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             Catch::Contains("timing work on /job:localhost/replica:0/task:0/device:GPU:0: the "
                             "event after MatMul was recorded on "
                             "/job:localhost/replica:0/task:0/device:GPU:1"));
}

TEST_CASE("the plugin's refusal and the timed work's failure reach the caller as Errors",
          "[devices][timing]") {
  hxrt::Runtime rt = make_runtime(sim_gpus(1, 0.001, R"(,"fault_ops":["Relu"])"));
  const hxrt::Tensor a = ones_8x8(rt, "/GPU:0");
  const std::shared_ptr<Device> gpu = device_of(a);
  const std::shared_ptr<ReadyEvent> before = gpu->record("the upload");
  const hxrt::Tensor product = rt.execute("MatMul", {a, a}, {}, "/GPU:0");

  // Swapped: the plugin refuses a start recorded after the end.
  const auto swapped = error_from([&] { gpu->elapsed_ns(*product.impl()->ready, *before); });
  REQUIRE(swapped);
  CHECK(swapped->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(swapped->what(),
             Catch::Contains("plugin 'sim' events.elapsed_ns on "
                             "/job:localhost/replica:0/task:0/device:GPU:0 from the event after "
                             "MatMul to the event after the upload: ") &&
                 Catch::Contains("was recorded after the end event"));

  // A Relu that faults as it runs: its failure, not a time.
  const hxrt::Tensor faulted = rt.execute("Relu", {product}, {}, "/GPU:0");
  const auto failed = error_from([&] { gpu->elapsed_ns(*before, *faulted.impl()->ready); });
  REQUIRE(failed);
  CHECK_THAT(failed->what(), Catch::Contains("Relu on /job:localhost/replica:0/task:0/device:"
                                             "GPU:0 (plugin 'sim') failed after it was queued"));
}
