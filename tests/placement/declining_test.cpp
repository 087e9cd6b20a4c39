// Kernels that decline a call (ABI 2.0): in create for an attribute value, in check for a
// rank. The placer treats the kernel as missing for that call: the next kernel of the same
// plugin, then soft placement with the kernel's own reason; strict mode fails with
// TensorFlow's text and the reason. Any other status from create or check fails the op.
#include <catch2/catch.hpp>

#include "declining_runtime.hpp"
#include "sim_runtime.hpp"

using namespace placement_test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kNoDeclineKernel =
    "Could not satisfy explicit device specification '" + kDecline0 +
    "' because no supported kernel for DECLINE devices is available.";
const std::string kFellBack = "  requested " + kDecline0 +
                              ", but no supported kernel for DECLINE devices is available for "
                              "T=float32; fell back to " + kCpu0;
const std::string kTransposeA = "MatMul on DECLINE: transpose_a is not supported";
const std::string kFastRank3 = "Relu on DECLINE: the fast kernel takes rank 2 at most, got 3";
const std::string kFastRank4 = "Relu on DECLINE: the fast kernel takes rank 2 at most, got 4";
const std::string kGeneralRank4 =
    "Relu on DECLINE: the general kernel takes rank 3 at most, got 4";

std::string declined(const std::string& reason) {
  return "the kernel of plugin 'fixture_declining' on " + kDecline0 + " declined: " + reason;
}

}  // namespace

TEST_CASE("a kernel that declines an attribute value in create falls back, logging its reason") {
  hxrt::Runtime rt = declining_runtime();
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/CPU:0");

  hxrt::Tensor plain = rt.execute("MatMul", {a, a}, {}, "/DECLINE:0");
  CHECK(plain.device() == kDecline0);
  CHECK(plain.to_vector<float>() == std::vector<float>{7, 10, 15, 22});

  hxrt::Tensor transposed = rt.execute("MatMul", {a, a}, {{"transpose_a", true}}, "/DECLINE:0");
  CHECK(transposed.device() == kCpu0);
  CHECK(transposed.to_vector<float>() == std::vector<float>{10, 14, 14, 20});
  CHECK(log.contains("Executing op MatMul in device " + kCpu0));
  CHECK(log.contains(kFellBack + "; " + declined(kTransposeA)));

  // Nothing requested: DECLINE, a discrete accelerator, comes first, and passes the call on.
  log.lines.clear();
  CHECK(rt.execute("MatMul", {a, a}, {{"transpose_a", true}}).device() == kCpu0);
  CHECK(log.contains("  " + declined(kTransposeA)));
}

TEST_CASE("strict: a kernel that declines in create fails the op with TensorFlow's text and "
          "its reason") {
  hxrt::Runtime rt = declining_runtime();
  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/CPU:0");
  auto error = error_from(
      [&] { rt.execute("MatMul", {a, a}, {{"transpose_a", true}}, "/DECLINE:0"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), StartsWith(kNoDeclineKernel));
  CHECK_THAT(error->what(), Contains(declined(kTransposeA)));
  // The same call without the attribute runs there.
  CHECK(rt.execute("MatMul", {a, a}, {}, "/DECLINE:0").device() == kDecline0);
}

TEST_CASE("a kernel that declines a rank in check passes the call to the plugin's next kernel "
          "before any other device") {
  hxrt::Runtime rt = declining_runtime();
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor matrix = rt.tensor<float>({1, 2}, {-1, 2}, "/CPU:0");
  hxrt::Tensor cube = rt.tensor<float>({1, 1, 2}, {-1, 2}, "/CPU:0");

  hxrt::Tensor fast = rt.execute("Relu", {matrix}, {}, "/DECLINE:0");
  CHECK(fast.device() == kDecline0);
  CHECK(fast.to_vector<float>() == std::vector<float>{0, 2});

  // The priority-0 kernel, which writes 7, runs on the same device.
  for (const std::string& requested : {std::string("/DECLINE:0"), std::string()}) {
    INFO("requested: '" << requested << "'");
    log.lines.clear();
    hxrt::Tensor general = rt.execute("Relu", {cube}, {}, requested);
    CHECK(general.device() == kDecline0);
    CHECK(general.to_vector<float>() == std::vector<float>{7, 7});
    CHECK(log.contains("  " + declined(kFastRank3)));
  }
}

TEST_CASE("when every kernel of the device declines in check the op falls back with their "
          "reasons, or fails in strict mode") {
  hxrt::Runtime rt = declining_runtime();
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor rank4 = rt.tensor<float>({1, 1, 1, 2}, {-1, 2}, "/CPU:0");
  hxrt::Tensor relu = rt.execute("Relu", {rank4}, {}, "/DECLINE:0");
  CHECK(relu.device() == kCpu0);
  CHECK(relu.to_vector<float>() == std::vector<float>{0, 2});
  CHECK(log.contains(kFellBack + "; " + declined(kFastRank4) + "; " + declined(kGeneralRank4)));

  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  auto error = error_from([&] { rt.execute("Relu", {rank4}, {}, "/DECLINE:0"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), StartsWith(kNoDeclineKernel));
  CHECK_THAT(error->what(), Contains(declined(kFastRank4)));
  CHECK_THAT(error->what(), Contains(declined(kGeneralRank4)));
}

TEST_CASE("a status other than UNIMPLEMENTED from create or check fails the op, with no "
          "fallback") {
  hxrt::Runtime rt = declining_runtime();
  rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
  hxrt::Tensor doubles = rt.tensor<double>({1, 1}, {2}, "/CPU:0");
  for (const std::string& requested : {std::string("/DECLINE:0"), std::string()}) {
    INFO("requested: '" << requested << "'");
    auto create = error_from([&] { rt.execute("MatMul", {doubles, doubles}, {}, requested); });
    REQUIRE(create);
    CHECK(create->code() == hxrt::StatusCode::kInternal);
    CHECK_THAT(create->what(), Contains("float64 instances fail on purpose"));
    CHECK_THAT(create->what(), Contains("fixture_declining"));
  }

  hxrt::Tensor rank5 = rt.tensor<float>({1, 1, 1, 1, 2}, {-1, 2}, "/CPU:0");
  auto check = error_from([&] { rt.execute("Relu", {rank5}, {}, "/DECLINE:0"); });
  REQUIRE(check);
  CHECK(check->code() == hxrt::StatusCode::kInternal);
  CHECK_THAT(check->what(), Contains("the general kernel's check failed"));
}
