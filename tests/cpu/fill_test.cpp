// Fill on the CPU plugin: every dtype, with the value converted as Cast converts it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu_test_support.hpp"

TEST_CASE("Fill writes the converted value into every element of every dtype", "[cpu][fill]") {
  const hxrt::DType dtype = GENERATE(from_range(std::begin(hxrt::kAllDTypes),
                                                std::end(hxrt::kAllDTypes)));
  if (hxrt::is_float8(dtype)) return;  // only Cast converts to the 8-bit floats
  const std::vector<int64_t> shape = GENERATE(std::vector<int64_t>{2, 3}, std::vector<int64_t>{},
                                              std::vector<int64_t>{4, 0},
                                              std::vector<int64_t>{1, 1, 5});
  const double value = GENERATE(2.5, -1.0, 0.0, 1e-3);
  CAPTURE(hxrt::dtype_name(dtype), hxrt::Shape(shape).to_string(), value);

  const hxrt::Tensor out = cpu_test::runtime().execute(
      "Fill", {}, {{"shape", shape}, {"value", value}, {"dtype", dtype}});
  REQUIRE(out.dtype() == dtype);
  REQUIRE(out.shape() == hxrt::Shape(shape));

  // The expected element: the same conversion Cast applies to an f64 holding `value`.
  const hxrt::Tensor expected_element = cpu_test::runtime().execute(
      "Cast", {cpu_test::runtime().tensor<double>({1}, {value})}, {{"dtype", dtype}});
  const std::vector<uint8_t> element = cpu_test::raw_bytes(expected_element);
  const std::vector<uint8_t> bytes = cpu_test::raw_bytes(out);
  REQUIRE(bytes.size() == element.size() * static_cast<size_t>(out.num_elements()));
  for (size_t offset = 0; offset < bytes.size(); offset += element.size()) {
    CAPTURE(offset);
    REQUIRE(std::equal(element.begin(), element.end(), bytes.begin() + static_cast<long>(offset)));
  }
}

TEST_CASE("Fill defaults to float32 and takes an integer value", "[cpu][fill]") {
  const hxrt::Tensor out = cpu_test::runtime().execute(
      "Fill", {}, {{"shape", std::vector<int64_t>{3}}, {"value", int64_t{7}}});
  REQUIRE(out.dtype() == hxrt::DType::kF32);
  REQUIRE(out.to_vector<float>() == std::vector<float>{7, 7, 7});
}

TEST_CASE("Fill converts values exactly as documented", "[cpu][fill]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const auto fill = [&](double value, hxrt::DType dtype) {
    return rt.execute("Fill", {},
                      {{"shape", std::vector<int64_t>{2}}, {"value", value}, {"dtype", dtype}});
  };
  REQUIRE(fill(-2.75, hxrt::DType::kI32).to_vector<int32_t>() == std::vector<int32_t>{-2, -2});
  REQUIRE(fill(1e30, hxrt::DType::kI64).to_vector<int64_t>() ==
          std::vector<int64_t>(2, std::numeric_limits<int64_t>::max()));
  REQUIRE(cpu_test::raw_bytes(fill(0.25, hxrt::DType::kBool)) == std::vector<uint8_t>{1, 1});
  REQUIRE(cpu_test::raw_bytes(fill(1.5, hxrt::DType::kF16)) ==
          cpu_test::to_bytes(std::vector<uint16_t>{0x3E00, 0x3E00}));
  REQUIRE(cpu_test::raw_bytes(fill(1.5, hxrt::DType::kBF16)) ==
          cpu_test::to_bytes(std::vector<uint16_t>{0x3FC0, 0x3FC0}));
  const std::vector<double> nan = fill(std::nan(""), hxrt::DType::kF64).to_vector<double>();
  REQUIRE((std::isnan(nan[0]) && std::isnan(nan[1])));
}
