// The CPU kernels on the integer dtypes of ABI 2.7 (int8, uint8, int16, uint16, uint32,
// uint64), against values worked by hand: arithmetic wraps modulo 2^bits with no undefined
// behaviour on the way (UBSan checks the products of uint16, promoted to int), unsigned values
// divide and compare as unsigned, reductions of a narrow type do not wrap midway, and MaxPool
// and Pow take them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

template <class T>
std::vector<T> run(const char* op, const std::vector<hxrt::Tensor>& inputs,
                   const hxrt::Attrs& attrs = {}) {
  return cpu_test::runtime().execute(op, inputs, attrs).template to_vector<T>();
}

template <class T>
hxrt::Tensor tensor(std::vector<T> values) {
  const auto count = static_cast<int64_t>(values.size());
  return cpu_test::runtime().tensor<T>({count}, values);
}

}  // namespace

TEST_CASE("integer Add, Sub and Mul wrap modulo 2^bits", "[cpu][integers]") {
  CHECK(run<uint8_t>("Add", {tensor<uint8_t>({250, 5}), tensor<uint8_t>({10, 5})}) ==
        std::vector<uint8_t>{4, 10});
  CHECK(run<uint8_t>("Sub", {tensor<uint8_t>({3, 9}), tensor<uint8_t>({5, 9})}) ==
        std::vector<uint8_t>{254, 0});
  // 400 is 144 modulo 256, -112 as int8; -128 * -1 is 128, which wraps to -128.
  CHECK(run<int8_t>("Mul", {tensor<int8_t>({20, -128}), tensor<int8_t>({20, -1})}) ==
        std::vector<int8_t>{-112, -128});
  // 65535 * 65535 is 1 modulo 2^16; computed in a promoted int it would overflow.
  CHECK(run<uint16_t>("Mul", {tensor<uint16_t>({65535}), tensor<uint16_t>({65535})}) ==
        std::vector<uint16_t>{1});
  CHECK(run<int16_t>("Add", {tensor<int16_t>({32767}), tensor<int16_t>({1})}) ==
        std::vector<int16_t>{-32768});
  CHECK(run<uint64_t>("Add", {tensor<uint64_t>({~uint64_t{0}}), tensor<uint64_t>({2})}) ==
        std::vector<uint64_t>{1});
}

TEST_CASE("unsigned integers divide and compare as unsigned", "[cpu][integers]") {
  // 4294967295 is -1 read as int32: no overflow for uint32, only a quotient of 0.
  CHECK(run<uint32_t>("Div", {tensor<uint32_t>({4000000000u, 7}),
                              tensor<uint32_t>({4294967295u, 2})}) ==
        std::vector<uint32_t>{0, 3});
  CHECK(run<uint64_t>("Div", {tensor<uint64_t>({~uint64_t{0}}), tensor<uint64_t>({3})}) ==
        std::vector<uint64_t>{6148914691236517205u});
  const uint64_t high = (uint64_t{1} << 63) + 5;  // negative if read as int64
  const hxrt::Tensor a = tensor<uint64_t>({high, 3});
  const hxrt::Tensor b = tensor<uint64_t>({7, uint64_t{1} << 63});
  CHECK(run<uint64_t>("Max", {a, b}) == std::vector<uint64_t>{high, uint64_t{1} << 63});
  CHECK(run<uint64_t>("Min", {a, b}) == std::vector<uint64_t>{7, 3});
  CHECK(run<bool>("Less", {a, b}) == std::vector<bool>{false, true});
}

