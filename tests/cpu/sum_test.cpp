// Sum on the CPU plugin against a reference that visits every input element.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

struct SumCase {
  std::vector<int64_t> shape;
  std::vector<int64_t> axes;  // as passed to the op
  bool axes_given;            // false: the attribute is left out (reduce everything)
};

// The reduced axes, normalised.
std::vector<bool> reduced_axes(const SumCase& sum) {
  const int64_t rank = static_cast<int64_t>(sum.shape.size());
  std::vector<bool> reduced(sum.shape.size(), !sum.axes_given);
  for (int64_t axis : sum.axes) reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  return reduced;
}

std::vector<int64_t> output_shape(const SumCase& sum, bool keep_dims) {
  const std::vector<bool> reduced = reduced_axes(sum);
  std::vector<int64_t> shape;
  for (size_t axis = 0; axis < sum.shape.size(); ++axis) {
    if (!reduced[axis]) {
      shape.push_back(sum.shape[axis]);
    } else if (keep_dims) {
      shape.push_back(1);
    }
  }
  return shape;
}

// Walks the input's multi-index and adds each element (in double) to its output element.
template <class T>
std::vector<double> reference_sum(const SumCase& sum, const std::vector<T>& input,
                                  std::vector<double>& magnitude) {
  const std::vector<bool> reduced = reduced_axes(sum);
  int64_t output_count = 1;
  for (size_t axis = 0; axis < sum.shape.size(); ++axis) {
    if (!reduced[axis]) output_count *= sum.shape[axis];
  }
  std::vector<double> output(static_cast<size_t>(output_count), 0.0);
  magnitude.assign(output.size(), 0.0);
  std::vector<int64_t> index(sum.shape.size(), 0);
  for (const T& element : input) {
    int64_t target = 0;
    for (size_t axis = 0; axis < sum.shape.size(); ++axis) {
      if (!reduced[axis]) target = target * sum.shape[axis] + index[axis];
    }
    output[static_cast<size_t>(target)] += static_cast<double>(element);
    magnitude[static_cast<size_t>(target)] += std::fabs(static_cast<double>(element));
    for (size_t axis = sum.shape.size(); axis-- > 0;) {
      if (++index[axis] < sum.shape[axis]) break;
      index[axis] = 0;
    }
  }
  return output;
}

}  // namespace

TEMPLATE_TEST_CASE("Sum reduces the requested axes", "[cpu][sum]", float, double, int32_t,
                   int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const SumCase sum = GENERATE(
      SumCase{{2, 3, 4}, {}, false},           // everything, attribute absent
      SumCase{{2, 3, 4}, {0}, true},           // leading axis
      SumCase{{2, 3, 4}, {1}, true},           // middle axis
      SumCase{{2, 3, 4}, {2}, true},           // innermost axis
      SumCase{{2, 3, 4}, {0, 2}, true},        // two separated axes
      SumCase{{2, 3, 4}, {-1}, true},          // negative axis
      SumCase{{2, 3, 4}, {-3, -1}, true},      // several negative axes
      SumCase{{2, 3, 4}, {2, 0, 1}, true},     // all axes, listed out of order
      SumCase{{2, 3, 4}, {}, true},            // an explicitly empty list: a copy
      SumCase{{5, 1, 3, 1}, {1, 2}, true},     // extent-1 axes, reduced and kept
      SumCase{{2, 0, 3}, {1}, true},           // reducing an empty axis gives zeros
      SumCase{{2, 0, 3}, {0}, true},           // an empty output
      SumCase{{}, {}, false},                  // a scalar
      SumCase{{7}, {0}, true},                 // a vector to a scalar
      SumCase{{3, 4, 5, 6}, {1, 3}, true},     // alternating kept and reduced axes
      SumCase{{4096}, {}, false});             // a long run
  const bool keep_dims = GENERATE(false, true);
  CAPTURE(hxrt::Shape(sum.shape).to_string(), sum.axes, sum.axes_given, keep_dims);

  const hxrt::Shape shape(sum.shape);
  const std::vector<T> input =
      cpu_test::random_values<T>(static_cast<size_t>(shape.num_elements()), 31);
  hxrt::Attrs attrs{{"keep_dims", keep_dims}};
  if (sum.axes_given) attrs.set("axes", sum.axes);
  const hxrt::Tensor out = rt.execute("Sum", {rt.tensor<T>(shape, input)}, attrs);

  REQUIRE(out.dtype() == hxrt::dtype_of<T>());
  REQUIRE(out.shape() == hxrt::Shape(output_shape(sum, keep_dims)));
  std::vector<double> magnitude;
  const std::vector<double> expected = reference_sum(sum, input, magnitude);
  const std::vector<T> actual = out.to_vector<T>();
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    if constexpr (std::is_integral_v<T>) {
      REQUIRE(static_cast<double>(actual[i]) == expected[i]);
    } else {
      const double epsilon = std::is_same_v<T, float> ? 1e-6 : 1e-14;
      REQUIRE(std::fabs(static_cast<double>(actual[i]) - expected[i]) <=
              epsilon * (magnitude[i] + 1));
    }
  }
}

TEST_CASE("Sum of a long f32 run stays accurate", "[cpu][sum]") {
  // 2^24 + 4 ones: a float accumulator would stop growing at 2^24.
  const std::vector<float> ones((1 << 24) + 4, 1.0f);
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor out =
      rt.execute("Sum", {rt.tensor<float>({static_cast<int64_t>(ones.size())}, ones)});
  REQUIRE(out.to_vector<float>() == std::vector<float>{static_cast<float>((1 << 24) + 4)});
}
