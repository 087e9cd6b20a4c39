// Bool tensors from std::vector<bool>, which packs bits: stored as one byte per element, 0 or 1.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

TEST_CASE("tensor<bool> and to_vector<bool> carry std::vector<bool> both ways") {
  hxrt::Runtime rt = cpu_runtime();
  const std::vector<bool> values = {true, false, false, true, true, false};
  hxrt::Tensor flags = rt.tensor<bool>({2, 3}, values);
  CHECK(flags.dtype() == hxrt::DType::kBool);
  CHECK(flags.byte_size() == 6);
  CHECK(flags.to_vector<bool>() == values);
  CHECK(flags.to_string() == "[[true, false, false], [true, true, false]]");

  // Bytes 0 and 1 underneath, as Cast reads them.
  hxrt::Tensor numbers = rt.execute("Cast", {flags}, {{"dtype", hxrt::DType::kI32}});
  CHECK(numbers.to_vector<int32_t>() == std::vector<int32_t>{1, 0, 0, 1, 1, 0});
  hxrt::Tensor back = rt.execute("Cast", {numbers}, {{"dtype", hxrt::DType::kBool}});
  CHECK(back.to_vector<bool>() == values);

  CHECK(rt.tensor<bool>({0}, {}).to_vector<bool>().empty());
  auto wrong_count = error_from([&] { rt.tensor<bool>({4}, {true}); });
  REQUIRE(wrong_count);
  CHECK_THAT(wrong_count->what(), Contains("needs 4 bytes, got 1"));
  auto wrong_type = error_from([&] { numbers.to_vector<bool>(); });
  REQUIRE(wrong_type);
  CHECK_THAT(wrong_type->what(), Contains("to_vector<bool>() on a tensor of dtype int32"));
}

TEST_CASE("from_host refuses a bool byte other than 0 and 1") {
  hxrt::Runtime rt = cpu_runtime();
  const unsigned char bytes[] = {1, 0, 2};
  auto error = error_from([&] { rt.from_host(hxrt::DType::kBool, {3}, bytes, sizeof bytes); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("bool element 2 holds the byte 2"));
}
