// AddN on the CPU plugin: element-wise sums of one to several tensors.
#include <catch2/catch.hpp>

#include <type_traits>
#include <vector>

#include "cpu_test_support.hpp"

TEMPLATE_TEST_CASE("AddN sums any number of tensors element by element", "[cpu][addn]", float,
                   double, int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const size_t input_count = GENERATE(1u, 2u, 5u);
  const hxrt::Shape shape = GENERATE(hxrt::Shape{4, 3}, hxrt::Shape{}, hxrt::Shape{0, 3},
                                     hxrt::Shape{257});
  CAPTURE(input_count, shape.to_string());

  const size_t count = static_cast<size_t>(shape.num_elements());
  std::vector<std::vector<T>> values;
  std::vector<hxrt::Tensor> inputs;
  for (size_t input = 0; input < input_count; ++input) {
    values.push_back(cpu_test::random_values<T>(count, static_cast<uint32_t>(100 + input)));
    inputs.push_back(rt.tensor<T>(shape, values.back()));
  }
  const hxrt::Tensor out = rt.execute("AddN", inputs);

  REQUIRE(out.shape() == shape);
  const std::vector<T> actual = out.to_vector<T>();
  REQUIRE(actual.size() == count);
  for (size_t i = 0; i < count; ++i) {
    // The same left-to-right order as the kernel: floats must then match exactly.
    T expected = values[0][i];
    for (size_t input = 1; input < input_count; ++input) expected += values[input][i];
    CAPTURE(i);
    REQUIRE(actual[i] == expected);
  }
}
