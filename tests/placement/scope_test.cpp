// Device scopes: RAII, nestable, per thread, and the order call > scope > placement function.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "sim_runtime.hpp"

using namespace placement_test;
using Catch::Matchers::Contains;

TEST_CASE("the innermost scope wins and each scope ends with its object") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({1, 1}, {2});
  {
    auto outer = rt.device("/GPU:1");
    CHECK(rt.execute("MatMul", {a, a}).device() == kGpu1);
    {
      auto inner = rt.device("/device:GPU:2");
      CHECK(rt.execute("MatMul", {a, a}).device() == kGpu2);
      // The call's own device beats every scope.
      CHECK(rt.execute("MatMul", {a, a}, {}, "/GPU:3").device() == kGpu3);
    }
    CHECK(rt.execute("MatMul", {a, a}).device() == kGpu1);
  }
  CHECK(rt.execute("MatMul", {a, a}).device() == kGpu0);
}

TEST_CASE("a scope also places the tensors created in it") {
  hxrt::Runtime rt = four_gpus();
  auto scope = rt.device("/GPU:3");
  hxrt::Tensor a = rt.tensor<float>({2}, {1, 2});
  CHECK(a.device() == kGpu3);
  CHECK(a.to_vector<float>() == std::vector<float>{1, 2});
}

TEST_CASE("a malformed scope name fails where it is written") {
  hxrt::Runtime rt = four_gpus();
  auto error = error_from([&] { auto scope = rt.device("/GPU:one"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("/GPU:one"));
}

TEST_CASE("a scope moved out of a function keeps working, and ends once") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({1, 1}, {2});
  auto make_scope = [&] { return rt.device("/GPU:2"); };
  {
    hxrt::DeviceScope scope = make_scope();
    CHECK(rt.execute("MatMul", {a, a}).device() == kGpu2);
  }
  CHECK(rt.execute("MatMul", {a, a}).device() == kGpu0);
}

TEST_CASE("scopes are per thread: threads in different scopes at once do not see each other") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({1, 1}, {2});
  std::atomic<int> misplaced{0};
  std::vector<std::thread> threads;
  for (int gpu = 0; gpu < 4; ++gpu) {
    threads.emplace_back([&, gpu] {
      auto scope = rt.device("/GPU:" + std::to_string(gpu));
      const std::string expected = "/job:localhost/replica:0/task:0/device:GPU:" +
                                   std::to_string(gpu);
      for (int i = 0; i < 100; ++i) {
        try {
          hxrt::Tensor c = rt.execute("MatMul", {a, a});
          if (c.device() != expected || c.to_vector<float>() != std::vector<float>{4}) {
            ++misplaced;
          }
        } catch (const hxrt::Error&) {
          ++misplaced;  // an exception must not leave the thread
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(misplaced == 0);
  // The main thread was in no scope all along.
  CHECK(rt.execute("MatMul", {a, a}).device() == kGpu0);
}

TEST_CASE("scopes of one runtime do not apply to another") {
  hxrt::Runtime first = four_gpus();
  hxrt::Runtime second = four_gpus();
  auto scope = first.device("/GPU:3");
  hxrt::Tensor a = second.tensor<float>({1, 1}, {2});
  CHECK(second.execute("MatMul", {a, a}).device() == kGpu0);
}

TEST_CASE("a placement function decides for ops with no device from the call or a scope") {
  hxrt::Runtime rt = four_gpus();
  std::vector<hxrt::OpPlacementInfo> seen;
  // All int32 ops on CPU; float ops round-robin over the four GPUs.
  int next_gpu = 0;
  rt.set_placement_function([&](const hxrt::OpPlacementInfo& op) -> std::string {
    seen.push_back(op);
    if (!op.input_dtypes.empty() && op.input_dtypes[0] == hxrt::DType::kI32) return "/CPU:0";
    return "/GPU:" + std::to_string(next_gpu++ % 4);
  });
  hxrt::Tensor f = rt.tensor<float>({1, 1}, {2});
  for (const std::string& expected : {kGpu0, kGpu1, kGpu2, kGpu3, kGpu0}) {
    CHECK(rt.execute("MatMul", {f, f}).device() == expected);
  }
  hxrt::Tensor i = rt.tensor<int32_t>({1}, {2}, "/CPU:0");
  CHECK(rt.execute("Add", {i, i}).device() == kCpu0);

  REQUIRE_FALSE(seen.empty());
  CHECK(seen.back().op == "Add");
  CHECK(seen.back().input_dtypes == std::vector<hxrt::DType>{hxrt::DType::kI32, hxrt::DType::kI32});
  CHECK(seen.back().input_devices == std::vector<std::string>{kCpu0, kCpu0});

  const size_t calls = seen.size();
  {
    auto scope = rt.device("/GPU:3");  // a scope beats the function, which is not asked
    CHECK(rt.execute("MatMul", {f, f}).device() == kGpu3);
  }
  CHECK(seen.size() == calls);

  rt.set_placement_function(nullptr);
  CHECK(rt.execute("MatMul", {f, f}).device() == kGpu0);
}
