// A kernel's check answers from its arguments alone (ABI 2.3), so the core asks it once per
// kind of call and keeps the answer, accepted or declined; a failure is not kept. A plugin
// built for ABI 2.2 is asked before every call, as that version promised.
#include <catch2/catch.hpp>

#include <vector>

#include "declining_runtime.hpp"
#include "sim_runtime.hpp"

using namespace placement_test;

namespace {

constexpr int kCalls = 20;

hxrt::Tensor ones(hxrt::Runtime& rt, const hxrt::Shape& shape) {
  return rt.tensor<float>(shape, std::vector<float>(shape.num_elements(), 1.0f), "/CPU:0");
}

}  // namespace

TEST_CASE("a kernel's check is asked once per kind of call, and its answer kept") {
  const DecliningLibrary library;
  hxrt::Runtime rt = declining_runtime();
  const hxrt::Tensor matrix = ones(rt, {2, 2});
  const hxrt::Tensor cube = ones(rt, {1, 2, 2});
  const hxrt::Tensor four_d = ones(rt, {1, 1, 2, 2});

  SECTION("accepted by the first kernel") {
    const int64_t before = library.checks();
    for (int i = 0; i < kCalls; ++i) {
      const hxrt::Tensor y = rt.execute("Relu", {matrix}, {}, "/DECLINE:0");
      CHECK(y.device() == kDecline0);
      CHECK(y.to_vector<float>() == std::vector<float>(4, 1.0f));
    }
    CHECK(library.checks() - before == 1);
  }
  SECTION("declined by the first kernel, accepted by the second: two checks in all") {
    const int64_t before = library.checks();
    for (int i = 0; i < kCalls; ++i) {
      const hxrt::Tensor y = rt.execute("Relu", {cube}, {}, "/DECLINE:0");
      CHECK(y.device() == kDecline0);
      CHECK(y.to_vector<float>() == std::vector<float>(4, 7.0f));  // the second kernel's mark
    }
    CHECK(library.checks() - before == 2);
  }
  SECTION("declined by both: the call falls back to the CPU, still after two checks") {
    const int64_t before = library.checks();
    for (int i = 0; i < kCalls; ++i) {
      CHECK(rt.execute("Relu", {four_d}, {}, "/DECLINE:0").device() == kCpu0);
    }
    CHECK(library.checks() - before == 2);
  }
  SECTION("a check that fails is asked again at the next call") {
    const hxrt::Tensor five_d = ones(rt, {1, 1, 1, 2, 2});
    const int64_t before = library.checks();
    for (int i = 0; i < kCalls; ++i) {
      auto error = error_from([&] { rt.execute("Relu", {five_d}, {}, "/DECLINE:0"); });
      REQUIRE(error);
      CHECK(error->code() == hxrt::StatusCode::kInternal);
    }
    CHECK(library.checks() - before == 2 * kCalls);  // the first kernel declines, the second fails
  }
}

TEST_CASE("a plugin built for ABI 2.2 has its kernels' checks asked before every call") {
  const DecliningLibrary library(kDecliningV22Path);
  hxrt::Runtime rt = declining_runtime(kDecliningV22Path);
  const hxrt::Tensor matrix = ones(rt, {2, 2});
  const hxrt::Tensor cube = ones(rt, {1, 2, 2});
  const int64_t before = library.checks();
  for (int i = 0; i < kCalls; ++i) {
    CHECK(rt.execute("Relu", {matrix}, {}, "/DECLINE:0").device() == kDecline0);
  }
  CHECK(library.checks() - before == kCalls);
  for (int i = 0; i < kCalls; ++i) {
    const hxrt::Tensor y = rt.execute("Relu", {cube}, {}, "/DECLINE:0");
    CHECK(y.to_vector<float>() == std::vector<float>(4, 7.0f));
  }
  CHECK(library.checks() - before == kCalls + 2 * kCalls);
}
