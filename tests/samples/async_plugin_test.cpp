// samples/async_plugin (libhx_async_sample.so: opaque device memory, streams, events, Add and
// Relu on float32), built from its sources in this tree: hxrt-conformance passes it, and the
// core runs ops on its two ASYNC devices, moving tensors to, from and between them through
// the plugin's copies, streams and events. tests/install builds the same sample against an
// installed package, as its users do.
#include <catch2/catch.hpp>

#include <algorithm>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <hxrt/hxrt.hpp>

#include "conformance_run.hpp"
#include "error_from.hpp"

namespace {

const std::string kAsync0 = "/job:localhost/replica:0/task:0/device:ASYNC:0";
const std::string kAsync1 = "/job:localhost/replica:0/task:0/device:ASYNC:1";

// The log lines a runtime wrote, gathered from its sink (which any thread may call).
struct LogLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  bool has(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex);
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  }
};

// A runtime with the CPU plugin and the async sample, which it prefers: tensors are made on
// ASYNC:0 and ops with an ASYNC kernel run there.
hxrt::Runtime async_runtime(LogLines& log) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {hxrt_test::built_plugin("cpu"), HXRT_TEST_ASYNC_SAMPLE};
  options.device_priority = std::vector<std::string>{"ASYNC", "CPU"};
  options.log_device_placement = true;
  options.log_sink = [&log](hxrt::LogLevel, std::string_view line) {
    std::lock_guard<std::mutex> lock(log.mutex);
    log.lines.emplace_back(line);
  };
  return hxrt::Runtime::create(options);
}

}  // namespace

TEST_CASE("hxrt-conformance passes the async sample plugin, streams, events, timing and the "
          "wait across its two devices included") {
  const hxrt_test::ConformanceRun run = hxrt_test::run_conformance(HXRT_TEST_ASYNC_SAMPLE);
  INFO(run.output);
  INFO("failed checks:\n" << run.failures());
  CHECK(run.exit_code == 0);
  CHECK(run.failed == 0);
  CHECK(run.passed > 0);
  // What makes it the asynchronous sample: none of these is skipped.
  const std::vector<std::string> streams_passed = run.names("streams", "pass");
  const auto passed = [&](const std::string& part) {
    return std::any_of(
        streams_passed.begin(), streams_passed.end(),
        [&](const std::string& name) { return name.find(part) != std::string::npos; });
  };
  CHECK(passed("stream_wait_event makes a second stream wait for the first"));
  CHECK(passed("stream_wait_event on another device's event"));
  CHECK(passed("events.elapsed_ns times the work between two events of a stream"));
  CHECK(passed("memset and copy_device_to_device keep their place in stream order"));
}

