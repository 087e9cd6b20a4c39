// Readiness by events: ops and uploads return once queued; reading a tensor waits for the
// work that writes it and for nothing else; synchronize waits for a device or all of them.
#include <catch2/catch.hpp>

#include "execution_rig.hpp"

using namespace execution_test;

namespace {

// A sim device whose MatMul of kN x kN takes `seconds`.
std::string slow_matmul(double seconds) {
  return "\"matmul_gflops\":" + std::to_string(gflops_for(kN, seconds));
}

}  // namespace

TEST_CASE("An op returns once queued, and reading its output waits for it", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1, slow_matmul(1.0));
  const hxrt::Tensor a = rt.tensor({kN, kN}, iota(kN), "/GPU:0");
  const hxrt::Tensor eye = rt.tensor({kN, kN}, identity(kN), "/GPU:0");
  const hxrt::Tensor product = rt.execute("MatMul", {a, eye}, {}, "/GPU:0");
  CHECK_FALSE(product.ready());  // a second's work by the model, queued a moment ago
  CHECK(product.to_vector<float>() == iota(kN));
  CHECK(product.ready());
}

TEST_CASE("Reading a tensor waits for its own work, not for work queued after it",
          "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1, slow_matmul(2.0));
  const hxrt::Tensor a = rt.tensor({kN, kN}, iota(kN), "/GPU:0");
  const hxrt::Tensor small = rt.tensor<float>({2}, {3, 4}, "/GPU:0");
  const hxrt::Tensor slow = rt.execute("MatMul", {a, a}, {}, "/GPU:0");
  CHECK(small.to_vector<float>() == std::vector<float>{3, 4});
  CHECK_FALSE(slow.ready());  // the device's queue still holds two seconds of work
  small.wait();
  CHECK_FALSE(slow.ready());
}

TEST_CASE("from_host returns before its upload has run, and the caller may reuse its memory",
          "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"h2d_latency_us\":1000000");
  std::vector<float> values = iota(8);
  const hxrt::Tensor t = rt.tensor({8, 8}, values, "/GPU:0");
  CHECK_FALSE(t.ready());
  std::fill(values.begin(), values.end(), -1.0f);  // the upload reads its own staged copy
  CHECK(t.to_vector<float>() == iota(8));
}

TEST_CASE("synchronize waits for one device or for all of them", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(2, slow_matmul(0.5));
  const hxrt::Tensor a0 = rt.tensor({kN, kN}, iota(kN), "/GPU:0");
  const hxrt::Tensor a1 = rt.tensor({kN, kN}, iota(kN), "/GPU:1");
  hxrt::Tensor p0 = rt.execute("MatMul", {a0, a0}, {}, "/GPU:0");
  hxrt::Tensor p1 = rt.execute("MatMul", {a1, a1}, {}, "/GPU:1");
  rt.synchronize("/GPU:1");
  CHECK(p1.ready());
  rt.synchronize();
  CHECK(p0.ready());

  p0 = rt.execute("MatMul", {a0, a0}, {}, "/GPU:0");
  p1 = rt.execute("MatMul", {a1, a1}, {}, "/GPU:1");
  rt.synchronize();
  CHECK(p0.ready());
  CHECK(p1.ready());

  const auto unknown = error_from([&] { rt.synchronize("/GPU:7"); });
  REQUIRE(unknown);
  CHECK(unknown->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(unknown->what(), Catch::Contains("GPU:7"));
}

TEST_CASE("A synchronous device's tensors are ready when the call returns", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/CPU:0");
  const hxrt::Tensor product = rt.execute("MatMul", {a, a}, {}, "/CPU:0");
  CHECK(product.ready());
  product.wait();
  CHECK(product.to_vector<float>() == std::vector<float>{7, 10, 15, 22});
  rt.synchronize("/CPU:0");
}

TEST_CASE("Work still queued when the runtime goes completes, and its tensors stay readable",
          "[execution]") {
  hxrt::Tensor product;
  {
    hxrt::Runtime rt = runtime_with_gpus(1, slow_matmul(0.3));
    const hxrt::Tensor a = rt.tensor({kN, kN}, iota(kN), "/GPU:0");
    const hxrt::Tensor eye = rt.tensor({kN, kN}, identity(kN), "/GPU:0");
    product = rt.execute("MatMul", {a, eye}, {}, "/GPU:0");
  }
  CHECK(product.ready());
  CHECK(product.to_vector<float>() == iota(kN));
}
