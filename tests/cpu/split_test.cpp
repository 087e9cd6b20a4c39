// Split on the CPU plugin through the eager API, where its reference cases (checked by the
// conformance kit) do not reach: every part returned by execute_multi, and execute refusing a
// call of several outputs.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "cpu_test_support.hpp"

using Ints = std::vector<int64_t>;

TEST_CASE("Split returns one tensor per part, and execute asks for execute_multi",
          "[cpu][split]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<int32_t>({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const std::vector<hxrt::Tensor> parts =
      rt.execute_multi("Split", {x}, {{"axis", int64_t{1}}, {"num_outputs", int64_t{3}}});
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].to_string() == "[[0, 1], [5, 6]]");
  CHECK(parts[1].to_string() == "[[2, 3], [7, 8]]");
  CHECK(parts[2].to_string() == "[[4], [9]]");
  const std::vector<hxrt::Tensor> listed =
      rt.execute_multi("Split", {x}, {{"split", Ints{1, 1}}});
  REQUIRE(listed.size() == 2);
  CHECK(listed[1].to_string() == "[[5, 6, 7, 8, 9]]");
  // One part is one output, which execute returns.
  CHECK(rt.execute("Split", {x}).to_string() == x.to_string());
  try {
    rt.execute("Split", {x}, {{"num_outputs", int64_t{2}}});
    FAIL("execute returned one of Split's two outputs");
  } catch (const hxrt::Error& error) {
    CHECK_THAT(error.what(),
               Catch::Contains("Split has 2 outputs; call execute_multi to receive them all"));
  }
}
