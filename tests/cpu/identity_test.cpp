// Identity on the CPU plugin: a byte-exact copy for every dtype.
#include <catch2/catch.hpp>

#include <iterator>
#include <random>
#include <vector>

#include "cpu_test_support.hpp"

TEST_CASE("Identity copies every dtype bit for bit", "[cpu][identity]") {
  const hxrt::DType dtype = GENERATE(from_range(std::begin(hxrt::kAllDTypes),
                                                std::end(hxrt::kAllDTypes)));
  const hxrt::Shape shape = GENERATE(hxrt::Shape{2, 3, 5}, hxrt::Shape{}, hxrt::Shape{4, 0});
  CAPTURE(hxrt::dtype_name(dtype), shape.to_string());

  std::vector<uint8_t> bytes(static_cast<size_t>(shape.num_elements()) * hxrt::dtype_size(dtype));
  std::mt19937 engine(5);
  for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(engine());
  if (dtype == hxrt::DType::kBool) {
    for (uint8_t& byte : bytes) byte &= 1;
  }
  const hxrt::Tensor input = cpu_test::raw_tensor(dtype, shape, bytes);
  const hxrt::Tensor output = cpu_test::runtime().execute("Identity", {input});

  REQUIRE(output.dtype() == dtype);
  REQUIRE(output.shape() == shape);
  REQUIRE(cpu_test::raw_bytes(output) == bytes);
}
