// Relu on the CPU plugin.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "cpu_test_support.hpp"

TEMPLATE_TEST_CASE("Relu keeps non-negative values and zeroes negative ones", "[cpu][relu]",
                   float, double, int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Shape shape = GENERATE(hxrt::Shape{3, 7}, hxrt::Shape{}, hxrt::Shape{0},
                                     hxrt::Shape{1001});
  CAPTURE(shape.to_string());
  const std::vector<T> x = cpu_test::random_values<T>(static_cast<size_t>(shape.num_elements()), 7);
  const std::vector<T> y = rt.execute("Relu", {rt.tensor<T>(shape, x)}).template to_vector<T>();
  REQUIRE(y.size() == x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i, x[i]);
    REQUIRE(y[i] == (x[i] > T(0) ? x[i] : T(0)));
  }
}

TEMPLATE_TEST_CASE("Relu passes NaN and infinities through", "[cpu][relu]", float, double) {
  using T = TestType;
  using Limits = std::numeric_limits<T>;
  hxrt::Runtime& rt = cpu_test::runtime();
  const std::vector<T> y =
      rt.execute("Relu", {rt.tensor<T>({4}, {Limits::quiet_NaN(), Limits::infinity(),
                                             -Limits::infinity(), T(-0.5)})})
          .template to_vector<T>();
  REQUIRE(std::isnan(y[0]));
  REQUIRE(y[1] == Limits::infinity());
  REQUIRE(y[2] == T(0));
  REQUIRE(y[3] == T(0));
}
