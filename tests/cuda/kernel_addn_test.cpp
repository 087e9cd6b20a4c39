// AddN on GPU:0 against the CPU plugin, for f32, f16 and bf16: one input, a few, and more than
// one launch's worth (the kernel takes 32 inputs per launch), on ordinary, scalar and empty
// shapes.
#include <catch2/catch.hpp>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {

TEST_CASE("GPU AddN matches the CPU for 1 to 70 inputs", "[cuda][addn]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 4000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const hxrt::Shape& shape : {hxrt::Shape{17, 9}, hxrt::Shape{}, hxrt::Shape{0, 4}}) {
      for (const size_t count : {size_t{1}, size_t{3}, size_t{32}, size_t{33}, size_t{70}}) {
        INFO(hxrt::dtype_name(dtype) << ' ' << shape.to_string() << ", " << count << " inputs");
        std::vector<hxrt::Tensor> inputs;
        for (size_t i = 0; i < count; ++i) inputs.push_back(random_tensor(dtype, shape, ++seed));
        const hxrt::Tensor got = run_on_gpu("AddN", inputs);
        const hxrt::Tensor want = cpu_reference("AddN", inputs);
        if (dtype == hxrt::DType::kF32) {
          check_equal(got, want);  // the same additions in the same order
        } else {
          // f16 and bf16 sums round once per 32 inputs on the GPU, once in all on the CPU's
          // f32 reference; the rounding error scales with the inputs (|x| < 10), not the sum.
          const double bound = relative_tolerance(dtype) * 10.0 * static_cast<double>(count);
          check_elements(got, want, [bound](size_t, double) { return bound; });
        }
      }
    }
  }
}

}  // namespace cuda_kernel_test
