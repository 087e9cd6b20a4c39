// The kernels that walk a tensor as lines along an axis (Softmax, LogSoftmax, CumSum, TopK) on
// tensors of no elements whose other extents are huge: execute_fuzz found a
// Softmax of shape [2^40, 0] that looped over 2^40 empty lines and never returned.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "cpu_test_support.hpp"

TEST_CASE("Kernels along an axis return at once on a tensor of no elements, however wide",
          "[cpu][axis_lines]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const int64_t huge = int64_t{1} << 40;
  const hxrt::Tensor wide = rt.tensor<double>({huge, 0}, {});
  for (const std::string op : {"Softmax", "LogSoftmax"}) {
    CAPTURE(op);
    const hxrt::Tensor out = rt.execute(op, {wide}, {{"axis", int64_t{1}}});
    CHECK(out.shape() == hxrt::Shape({huge, 0}));
  }
  const hxrt::Tensor sums =
      rt.execute("CumSum", {rt.tensor<float>({0, huge}, {})}, {{"axis", int64_t{1}}});
  CHECK(sums.shape() == hxrt::Shape({0, huge}));
}
