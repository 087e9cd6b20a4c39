#include <catch2/catch.hpp>

#include <string>

#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::run_program;

TEST_CASE("quickstart logs the MatMul placement on CPU:0, then prints the product") {
  const hxrt_test::ProgramResult result = run_program(built_program("quickstart") + " 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);

  const size_t placement = result.output.find(
      "Executing op MatMul in device /job:localhost/replica:0/task:0/device:CPU:0");
  const size_t product = result.output.find("[[22, 28], [49, 64]]");
  REQUIRE(placement != std::string::npos);
  REQUIRE(product != std::string::npos);
  CHECK(placement < product);
}
