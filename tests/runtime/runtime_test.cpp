// The embedding API around execute: tensors, errors as values, lifetimes.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using runtime_test::cpu_only_options;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

TEST_CASE("the guide's first MatMul runs on CPU:0 and reads back") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  hxrt::Tensor c = rt.execute("MatMul", {a, b});
  CHECK(c.shape() == hxrt::Shape{2, 2});
  CHECK(c.dtype() == hxrt::DType::kF32);
  CHECK(c.to_vector<float>() == std::vector<float>{22, 28, 49, 64});
  CHECK(c.to_string() == "[[22, 28], [49, 64]]");
}

TEST_CASE("an unknown op names the ops that exist") {
  hxrt::Runtime rt = cpu_runtime();
  auto error = error_from([&] { rt.execute("MatMull", std::vector<hxrt::Tensor>{}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), Contains("unknown op 'MatMull'"));
  CHECK_THAT(error->what(), Contains("MatMul"));
}

TEST_CASE("shape errors reach the caller with both shapes and leave the runtime usable") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto error = error_from([&] { rt.execute("MatMul", {a, a}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("[2, 3]"));
  hxrt::Tensor b = rt.tensor<float>({3, 1}, {1, 1, 1});
  CHECK(rt.execute("MatMul", {a, b}).to_vector<float>() == std::vector<float>{6, 15});
}

TEST_CASE("empty tensor handles and wrong host sizes are errors, not crashes") {
  hxrt::Runtime rt = cpu_runtime();
  auto empty_input = error_from([&] { rt.execute("Relu", {hxrt::Tensor()}); });
  REQUIRE(empty_input);
  CHECK_THAT(empty_input->what(), Contains("input 0 is an empty Tensor"));

  auto empty_read = error_from([&] { hxrt::Tensor().to_vector<float>(); });
  REQUIRE(empty_read);
  CHECK(empty_read->code() == hxrt::StatusCode::kFailedPrecondition);

  float values[3] = {1, 2, 3};
  auto wrong_size =
      error_from([&] { rt.from_host(hxrt::DType::kF32, {2, 2}, values, sizeof values); });
  REQUIRE(wrong_size);
  CHECK_THAT(wrong_size->what(), Contains("needs 16 bytes, got 12"));

  hxrt::Tensor x = rt.tensor<float>({1}, {1});
  auto wrong_type = error_from([&] { x.to_vector<int32_t>(); });
  REQUIRE(wrong_type);
  CHECK_THAT(wrong_type->what(), Contains("float32"));
}

TEST_CASE("zero-element tensors flow through ops") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor empty = rt.tensor<float>({0, 3}, {});
  hxrt::Tensor out = rt.execute("Relu", {empty});
  CHECK(out.shape() == hxrt::Shape{0, 3});
  CHECK(out.to_vector<float>().empty());
  CHECK(out.to_string() == "[]");
}

TEST_CASE("a tensor outlives the runtime that made it") {
  hxrt::Tensor kept;
  {
    hxrt::Runtime rt = cpu_runtime();
    kept = rt.tensor<float>({2}, {3, 4});
  }
  CHECK(kept.to_vector<float>() == std::vector<float>{3, 4});
}

TEST_CASE("to_device to the device a tensor is on returns the same buffer") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor x = rt.tensor<float>({2}, {3, 4});
  CHECK(rt.to_device(x, "/CPU:0").shares_memory_with(x));
  CHECK_FALSE(rt.tensor<float>({2}, {3, 4}).shares_memory_with(x));
  CHECK_FALSE(hxrt::Tensor().shares_memory_with(hxrt::Tensor()));
  auto error = error_from([&] { rt.to_device(x, "/GPU:0"); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("unknown device"));
}

TEST_CASE("devices and kernels describe what the CPU plugin provides") {
  hxrt::Runtime rt = cpu_runtime();
  std::vector<hxrt::DeviceInfo> devices = rt.devices();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0].name == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(devices[0].short_name == "CPU:0");
  CHECK(devices[0].plugin == "cpu");
  CHECK(devices[0].compute_units > 0);
  CHECK(devices[0].memory_total > 0);
  bool matmul = false;
  for (const hxrt::KernelInfo& kernel : rt.kernels()) {
    matmul = matmul || (kernel.op == "MatMul" && kernel.device_type == "CPU");
  }
  CHECK(matmul);
}

TEST_CASE("the plugin folder installed beside the core is searched by default") {
  hxrt::RuntimeOptions options;  // no paths at all: only the folder beside libhxrt.so
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  bool cpu_loaded = false;
  for (const hxrt::PluginReport& report : rt.load_report()) {
    cpu_loaded = cpu_loaded || (report.loaded && report.name == "cpu");
  }
  CHECK(cpu_loaded);
}

TEST_CASE("a runtime with no plugins starts, and says why ops cannot run") {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  std::vector<std::string> warnings;
  options.log_sink = [&](hxrt::LogLevel, std::string_view line) { warnings.emplace_back(line); };
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  CHECK(rt.devices().empty());
  REQUIRE_FALSE(warnings.empty());
  CHECK_THAT(warnings[0], Contains("no plugin was loaded"));
  auto error = error_from([&] { rt.tensor<float>({1}, {1}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kFailedPrecondition);
  CHECK_THAT(error->what(), Contains("no device exists to hold the tensor"));
}

TEST_CASE("several threads run ops on one runtime at once") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4});
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      hxrt::Tensor scale = rt.tensor<float>({}, {static_cast<float>(t)});
      for (int i = 0; i < 200; ++i) {
        hxrt::Tensor c = rt.execute("MatMul", {a, a});
        hxrt::Tensor d = rt.execute("Mul", {c, scale}, {}, i % 2 ? "/CPU:0" : "");
        std::vector<float> expected = {7.0f * t, 10.0f * t, 15.0f * t, 22.0f * t};
        if (d.to_vector<float>() != expected) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == 0);
}