TEST_CASE("integer division by zero fails the call for every integer dtype", "[cpu][integers]") {
  const auto divide_by_zero = [](const hxrt::Tensor& x) {
    try {
      cpu_test::runtime().execute("Div", {x, x});
    } catch (const hxrt::Error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK_THAT(divide_by_zero(tensor<uint8_t>({0})), Catch::Contains("integer division by zero"));
  CHECK_THAT(divide_by_zero(tensor<int16_t>({0})), Catch::Contains("integer division by zero"));
  CHECK_THAT(divide_by_zero(tensor<uint64_t>({0})), Catch::Contains("integer division by zero"));
}

TEST_CASE("Neg, Abs and Sign of the narrow integers", "[cpu][integers]") {
  CHECK(run<int8_t>("Abs", {tensor<int8_t>({-128, -5, 7})}) == std::vector<int8_t>{-128, 5, 7});
  CHECK(run<uint8_t>("Neg", {tensor<uint8_t>({1, 0})}) == std::vector<uint8_t>{255, 0});
  CHECK(run<uint16_t>("Sign", {tensor<uint16_t>({0, 9})}) == std::vector<uint16_t>{0, 1});
  CHECK(run<int16_t>("Sign", {tensor<int16_t>({-3, 0, 9})}) == std::vector<int16_t>{-1, 0, 1});
  CHECK(run<uint32_t>("Abs", {tensor<uint32_t>({4294967295u})}) ==
        std::vector<uint32_t>{4294967295u});
}

TEST_CASE("reductions of narrow integers do not wrap midway", "[cpu][integers]") {
  const hxrt::Tensor x = tensor<int8_t>({100, 100, 100, -50});
  const hxrt::Attrs every_axis{{"keepdims", false}};
  // The sum, 250, is stored back in int8 (wrapped to -6); the mean of it is 62, not -6 / 4.
  CHECK(run<int8_t>("ReduceSum", {x}, every_axis) == std::vector<int8_t>{-6});
  CHECK(run<int8_t>("ReduceMean", {x}, every_axis) == std::vector<int8_t>{62});
  // The squares' sum, 32500, would wrap in uint8; its root, 180.3, is truncated.
  CHECK(run<uint8_t>("ReduceL2", {tensor<uint8_t>({100, 100, 100, 50})}, every_axis) ==
        std::vector<uint8_t>{180});
  const hxrt::Tensor empty = cpu_test::runtime().tensor<int8_t>({0}, {});
  CHECK(run<int8_t>("ReduceMax", {empty}, every_axis) ==
        std::vector<int8_t>{std::numeric_limits<int8_t>::lowest()});
  CHECK(run<uint16_t>("ReduceMin", {cpu_test::runtime().tensor<uint16_t>({0}, {})},
                      every_axis) == std::vector<uint16_t>{65535});
}

TEST_CASE("Clip of an integer dtype saturates its bounds to the dtype", "[cpu][integers]") {
  CHECK(run<int8_t>("Clip", {tensor<int8_t>({-128, 3, 127})}, {{"min", -2.5}, {"max", 4.0}}) ==
        std::vector<int8_t>{-2, 3, 4});
  // Bounds beyond uint8's range clip nothing; a negative max clips everything to 0.
  CHECK(run<uint8_t>("Clip", {tensor<uint8_t>({0, 200, 255})}, {{"min", -3.0}, {"max", 300.0}}) ==
        std::vector<uint8_t>{0, 200, 255});
  CHECK(run<uint8_t>("Clip", {tensor<uint8_t>({0, 200})}, {{"min", 3.0}, {"max", -1.0}}) ==
        std::vector<uint8_t>{0, 0});
}

TEST_CASE("Pow of integer bases, and with unsigned exponents", "[cpu][integers]") {
  CHECK(run<float>("Pow", {tensor<float>({2, 4}), tensor<uint64_t>({3, 0})}) ==
        std::vector<float>{8, 1});
  CHECK(run<float>("Pow", {tensor<float>({2}), tensor<uint32_t>({10})}) ==
        std::vector<float>{1024});
  // A negative exponent leaves 1 as 1 and truncates every other power to 0.
  CHECK(run<uint8_t>("Pow", {tensor<uint8_t>({2, 1, 3}), tensor<int32_t>({-1, -5, 5})}) ==
        std::vector<uint8_t>{0, 1, 243});
  CHECK(run<uint8_t>("Pow", {tensor<uint8_t>({2, 3}), tensor<uint8_t>({8, 5})}) ==
        std::vector<uint8_t>{0, 243});
  CHECK(run<int8_t>("Pow", {tensor<int8_t>({-1, -2}), tensor<int8_t>({-3, 7})}) ==
        std::vector<int8_t>{-1, -128});
}

TEST_CASE("MaxPool takes int8 and uint8", "[cpu][integers]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Attrs attrs{{"kernel_shape", std::vector<int64_t>{2, 2}}};
  const hxrt::Tensor u8 = rt.tensor<uint8_t>({1, 1, 2, 3}, {1, 200, 7, 255, 3, 9});
  CHECK(rt.execute("MaxPool", {u8}, attrs).to_vector<uint8_t>() ==
        std::vector<uint8_t>{255, 200});
  const hxrt::Tensor i8 = rt.tensor<int8_t>({1, 1, 2, 2}, {-128, -5, -7, -100});
  CHECK(rt.execute("MaxPool", {i8}, attrs).to_vector<int8_t>() == std::vector<int8_t>{-5});
}
