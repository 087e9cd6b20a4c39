// The eager path decides a kind of call once and keeps the plan (eager/call_plan.hpp). Each
// test makes a call, then one that differs in one thing the plan is keyed by, and checks
// that the second was decided for itself: its shape, dtype, values and device are its own.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "sim_runtime.hpp"

using namespace placement_test;

namespace {

hxrt::Tensor matrix(hxrt::Runtime& rt, const std::string& device = "/CPU:0") {
  return rt.tensor<float>({2, 2}, {1, 2, 3, 4}, device);
}

}  // namespace

TEST_CASE("calls that differ in shape, dtype or attributes get plans of their own") {
  hxrt::Runtime rt = four_gpus();
  const hxrt::Tensor a = matrix(rt);
  CHECK(rt.execute("MatMul", {a, a}, {}, "/CPU:0").to_vector<float>() ==
        std::vector<float>{7, 10, 15, 22});
  SECTION("shape") {
    const hxrt::Tensor wide = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
    const hxrt::Tensor tall = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
    const hxrt::Tensor c = rt.execute("MatMul", {wide, tall}, {}, "/CPU:0");
    CHECK(c.shape() == hxrt::Shape({2, 2}));
    CHECK(c.to_vector<float>() == std::vector<float>{22, 28, 49, 64});
    CHECK(rt.execute("MatMul", {tall, wide}, {}, "/CPU:0").shape() == hxrt::Shape({3, 3}));
  }
  SECTION("dtype") {
    const hxrt::Tensor d = rt.tensor<double>({2, 2}, {1, 2, 3, 4}, "/CPU:0");
    const hxrt::Tensor c = rt.execute("MatMul", {d, d}, {}, "/CPU:0");
    CHECK(c.dtype() == hxrt::DType::kF64);
    CHECK(c.to_vector<double>() == std::vector<double>{7, 10, 15, 22});
  }
  SECTION("attributes, and back") {
    CHECK(rt.execute("MatMul", {a, a}, {{"transpose_b", true}}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{5, 11, 11, 25});
    CHECK(rt.execute("MatMul", {a, a}, {{"transpose_b", false}}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{7, 10, 15, 22});
    CHECK(rt.execute("MatMul", {a, a}, {{"transpose_a", true}}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{10, 14, 14, 20});
  }
}

TEST_CASE("calls that differ in where they were asked to run get plans of their own") {
  hxrt::Runtime rt = four_gpus();
  const hxrt::Tensor a = matrix(rt);
  CHECK(rt.execute("Relu", {a}).device() == kGpu0);  // nothing asked: the GPUs come first
  SECTION("the call's device") {
    CHECK(rt.execute("Relu", {a}, {}, "/CPU:0").device() == kCpu0);
    CHECK(rt.execute("Relu", {a}, {}, "/GPU:1").device() == kGpu1);
  }
  SECTION("a scope") {
    {
      auto scope = rt.device("/GPU:2");
      CHECK(rt.execute("Relu", {a}).device() == kGpu2);
    }
    CHECK(rt.execute("Relu", {a}).device() == kGpu0);
  }
  SECTION("the placement function") {
    rt.set_placement_function([](const hxrt::OpPlacementInfo&) { return std::string("/GPU:3"); });
    CHECK(rt.execute("Relu", {a}).device() == kGpu3);
    rt.set_placement_function(nullptr);
    CHECK(rt.execute("Relu", {a}).device() == kGpu0);
  }
  SECTION("the soft-placement mode") {
    rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
    CHECK(rt.execute("Relu", {a}, {}, "/GPU:7").device() == kGpu0);
    rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
    auto error = error_from([&] { rt.execute("Relu", {a}, {}, "/GPU:7"); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("unknown device"));
  }
  SECTION("the inputs' devices") {
    const hxrt::Tensor on_gpu = matrix(rt, "/GPU:1");
    const hxrt::Tensor c = rt.execute("Add", {a, on_gpu}, {}, "/CPU:0");
    CHECK(c.device() == kCpu0);
    CHECK(c.to_vector<float>() == std::vector<float>{2, 4, 6, 8});
    CHECK(rt.execute("Add", {on_gpu, on_gpu}, {}, "/GPU:1").to_vector<float>() ==
          std::vector<float>{2, 4, 6, 8});
  }
}

TEST_CASE("more kinds of call than the plans keep still run, each right") {
  hxrt::Runtime rt = four_gpus();
  // 5,000 shapes: more than CallPlans::kMostPlans (4,096) kinds of call.
  for (int64_t n = 1; n <= 5000; ++n) {
    const hxrt::Tensor x = rt.tensor<float>({n}, std::vector<float>(n, -1.0f), "/CPU:0");
    const hxrt::Tensor y = rt.execute("Relu", {x}, {}, "/CPU:0");
    REQUIRE(y.shape() == hxrt::Shape({n}));
    if (n % 1000 == 0) CHECK(y.to_vector<float>() == std::vector<float>(n, 0.0f));
  }
  const hxrt::Tensor a = matrix(rt);
  CHECK(rt.execute("MatMul", {a, a}, {}, "/CPU:0").to_vector<float>() ==
        std::vector<float>{7, 10, 15, 22});
}

TEST_CASE("threads that run one op with different kinds of call each get their own results") {
  // Each op remembers the plan it used last (one slot all threads share): each call must still
  // match its own kind of call, whatever another thread left there.
  hxrt::Runtime rt = four_gpus();
  constexpr int kThreads = 4;
  std::vector<hxrt::Tensor> inputs;
  for (int64_t n = 1; n <= kThreads; ++n) {
    inputs.push_back(rt.tensor<float>({n}, std::vector<float>(n, static_cast<float>(n)), "/CPU:0"));
  }
  const hxrt::Op add = rt.op("Add");
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const hxrt::Tensor& x = inputs[t];
      const std::vector<float> expected(t + 1, 2.0f * static_cast<float>(t + 1));
      for (int i = 0; i < 500; ++i) {
        if (rt.execute(add, {x, x}).to_vector<float>() != expected) ++wrong[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == std::vector<int>(kThreads, 0));
}

TEST_CASE("calls on tensors past the kinds a device keeps still get plans of their own") {
  // A device interns each (dtype, shape) of its tensors up to TensorKinds::kMostKinds (16,384),
  // and plans match an interned input by one comparison; tensors made after that have no kind,
  // and their calls must compare dtype, shape and device in full.
  hxrt::Runtime rt = four_gpus();
  const hxrt::Tensor interned = rt.tensor<float>({3}, {-1, 2, -3}, "/CPU:0");
  for (int64_t n = 1; n <= 16400; ++n) (void)rt.tensor<float>({n, 0}, {}, "/CPU:0");
  const hxrt::Tensor a = matrix(rt);  // no kind left for [2, 2]
  const hxrt::Tensor b = rt.tensor<float>({2, 2}, {0, 1, 1, 0}, "/CPU:0");
  const hxrt::Tensor wide = rt.tensor<float>({2, 3}, {1, -2, 3, -4, 5, -6}, "/CPU:0");
  for (int round = 0; round < 2; ++round) {
    CHECK(rt.execute("MatMul", {a, a}, {}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{7, 10, 15, 22});
    CHECK(rt.execute("MatMul", {a, b}, {}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{2, 1, 4, 3});
    CHECK(rt.execute("MatMul", {a, wide}, {}, "/CPU:0").shape() == hxrt::Shape({2, 3}));
    CHECK(rt.execute("Relu", {a}, {}, "/CPU:0").shape() == hxrt::Shape({2, 2}));
    CHECK(rt.execute("Relu", {wide}, {}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{1, 0, 3, 0, 5, 0});
    CHECK(rt.execute("Relu", {interned}, {}, "/CPU:0").to_vector<float>() ==
          std::vector<float>{0, 2, 0});
    CHECK(rt.execute("Relu", {a}, {}, "/GPU:0").device() == kGpu0);
  }
}

TEST_CASE("a call of the kind its op's last call was still follows what changed since") {
  // A call that repeats its op's last kind of call, placed on a synchronous device, runs the
  // quick way (runtime/execute.cpp, run_quickly), past run_body. Each section makes such
  // calls on the CPU, then changes one thing that run_body reads, and checks it was read.
  hxrt::Runtime rt = hxrt::Runtime::create(sim_options(
      R"({"device_type": "GPU", "device_count": 2, "placement_class": "host_accelerator"})"));
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {-1, 2, -3, 4}, "/CPU:0");
  const std::vector<float> relu_a{0, 2, 0, 4};
  const hxrt::Op relu = rt.op("Relu");
  for (int i = 0; i < 3; ++i) CHECK(rt.execute(relu, {a}).device() == kCpu0);  // CPU first
  SECTION("a scope") {
    {
      auto scope = rt.device("/GPU:1");
      CHECK(rt.execute(relu, {a}).device() == kGpu1);
    }
    CHECK(rt.execute(relu, {a}).device() == kCpu0);
  }
  SECTION("the placement function") {
    rt.set_placement_function([](const hxrt::OpPlacementInfo&) { return std::string("/GPU:1"); });
    CHECK(rt.execute(relu, {a}).device() == kGpu1);
    rt.set_placement_function(nullptr);
    CHECK(rt.execute(relu, {a}).device() == kCpu0);
  }
  SECTION("the placement log") {
    LogCapture log;
    log.attach(rt);
    CHECK(rt.execute(relu, {a}).to_vector<float>() == relu_a);
    CHECK(log.contains("Executing op Relu in device " + kCpu0));
  }
  SECTION("an input copied from an asynchronous device") {
    const hxrt::Tensor on_gpu = rt.execute(relu, {a}, {}, "/GPU:0");
    const hxrt::Tensor back = rt.to_device(on_gpu, "/CPU:0");
    for (int i = 0; i < 2; ++i) CHECK(rt.execute(relu, {back}).to_vector<float>() == relu_a);
  }
  SECTION("an empty input") {
    auto error = error_from([&] { rt.execute(relu, {hxrt::Tensor()}); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("input 0 is an empty Tensor"));
  }
  SECTION("another op in between") {
    CHECK(rt.execute("Identity", {a}).to_vector<float>() == std::vector<float>{-1, 2, -3, 4});
    CHECK(rt.execute(relu, {a}).to_vector<float>() == relu_a);
  }
}
