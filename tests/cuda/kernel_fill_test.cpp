// Fill on GPU:0 against the CPU plugin for every float dtype: the value is rounded once to the
// dtype on both, so the elements must be equal, overflow to infinity included.
#include <catch2/catch.hpp>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {

TEST_CASE("GPU Fill matches the CPU for every float dtype", "[cuda][fill]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  for (const hxrt::DType dtype : kFloatDTypes) {
    // -0.1 needs rounding in every dtype; 1e6 overflows f16; 3.0000001 rounds to 3 in all but
    // f64; 1e-7 is an f16 subnormal.
    for (const double value : {1.5, -0.1, 1e6, 3.0000001, 1e-7, 0.0}) {
      for (const std::vector<int64_t>& shape :
           {std::vector<int64_t>{3, 4}, std::vector<int64_t>{}, std::vector<int64_t>{0},
            std::vector<int64_t>{100000}}) {
        const hxrt::Attrs attrs{{"shape", shape}, {"value", value}, {"dtype", dtype}};
        INFO(hxrt::dtype_name(dtype) << " value " << value << " shape "
                                     << hxrt::attr_value_to_string(hxrt::AttrValue(shape)));
        check_equal(run_on_gpu("Fill", {}, attrs), cpu_reference("Fill", {}, attrs));
      }
    }
  }
}

}  // namespace cuda_kernel_test
