// Sum on GPU:0 against the CPU plugin, for f32, f16 and bf16: every axis set of a rank-3
// input, negative axes, keep_dims, extent-1 axes, scalars, empty inputs, and reductions long
// enough for the one-block-per-output-element path (256 addends or more).
#include <catch2/catch.hpp>

#include <optional>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

struct SumCase {
  hxrt::Shape shape;
  std::optional<std::vector<int64_t>> axes;  // nullopt: the attribute is absent (every axis)
  bool keep_dims;
};

const SumCase kCases[] = {
    {{6, 7, 8}, std::nullopt, false},
    {{6, 7, 8}, std::vector<int64_t>{0}, false},
    {{6, 7, 8}, std::vector<int64_t>{1}, false},
    {{6, 7, 8}, std::vector<int64_t>{2}, true},
    {{6, 7, 8}, std::vector<int64_t>{0, 2}, false},
    {{6, 7, 8}, std::vector<int64_t>{-1, -2}, true},
    {{6, 7, 8}, std::vector<int64_t>{}, false},         // no axis: a copy
    {{1, 5, 1, 3}, std::vector<int64_t>{0, 3}, false},  // extent-1 axes
    {{}, std::nullopt, false},                          // a scalar
    {{0, 3}, std::vector<int64_t>{0}, false},           // no addends: zeros
    {{3, 0}, std::vector<int64_t>{0}, false},           // no outputs
    {{300, 40}, std::vector<int64_t>{0}, false},        // 300 addends, strided
    {{40, 1000}, std::vector<int64_t>{1}, false},       // 1000 addends, contiguous
    {{3, 100000}, std::nullopt, false},                 // one long reduction
};

}  // namespace

TEST_CASE("GPU Sum matches the CPU over any set of axes", "[cuda][sum]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 7000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const SumCase& sum : kCases) {
      hxrt::Attrs attrs{{"keep_dims", sum.keep_dims}};
      if (sum.axes) attrs.set("axes", *sum.axes);
      INFO(hxrt::dtype_name(dtype) << ' ' << sum.shape.to_string() << " axes "
                                   << (sum.axes ? hxrt::attr_value_to_string(*sum.axes) : "absent")
                                   << " keep_dims " << sum.keep_dims);
      const hxrt::Tensor x = random_tensor(dtype, sum.shape, ++seed);
      // Both sides add in double and round once (the CPU's f16 and bf16 reference rounds
      // twice, through f32), so the dtype's relative tolerance applies to the result itself.
      check_close(run_on_gpu("Sum", {x}, attrs), cpu_reference("Sum", {x}, attrs));
    }
  }
}

}  // namespace cuda_kernel_test