TEST_CASE("the core runs Add with broadcasting and Relu on the async sample's devices, and "
          "moves tensors between its devices through the plugin") {
  LogLines log;
  hxrt::Runtime rt = async_runtime(log);
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  CHECK(std::count_if(devices.begin(), devices.end(), [](const hxrt::DeviceInfo& device) {
          return device.plugin == "async_sample";
        }) == 2);

  // Made on ASYNC:0 (copy_host_to_device on a stream), read back through copy_device_to_host.
  const hxrt::Tensor x = rt.tensor<float>({2, 3}, {-3, -2, -1, 0, 1, 2});
  const hxrt::Tensor y = rt.tensor<float>({3}, {10, 20, 30});
  CHECK(x.device() == kAsync0);

  // [2, 3] + [3]: y reaches the kernel with strides [0, 1].
  const hxrt::Tensor z = rt.execute("Add", {x, y});
  CHECK(z.device() == kAsync0);
  CHECK(z.to_vector<float>() == std::vector<float>{7, 18, 29, 10, 21, 32});
  CHECK(log.has("Executing op Add in device " + kAsync0));

  // [2, 1] + [1, 3], both inputs broadcast.
  const hxrt::Tensor column = rt.tensor<float>({2, 1}, {1, 2});
  const hxrt::Tensor row = rt.tensor<float>({1, 3}, {10, 20, 30});
  CHECK(rt.execute("Add", {column, row}).to_vector<float>() ==
        std::vector<float>{11, 21, 31, 12, 22, 32});

  const hxrt::Tensor r = rt.execute("Relu", {x});
  CHECK(r.to_vector<float>() == std::vector<float>{0, 0, 0, 0, 1, 2});
  CHECK(log.has("Executing op Relu in device " + kAsync0));

  // On ASYNC:1: x comes over with copy_device_to_device on ASYNC:1's stream, held back by
  // wait_event until ASYNC:0's event says x is there.
  const hxrt::Tensor on_one = rt.execute("Relu", {x}, hxrt::kNoAttrs, "/ASYNC:1");
  CHECK(on_one.device() == kAsync1);
  CHECK(on_one.to_vector<float>() == std::vector<float>{0, 0, 0, 0, 1, 2});
  CHECK(log.has("Executing op Relu in device " + kAsync1));

  // A chain of queued work, each op reading the one before, alternating devices, read once
  // at the end: only the streams' order and the events keep it right.
  hxrt::Tensor sum = rt.tensor<float>({4}, {0, 1, 2, 3});
  const hxrt::Tensor one = rt.tensor<float>({4}, {1, 1, 1, 1});
  for (int i = 0; i < 50; ++i) {
    sum = rt.execute("Add", {sum, one}, hxrt::kNoAttrs, i % 2 == 0 ? "/ASYNC:0" : "/ASYNC:1");
  }
  CHECK(sum.to_vector<float>() == std::vector<float>{50, 51, 52, 53});

  // MatMul has no ASYNC kernel: it runs on the CPU, its inputs copied off ASYNC:0.
  const hxrt::Tensor a = rt.tensor<float>({1, 2}, {1, 2});
  const hxrt::Tensor b = rt.tensor<float>({2, 1}, {3, 4});
  CHECK(rt.execute("MatMul", {a, b}).to_vector<float>() == std::vector<float>{11});
}

TEST_CASE("the async sample reads its option memory_mb through the core's option getters, and "
          "an unknown option fails start-up naming its path and the closest known option") {
  LogLines log;
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {HXRT_TEST_ASYNC_SAMPLE};
  options.plugin_options["async_sample"] = R"({"memory_mb": 64})";
  const hxrt::Runtime rt = hxrt::Runtime::create(options);
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    CHECK(device.memory_total == uint64_t{64} << 20);
  }

  options.plugin_options["async_sample"] = R"({"memory_md": 64})";
  auto error = hxrt_test::error_from([&] { hxrt::Runtime::create(options).devices(); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("/plugins/options/async_sample/memory_md") &&
                                Catch::Contains("unknown option 'memory_md'; did you mean "
                                                "'memory_mb'?"));
  options.plugin_options["async_sample"] = R"({"memory_mb": 0})";
  error = hxrt_test::error_from([&] { hxrt::Runtime::create(options).devices(); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("'memory_mb' must be from 1 to 65536, got 0"));
  options.plugin_options["async_sample"] = R"({"memory_mb": "64"})";
  error = hxrt_test::error_from([&] { hxrt::Runtime::create(options).devices(); });
  REQUIRE(error);
  CHECK_THAT(error->what(),
             Catch::Contains("'memory_mb' must be an integer, got string \"64\""));
}

TEST_CASE("hxrt-conformance passes the async sample with an option, read by the kit's getters "
          "(under an older core, without it), and reports one it refuses") {
  const hxrt_test::ConformanceRun run =
      hxrt_test::run_conformance(HXRT_TEST_ASYNC_SAMPLE, "--options '{\"memory_mb\": 32}'");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.failed == 0);
  // A core older than 2.5 has no option getters: the sample refuses options there, saying
  // so, and runs on its defaults without them.
  CHECK_THAT(run.check("initialises under an older core (ABI 2.0)").detail,
             Catch::Contains("without options; with them it refused: ") &&
                 Catch::Contains("use a core of ABI 2.5 or later, or give no options"));
  const hxrt_test::ConformanceRun refused =
      hxrt_test::run_conformance(HXRT_TEST_ASYNC_SAMPLE, "--options '{\"memory_md\": 32}'");
  INFO(refused.output);
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.output, Catch::Contains("unknown option 'memory_md'; did you mean "
                                             "'memory_mb'?"));
}
