// The OpenCL plugin under the core: its device as hxrt::Runtime lists it, ops run on
// /device:OPENCL:0 agreeing with the CPU plugin, and what it has no kernel for falling back to
// the CPU, visibly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <hxrt/hxrt.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "opencl_harness.hpp"

namespace opencl_test {
namespace {

constexpr char kOpenCl0[] = "/job:localhost/replica:0/task:0/device:OPENCL:0";
constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";

// Log lines at every level, kept for the test to read.
struct Log {
  std::mutex mutex;
  std::vector<std::string> lines;
  // Whether one line holds every text.
  bool contains(const std::vector<std::string>& texts) {
    const std::lock_guard<std::mutex> lock(mutex);
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
      return std::all_of(texts.begin(), texts.end(), [&](const std::string& text) {
        return line.find(text) != std::string::npos;
      });
    });
  }
};

hxrt::Runtime make_runtime(Log* log = nullptr,
                           std::optional<std::vector<std::string>> priority = {}) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_opencl.so"};
  options.device_priority = std::move(priority);
  if (log != nullptr) {
    options.log_device_placement = true;
    options.log_level = hxrt::LogLevel::kDebug;
    options.log_sink = [log](hxrt::LogLevel, std::string_view message) {
      const std::lock_guard<std::mutex> lock(log->mutex);
      log->lines.emplace_back(message);
    };
  }
  return hxrt::Runtime::create(options);
}

TEST_CASE("The runtime lists the OpenCL device as it describes itself", "[opencl][runtime]") {
  hxrt::Runtime rt = make_runtime();
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  const auto opencl = std::find_if(devices.begin(), devices.end(),
                                   [](const hxrt::DeviceInfo& d) { return d.name == kOpenCl0; });
  REQUIRE(opencl != devices.end());
  CHECK(opencl->plugin == "opencl");
  CHECK(opencl->type == "OPENCL");
  CHECK(opencl->memory_kind == "host-visible");  // PoCL's device runs on the host's cores
  CHECK(opencl->placement_class == "host accelerator");
  CHECK_FALSE(opencl->memory_free.has_value());  // OpenCL 1.2 cannot tell
  CHECK(opencl->memory_total > 0);
}

TEST_CASE("Ops on the OpenCL device agree with the CPU", "[opencl][runtime]") {
  hxrt::Runtime rt = make_runtime();
  const hxrt::Tensor a = rt.tensor<float>({2, 3}, {1.5f, -2.0f, 3.25f, 0.0f, -7.5f, 4.0f});
  const hxrt::Tensor b = rt.tensor<float>({3}, {0.5f, 2.0f, -1.0f});
  const hxrt::Tensor m = rt.tensor<float>({3, 2}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f});
  struct Call {
    const char* op;
    std::vector<hxrt::Tensor> inputs;
    hxrt::Attrs attrs;
  };
  const std::vector<Call> calls = {
      {"MatMul", {a, m}, {}},
      {"MatMul", {m, a}, {{"transpose_a", true}, {"transpose_b", true}}},
      {"Add", {a, b}, {}},  // [2,3] + [3]: broadcast
      {"Sub", {b, a}, {}},
      {"Mul", {a, a}, {}},
      {"Div", {a, b}, {}},
      {"Relu", {a}, {}},
      {"AddN", {a, a, a}, {}},
      {"Sum", {a}, {{"axes", std::vector<int64_t>{0}}}},
      {"Sum", {a}, {{"axes", std::vector<int64_t>{-1}}, {"keep_dims", true}}},
      {"Sum", {a}, {}},
      {"Fill", {}, {{"shape", std::vector<int64_t>{2, 2}}, {"value", 2.5}}},
      {"Identity", {a}, {}}};
  for (const Call& call : calls) {
    INFO(call.op);
    const hxrt::Tensor on_opencl = rt.execute(call.op, call.inputs, call.attrs, "/OPENCL:0");
    const hxrt::Tensor on_cpu = rt.execute(call.op, call.inputs, call.attrs, "/CPU:0");
    CHECK(on_opencl.device() == kOpenCl0);
    CHECK(on_cpu.device() == kCpu0);
    REQUIRE(on_opencl.shape() == on_cpu.shape());
    check_close(on_opencl.to_vector<float>(), on_cpu.to_vector<float>());
  }
  const hxrt::Tensor cast = rt.execute("Cast", {a}, {{"dtype", hxrt::DType::kI32}}, "/OPENCL:0");
  CHECK(cast.device() == kOpenCl0);
  CHECK(cast.to_vector<int32_t>() == std::vector<int32_t>{1, -2, 3, 0, -7, 4});
}

TEST_CASE("A dtype the OpenCL plugin has no kernel for falls back to the CPU, logged",
          "[opencl][runtime]") {
  Log log;
  hxrt::Runtime rt = make_runtime(&log);
  const hxrt::Tensor x = rt.tensor<int32_t>({3}, {1, -2, 3});
  const hxrt::Tensor y = rt.execute("Add", {x, x}, {}, "/OPENCL:0");
  CHECK(y.device() == kCpu0);
  CHECK(y.to_vector<int32_t>() == std::vector<int32_t>{2, -4, 6});
  INFO([&] {
    std::string text;
    for (const std::string& line : log.lines) text += line + "\n";
    return text;
  }());
  CHECK(log.contains({"Executing op Add in device " + std::string(kCpu0)}));
  // The reason names what was asked and the dtype no OpenCL kernel takes.
  CHECK(log.contains({std::string("requested ") + kOpenCl0, "int32", "fell back"}));
}

TEST_CASE("placement.device_priority puts the OpenCL host accelerator first",
          "[opencl][runtime]") {
  hxrt::Runtime rt = make_runtime(nullptr, std::vector<std::string>{"OPENCL"});
  const hxrt::Tensor x = rt.tensor<float>({2}, {1.0f, -1.0f}, "/CPU:0");
  const hxrt::Tensor y = rt.execute("Relu", {x});
  CHECK(y.device() == kOpenCl0);
  CHECK(y.to_vector<float>() == std::vector<float>{1.0f, 0.0f});
}

}  // namespace
}  // namespace opencl_test
