// NumPy broadcasting of the binary element-wise ops, end to end on the CPU plugin: the core
// infers the shape and hands the kernel its inputs already broadcast (stride 0 where they
// repeat); incompatible shapes are refused with NumPy's message.
#include <catch2/catch.hpp>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

TEST_CASE("a row broadcasts over the rows of a matrix: [2,3] + [3]") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor x = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  hxrt::Tensor row = rt.tensor<float>({3}, {10, 20, 30});
  hxrt::Tensor sum = rt.execute("Add", {x, row});
  CHECK(sum.shape() == hxrt::Shape{2, 3});
  CHECK(sum.to_vector<float>() == std::vector<float>{11, 22, 33, 14, 25, 36});
  // Either operand may be the smaller one.
  hxrt::Tensor difference = rt.execute("Sub", {row, x});
  CHECK(difference.shape() == hxrt::Shape{2, 3});
  CHECK(difference.to_vector<float>() == std::vector<float>{9, 18, 27, 6, 15, 24});
}

TEST_CASE("a column and a row broadcast to a matrix: [2,1] * [1,3]") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor column = rt.tensor<int32_t>({2, 1}, {1, 2});
  hxrt::Tensor row = rt.tensor<int32_t>({1, 3}, {10, 20, 30});
  hxrt::Tensor product = rt.execute("Mul", {column, row});
  CHECK(product.shape() == hxrt::Shape{2, 3});
  CHECK(product.to_vector<int32_t>() == std::vector<int32_t>{10, 20, 30, 20, 40, 60});
  hxrt::Tensor sum = rt.execute("Add", {column, row});
  CHECK(sum.to_vector<int32_t>() == std::vector<int32_t>{11, 21, 31, 12, 22, 32});
}

TEST_CASE("a scalar broadcasts to any shape: scalar + [4], [4] / scalar") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor scalar = rt.tensor<double>({}, {2});
  hxrt::Tensor vector = rt.tensor<double>({4}, {1, 2, 3, 4});
  hxrt::Tensor sum = rt.execute("Add", {scalar, vector});
  CHECK(sum.shape() == hxrt::Shape{4});
  CHECK(sum.to_vector<double>() == std::vector<double>{3, 4, 5, 6});
  hxrt::Tensor quotient = rt.execute("Div", {vector, scalar});
  CHECK(quotient.to_vector<double>() == std::vector<double>{0.5, 1, 1.5, 2});
}

TEST_CASE("shapes that do not broadcast are refused with NumPy's message") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor x = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  hxrt::Tensor four = rt.tensor<float>({4}, {1, 2, 3, 4});
  auto error = error_from([&] { rt.execute("Add", {x, four}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             Contains("operands could not be broadcast together with shapes [2, 3] and [4]"));
  // Equal ranks do not make equal extents.
  hxrt::Tensor y = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  auto transposed = error_from([&] { rt.execute("Mul", {x, y}); });
  REQUIRE(transposed);
  CHECK_THAT(transposed->what(), Contains("with shapes [2, 3] and [3, 2]"));
}
