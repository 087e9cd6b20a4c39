// TopK on the CPU plugin through the eager API, where its reference cases (checked by the
// conformance kit) do not reach: NaN, and ties on long lines.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu_test_support.hpp"

TEST_CASE("TopK puts NaN above every number and the lower index first among equals",
          "[cpu][top_k]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const hxrt::Tensor x = rt.tensor<float>({6}, {1, nan, 3, 1, 3, -2});
  const std::vector<hxrt::Tensor> largest =
      rt.execute_multi("TopK", {x}, {{"k", int64_t{4}}});
  REQUIRE(largest.size() == 2);
  const std::vector<float> values = largest[0].to_vector<float>();
  CHECK(std::isnan(values[0]));
  CHECK(std::vector<float>(values.begin() + 1, values.end()) == std::vector<float>{3, 3, 1});
  CHECK(largest[1].to_vector<int64_t>() == std::vector<int64_t>{1, 2, 4, 0});
  const std::vector<hxrt::Tensor> smallest =
      rt.execute_multi("TopK", {x}, {{"k", int64_t{3}}, {"largest", int64_t{0}}});
  CHECK(smallest[0].to_vector<float>() == std::vector<float>{-2, 1, 1});
  CHECK(smallest[1].to_vector<int64_t>() == std::vector<int64_t>{5, 0, 3});
}

TEST_CASE("TopK of a long line with many equal values keeps them in index order",
          "[cpu][top_k]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // 1000 values along axis 0 of [1000, 2], each of 0..9 a hundred times: the top 250 are the
  // nines, the eights and the first 50 sevens, each in index order.
  std::vector<int64_t> values(2000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>((i / 2 * 7) % 10);
  const hxrt::Tensor x = rt.tensor<int64_t>({1000, 2}, values);
  const std::vector<hxrt::Tensor> top =
      rt.execute_multi("TopK", {x}, {{"k", int64_t{250}}, {"axis", int64_t{0}}});
  const std::vector<int64_t> got = top[0].to_vector<int64_t>();
  const std::vector<int64_t> at = top[1].to_vector<int64_t>();
  for (int64_t column = 0; column < 2; ++column) {
    int64_t previous_index = -1;
    int64_t previous_value = 10;
    for (int64_t i = 0; i < 250; ++i) {
      const int64_t value = got[static_cast<size_t>(i * 2 + column)];
      const int64_t index = at[static_cast<size_t>(i * 2 + column)];
      INFO("column " << column << ", rank " << i);
      CHECK(value == values[static_cast<size_t>(index * 2 + column)]);
      CHECK(value == 9 - i / 100);
      CHECK((value < previous_value || index > previous_index));
      previous_value = value;
      previous_index = index;
    }
  }
}
