// Add, Sub, Mul and Div on the CPU plugin: same shapes and NumPy broadcasting on either side,
// every registered dtype, integer wrap-around and division errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

// The reference: IEEE arithmetic in T for floats (so results must match exactly), and
// wrap-around arithmetic through the unsigned type for integers.
template <class T>
T reference(const std::string& op, T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (op == "Add") return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
    if (op == "Sub") return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
    if (op == "Mul") return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
    return x / y;
  } else {
    if (op == "Add") return x + y;
    if (op == "Sub") return x - y;
    if (op == "Mul") return x * y;
    return x / y;
  }
}

struct BroadcastCase {
  hxrt::Shape x, y, out;
};

size_t count(const hxrt::Shape& shape) { return static_cast<size_t>(shape.num_elements()); }

// The element of an input of shape `in` that NumPy broadcasting pairs with element `flat` of
// the output: dimensions align at the right, and an extent 1 (or a missing dimension) repeats.
size_t broadcast_index(const hxrt::Shape& in, const hxrt::Shape& out, size_t flat) {
  size_t index = 0;
  size_t in_stride = 1;
  for (int axis = out.rank() - 1, in_axis = in.rank() - 1; axis >= 0; --axis, --in_axis) {
    const size_t coordinate = flat % static_cast<size_t>(out[axis]);
    flat /= static_cast<size_t>(out[axis]);
    if (in_axis < 0) continue;
    if (in[in_axis] != 1) index += coordinate * in_stride;
    in_stride *= static_cast<size_t>(in[in_axis]);
  }
  return index;
}

}  // namespace

TEMPLATE_TEST_CASE("Binary element-wise ops match the reference for every layout",
                   "[cpu][elementwise]", float, double, int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const std::string op = GENERATE("Add", "Sub", "Mul", "Div");
  const BroadcastCase layout = GENERATE(
      BroadcastCase{{3, 5}, {3, 5}, {3, 5}},        // same shape
      BroadcastCase{{1000}, {1000}, {1000}},        // long enough for the vector loops' tails
      BroadcastCase{{}, {3, 5}, {3, 5}},            // scalar on the left
      BroadcastCase{{4, 2}, {}, {4, 2}},            // scalar on the right
      BroadcastCase{{1, 1}, {2, 7}, {2, 7}},        // one-element non-scalar on the left
      BroadcastCase{{4, 2}, {1, 1, 1}, {1, 4, 2}},  // one element of higher rank on the right
      BroadcastCase{{2, 3}, {3}, {2, 3}},           // a row against every row
      BroadcastCase{{2, 1}, {1, 3}, {2, 3}},        // a column against a row
      BroadcastCase{{}, {4}, {4}},                  // a scalar against a vector
      BroadcastCase{{3, 1, 5}, {4, 1}, {3, 4, 5}},  // both repeat, in different dimensions
      BroadcastCase{{1}, {1, 1, 1}, {1, 1, 1}},     // both one element: the higher rank wins
      BroadcastCase{{1}, {1}, {1}},                 // a single element
      BroadcastCase{{0, 4}, {}, {0, 4}},            // empty, broadcast scalar
      BroadcastCase{{}, {0}, {0}},                  // scalar, broadcast to empty
      BroadcastCase{{2, 0}, {2, 0}, {2, 0}});       // both empty
  CAPTURE(op, layout.x.to_string(), layout.y.to_string());

  const std::vector<T> x = cpu_test::random_values<T>(count(layout.x), 11);
  std::vector<T> y = cpu_test::random_values<T>(count(layout.y), 12);
  if (op == "Div") {
    for (T& divisor : y) divisor = divisor == T(0) ? T(1) : divisor;
  }
  const hxrt::Tensor out = rt.execute(op, {rt.tensor<T>(layout.x, x), rt.tensor<T>(layout.y, y)});

  REQUIRE(out.dtype() == hxrt::dtype_of<T>());
  REQUIRE(out.shape() == layout.out);
  const std::vector<T> actual = out.to_vector<T>();
  REQUIRE(actual.size() == count(layout.out));
  for (size_t i = 0; i < actual.size(); ++i) {
    const T expected = reference(op, x[broadcast_index(layout.x, layout.out, i)],
                                 y[broadcast_index(layout.y, layout.out, i)]);
    CAPTURE(i);
    REQUIRE(actual[i] == expected);
  }
}

TEMPLATE_TEST_CASE("Integer Add, Sub and Mul wrap around instead of overflowing",
                   "[cpu][elementwise]", int32_t, int64_t) {
  using T = TestType;
  using Limits = std::numeric_limits<T>;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<T>({3}, {Limits::max(), Limits::min(), Limits::max()});
  const hxrt::Tensor y = rt.tensor<T>({3}, {1, 1, 2});
  REQUIRE(rt.execute("Add", {x, y}).template to_vector<T>() ==
          std::vector<T>{Limits::min(), static_cast<T>(Limits::min() + 1), Limits::min() + 1});
  REQUIRE(rt.execute("Sub", {y, x}).template to_vector<T>() ==
          std::vector<T>{static_cast<T>(Limits::min() + 2), Limits::min() + 1,
                         static_cast<T>(Limits::min() + 3)});
  REQUIRE(rt.execute("Mul", {x, y}).template to_vector<T>() ==
          std::vector<T>{Limits::max(), Limits::min(), T(-2)});
}

TEMPLATE_TEST_CASE("Integer Div truncates toward zero", "[cpu][elementwise]", int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor out =
      rt.execute("Div", {rt.tensor<T>({4}, {7, -7, 7, -7}), rt.tensor<T>({4}, {2, 2, -2, -2})});
  REQUIRE(out.template to_vector<T>() == std::vector<T>{3, -3, -3, 3});
}

TEMPLATE_TEST_CASE("Integer division by zero is an InvalidArgument error, not a crash",
                   "[cpu][elementwise]", int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<T>({3}, {1, 2, 3});
  const bool scalar_divisor = GENERATE(false, true);
  const hxrt::Tensor divisor =
      scalar_divisor ? rt.tensor<T>({}, {0}) : rt.tensor<T>({3}, {1, 0, 1});
  try {
    rt.execute("Div", {x, divisor});
    FAIL("Div by zero did not throw");
  } catch (const hxrt::Error& error) {
    REQUIRE(error.code() == hxrt::StatusCode::kInvalidArgument);
    REQUIRE_THAT(error.what(), Catch::Contains("Div: integer division by zero"));
  }
}

TEMPLATE_TEST_CASE("Integer min / -1 is an InvalidArgument error, not a crash",
                   "[cpu][elementwise]", int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<T>({2}, {4, std::numeric_limits<T>::min()});
  try {
    rt.execute("Div", {x, rt.tensor<T>({}, {-1})});
    FAIL("min / -1 did not throw");
  } catch (const hxrt::Error& error) {
    REQUIRE(error.code() == hxrt::StatusCode::kInvalidArgument);
    REQUIRE_THAT(error.what(), Catch::Contains("Div: integer overflow"));
  }
}

TEMPLATE_TEST_CASE("Floating Div by zero follows IEEE 754", "[cpu][elementwise]", float, double) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const std::vector<T> out =
      rt.execute("Div", {rt.tensor<T>({3}, {1, -1, 0}), rt.tensor<T>({}, {0})})
          .template to_vector<T>();
  REQUIRE(out[0] == std::numeric_limits<T>::infinity());
  REQUIRE(out[1] == -std::numeric_limits<T>::infinity());
  REQUIRE(std::isnan(out[2]));
}
