// Softmax and LogSoftmax on GPU:0, for f32, f16 and bf16: against the CPU plugin along every
// axis of a rank-3 input (the innermost takes the warp-per-line kernel, the others the
// thread-per-line one), lines long and short, and rows that sum to 1 worked out on the host.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

struct SoftmaxCase {
  hxrt::Shape shape;
  int64_t axis;
};

const SoftmaxCase kSoftmaxCases[] = {
    {{4, 5, 6}, -1}, {{4, 5, 6}, 0},  {{4, 5, 6}, 1}, {{4, 5, 6}, 2},
    {{3, 5000}, -1},  // lines longer than a warp's many passes
    {{33, 1}, 1},     // lines of one element
    {{1000, 3}, 0},   // a long line along the outer axis
    {{7}, 0},         {{0, 4}, 1}, {{2, 0}, 0},
};

}  // namespace

TEST_CASE("GPU Softmax and LogSoftmax match the CPU along any axis", "[cuda][softmax]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 13000;
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      for (const SoftmaxCase& softmax : kSoftmaxCases) {
        INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << softmax.shape.to_string()
                << " axis " << softmax.axis);
        const hxrt::Attrs attrs{{"axis", softmax.axis}};
        const hxrt::Tensor x = random_tensor(dtype, softmax.shape, ++seed);
        const hxrt::Tensor got = run_on_gpu(op, {x}, attrs);
        const hxrt::Tensor want = cpu_reference(op, {x}, attrs);
        const double relative = relative_tolerance(dtype);
        check_elements(got, want, [relative](size_t, double w) {
          return relative * std::max(1.0, std::fabs(w));
        });
      }
    }
  }
}

TEST_CASE("GPU Softmax rows sum to 1 and LogSoftmax is their log", "[cuda][softmax]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    INFO(hxrt::dtype_name(dtype));
    // Large values: without the maximum subtracted, exp would overflow.
    const hxrt::Tensor x = cpu_tensor(dtype, {2, 3}, {1000, 1000, 1000, 0, 1, 2});
    const std::vector<double> softmax = values_of(run_on_gpu("Softmax", {x}));
    const std::vector<double> log_softmax = values_of(run_on_gpu("LogSoftmax", {x}));
    const double tolerance = relative_tolerance(dtype);
    for (size_t row = 0; row < 2; ++row) {
      double sum = 0;
      for (size_t i = row * 3; i < row * 3 + 3; ++i) {
        sum += softmax[i];
        CHECK(std::exp(log_softmax[i]) == Approx(softmax[i]).epsilon(2 * tolerance));
      }
      CHECK(sum == Approx(1).epsilon(3 * tolerance));
    }
    CHECK(softmax[0] == Approx(1.0 / 3).epsilon(tolerance));
    const double e = std::exp(1.0);
    CHECK(softmax[5] == Approx(e * e / (1 + e + e * e)).epsilon(tolerance));
  }
}

}  // namespace cuda_kernel_test
