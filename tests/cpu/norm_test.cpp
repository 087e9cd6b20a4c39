// LayerNormalization's statistics on the CPU plugin where its reference cases (checked by the
// conformance kit) do not reach: runs of no elements, and bfloat16 statistics of f64 data.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "cpu_test_support.hpp"

TEST_CASE("LayerNormalization's Mean and InvStdDev are NaN for runs of no elements",
          "[cpu][norm]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // X [2, 0] normalized over its last axis: two runs, each empty.
  const hxrt::Tensor x = rt.tensor<float>({2, 0}, {});
  const std::vector<hxrt::Tensor> outputs =
      rt.execute_multi("LayerNormalization", {x, rt.tensor<float>({0}, {})});
  REQUIRE(outputs.size() == 3);
  CHECK(outputs[0].shape() == hxrt::Shape({2, 0}));
  for (int i = 1; i < 3; ++i) {
    REQUIRE(outputs[i].shape() == hxrt::Shape({2, 1}));
    for (float value : outputs[i].to_vector<float>()) CHECK(std::isnan(value));
  }
}

TEST_CASE("LayerNormalization keeps the statistics of f64 data as bfloat16 when asked",
          "[cpu][norm]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // Rows [1, 3] and [10, 14]: means 2 and 12, variances 1 and 4.
  const hxrt::Tensor x = rt.tensor<double>({2, 2}, {1, 3, 10, 14});
  const std::vector<hxrt::Tensor> outputs =
      rt.execute_multi("LayerNormalization", {x, rt.tensor<double>({2}, {1, 1})},
                       {{"epsilon", 0.0}, {"stash_type", int64_t{16}}});
  REQUIRE(outputs.size() == 3);
  CHECK(outputs[0].to_vector<double>() == std::vector<double>{-1, 1, -1, 1});
  CHECK(outputs[1].dtype() == hxrt::DType::kBF16);
  CHECK(outputs[2].dtype() == hxrt::DType::kBF16);
  // 2, 12, 1 and 0.5 are bfloat16 values: 0x4000, 0x4140, 0x3F80, 0x3F00.
  CHECK(cpu_test::raw_bytes(outputs[1]) ==
        cpu_test::to_bytes(std::vector<uint16_t>{0x4000, 0x4140}));
  CHECK(cpu_test::raw_bytes(outputs[2]) ==
        cpu_test::to_bytes(std::vector<uint16_t>{0x3F80, 0x3F00}));
}

TEST_CASE("LayerNormalization of rows enough for the intra-op threads gives every row's "
          "statistics and output", "[cpu][norm]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // 257 rows of 128 (past kParallelLeastElements, so split over the threads where there are
  // several, unevenly), each row its own mean and spread.
  const int64_t rows = 257, length = 128;
  std::vector<float> values = cpu_test::random_values<float>(rows * length, 21);
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t i = 0; i < length; ++i) values[row * length + i] += static_cast<float>(row);
  }
  const std::vector<float> scale = cpu_test::random_values<float>(length, 22);
  const std::vector<hxrt::Tensor> outputs = rt.execute_multi(
      "LayerNormalization",
      {rt.tensor<float>({rows, length}, values), rt.tensor<float>({length}, scale)});
  REQUIRE(outputs.size() == 3);
  const std::vector<float> y = outputs[0].to_vector<float>();
  const std::vector<float> means = outputs[1].to_vector<float>();
  const std::vector<float> inverses = outputs[2].to_vector<float>();
  for (int64_t row = 0; row < rows; ++row) {
    INFO("row " << row);
    double mean = 0, squares = 0;
    for (int64_t i = 0; i < length; ++i) mean += values[row * length + i];
    mean /= length;
    for (int64_t i = 0; i < length; ++i) {
      squares += (values[row * length + i] - mean) * (values[row * length + i] - mean);
    }
    const double inverse = 1 / std::sqrt(squares / length + 1e-5);
    CHECK(std::fabs(means[row] - mean) <= 1e-5 * (1 + std::fabs(mean)));
    CHECK(std::fabs(inverses[row] - inverse) <= 1e-5 * inverse);
    for (int64_t i = 0; i < length; i += 17) {
      const double expected = (values[row * length + i] - mean) * inverse * scale[i];
      CHECK(std::fabs(y[row * length + i] - expected) <= 1e-4 * (1 + std::fabs(expected)));
    }
  }
}
