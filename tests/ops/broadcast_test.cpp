#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "hxrt/error.hpp"
#include "ops/broadcast.hpp"

using hxrt::DType;
using hxrt::Shape;
using hxrt_test_ops::f32;
using hxrt_test_ops::infer;
using hxrt_test_ops::infer_error;
using hxrt_test_ops::meta;
using Catch::Contains;
using Catch::Equals;

namespace {

const char* const kBinaryOps[] = {"Add", "Sub", "Mul", "Div"};

std::vector<int64_t> strides_of(const Shape& input, const Shape& output) {
  std::vector<int64_t> strides(static_cast<size_t>(output.rank()), -1);
  hxrt::detail::broadcast_strides(input, output, strides.data());
  return strides;
}

}  // namespace

TEST_CASE("binary element-wise ops broadcast as NumPy does") {
  for (const char* op : kBinaryOps) {
    INFO(op);
    CHECK(infer(op, {f32({2, 3}), f32({2, 3})}).shape == Shape{2, 3});
    CHECK(infer(op, {f32({2, 3}), f32({3})}).shape == Shape{2, 3});
    CHECK(infer(op, {f32({3}), f32({2, 3})}).shape == Shape{2, 3});
    CHECK(infer(op, {f32({2, 1}), f32({1, 3})}).shape == Shape{2, 3});
    CHECK(infer(op, {f32({2, 3}), f32({})}).shape == Shape{2, 3});
    CHECK(infer(op, {f32({}), f32({2, 3})}).shape == Shape{2, 3});
    CHECK(infer(op, {f32({4, 1, 3}), f32({5, 1})}).shape == Shape{4, 5, 3});
    // The larger rank wins even where the higher-rank operand is all ones, as in NumPy.
    CHECK(infer(op, {f32({2, 3}), f32({1, 1, 1})}).shape == Shape{1, 2, 3});
    CHECK(infer(op, {f32({1, 1}), f32({})}).shape == Shape{1, 1});
    // An extent 1 against 0 gives 0: empty tensors broadcast too.
    CHECK(infer(op, {f32({0, 3}), f32({1, 3})}).shape == Shape{0, 3});
    CHECK(infer(op, {f32({0, 3}), f32({})}).shape == Shape{0, 3});
    CHECK(infer(op, {meta(DType::kI64, {4}), meta(DType::kI64, {1})}).dtype == DType::kI64);
  }
}

TEST_CASE("shapes that do not broadcast are refused naming both shapes and the axis") {
  CHECK_THAT(infer_error("Add", {f32({2, 3}), f32({4})}),
             Equals("Add: operands could not be broadcast together with shapes [2, 3] and [4]: "
                    "axis 1 of the result (-1 from the end) has extent 3 in the first and 4 in "
                    "the second; aligned at their last axes, each pair of extents must be equal "
                    "or one of them 1"));
  CHECK_THAT(infer_error("Mul", {f32({2, 3}), f32({3, 2})}),
             Contains("Mul: operands could not be broadcast together with shapes [2, 3] and "
                      "[3, 2]: axis 0 of the result (-2 from the end) has extent 2 in the first "
                      "and 3 in the second"));
  CHECK_THAT(infer_error("Sub", {f32({5, 2, 3}), f32({4, 3})}),
             Contains("axis 1 of the result (-2 from the end) has extent 2 in the first and 4"));
  CHECK_THAT(infer_error("Div", {f32({2}), f32({0})}),
             Contains("Div: operands could not be broadcast together with shapes [2] and [0]"));
}

TEST_CASE("a broadcast result too large for a shape is refused, not overflowed") {
  const int64_t big = int64_t{1} << 40;
  CHECK_THAT(infer_error("Add", {f32({big, 1}), f32({1, big})}),
             Contains("Add: shapes [1099511627776, 1] and [1, 1099511627776] broadcast to a "
                      "shape that cannot be made"));
}

TEST_CASE("broadcast strides are 0 where an input repeats and dense elsewhere") {
  CHECK(strides_of({2, 3}, {2, 3}) == std::vector<int64_t>{3, 1});
  CHECK(strides_of({3}, {2, 3}) == std::vector<int64_t>{0, 1});
  CHECK(strides_of({2, 1}, {2, 3}) == std::vector<int64_t>{1, 0});
  CHECK(strides_of({1, 3}, {2, 3}) == std::vector<int64_t>{0, 1});
  CHECK(strides_of({}, {2, 3}) == std::vector<int64_t>{0, 0});
  CHECK(strides_of({4, 1, 3}, {4, 5, 3}) == std::vector<int64_t>{3, 0, 1});
  CHECK(strides_of({5, 1}, {4, 5, 3}) == std::vector<int64_t>{0, 1, 0});
  CHECK(strides_of({}, {}).empty());
}
