// The unary element-wise ops (Exp ... Gelu) on GPU:0 against the CPU plugin, for f32, f16 and
// bf16, with their attributes given and left to their defaults; and against values worked out
// by hand where the op's definition is the point: Round's halves to even, Sign's NaN, the
// attributes' defaults.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

struct UnaryCase {
  const char* op;
  double low, high;  // the inputs' range: the op's domain, where it has one
  hxrt::Attrs attrs;
};

const UnaryCase kUnaryCases[] = {
    {"Exp", -20, 20, {}},
    {"Log", 0.01, 100, {}},
    {"Sqrt", 0, 100, {}},
    {"Neg", -10, 10, {}},
    {"Abs", -10, 10, {}},
    {"Reciprocal", 0.1, 10, {}},
    {"Erf", -4, 4, {}},
    {"Tanh", -10, 10, {}},
    {"Sigmoid", -20, 20, {}},
    {"Floor", -10, 10, {}},
    {"Ceil", -10, 10, {}},
    {"Round", -10, 10, {}},
    {"Sign", -10, 10, {}},
    {"LeakyRelu", -10, 10, {}},
    {"LeakyRelu", -10, 10, {{"alpha", 0.25}}},
    {"HardSigmoid", -10, 10, {}},
    {"HardSigmoid", -10, 10, {{"alpha", 0.5}, {"beta", 0.25}}},
    {"HardSwish", -10, 10, {}},
    {"Gelu", -10, 10, {}},
    {"Gelu", -10, 10, {{"approximate", std::string("tanh")}}},
};

// Relative to the larger of |want| and 1, as the conformance kit measures: a result near 0
// (Sigmoid of -20, Gelu near its zero) may be off by the rounding of its terms.
void check_near(const hxrt::Tensor& got, const hxrt::Tensor& want) {
  const double relative = relative_tolerance(want.dtype());
  check_elements(got, want,
                 [relative](size_t, double w) { return relative * std::max(1.0, std::fabs(w)); });
}

std::vector<double> gpu_values(const char* op, hxrt::DType dtype,
                               const std::vector<double>& inputs, const hxrt::Attrs& attrs = {}) {
  const hxrt::Tensor x = cpu_tensor(dtype, {static_cast<int64_t>(inputs.size())}, inputs);
  return values_of(run_on_gpu(op, {x}, attrs));
}

}  // namespace

TEST_CASE("GPU unary ops match the CPU", "[cuda][unary]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 9000;
  for (const UnaryCase& unary : kUnaryCases) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      for (const hxrt::Shape& shape : {hxrt::Shape{37, 11}, hxrt::Shape{}, hxrt::Shape{0, 4},
                                       hxrt::Shape{70000}}) {
        INFO(unary.op << ' ' << hxrt::dtype_name(dtype) << ' ' << shape.to_string());
        const hxrt::Tensor x = random_tensor(dtype, shape, ++seed, unary.low, unary.high);
        check_near(run_on_gpu(unary.op, {x}, unary.attrs),
                   cpu_reference(unary.op, {x}, unary.attrs));
      }
    }
  }
}

TEST_CASE("GPU unary ops keep NaN and the definitions' edge cases", "[cuda][unary]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    INFO(hxrt::dtype_name(dtype));
    // Halves go to the even neighbour, also below zero.
    CHECK(gpu_values("Round", dtype, {0.5, 1.5, 2.5, -0.5, -2.5, 3.25}) ==
          std::vector<double>{0, 2, 2, 0, -2, 3});
    const std::vector<double> sign = gpu_values("Sign", dtype, {-3, 0, 2, nan, -inf});
    CHECK(std::vector<double>(sign.begin(), sign.begin() + 3) == std::vector<double>{-1, 0, 1});
    CHECK(std::isnan(sign[3]));
    CHECK(sign[4] == -1);
    // LeakyRelu's alpha defaults to 0.01; HardSigmoid's alpha and beta to 0.2 and 0.5.
    const std::vector<double> leaky = gpu_values("LeakyRelu", dtype, {-2, 3});
    CHECK(leaky[0] == Approx(-0.02).epsilon(relative_tolerance(dtype)));
    CHECK(leaky[1] == 3);
    CHECK(gpu_values("HardSigmoid", dtype, {-10, 0, 10}) == std::vector<double>{0, 0.5, 1});
    CHECK(gpu_values("HardSwish", dtype, {-4, 0, 4}) == std::vector<double>{0, 0, 4});
    for (const char* op : {"Exp", "Sigmoid", "HardSigmoid", "HardSwish", "Gelu", "Floor"}) {
      INFO(op);
      CHECK(std::isnan(gpu_values(op, dtype, {nan})[0]));
    }
    // Gelu's two forms agree to a few parts in a thousand, and are x for large x.
    const std::vector<double> exact = gpu_values("Gelu", dtype, {-1, 1, 6});
    const std::vector<double> tanh_form =
        gpu_values("Gelu", dtype, {-1, 1, 6}, {{"approximate", std::string("tanh")}});
    CHECK(exact[0] == Approx(-0.158655).epsilon(2e-2));
    CHECK(exact[1] == Approx(0.841345).epsilon(2e-2));
    CHECK(tanh_form[0] == Approx(-0.158808).epsilon(2e-2));
    CHECK(exact[2] == 6);
    CHECK(tanh_form[2] == 6);
  }
}

}  // namespace cuda_kernel_test
