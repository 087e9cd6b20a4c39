// The CPU kernels that switch to oneDNN past a size (Softmax, LogSoftmax and Gelu from
// kOneDnnLeastElements on), checked there against the same function in double: the reference
// cases, which the conformance kit runs, are smaller and stay on the loops.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

void check_near(const std::vector<float>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(i);
    // The reference cases' tolerance for f32 (ops/reference/tolerances.hpp).
    CHECK(std::fabs(got[i] - expected[i]) <= 1e-5 * (1 + std::fabs(expected[i])));
  }
}

}  // namespace

TEST_CASE("Softmax and LogSoftmax of attention-sized tensors, along any axis", "[cpu][onednn]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const std::vector<int64_t> shape = {2, 4, 16, 32};
  const std::vector<float> values = cpu_test::random_values<float>(4096, 7);  // in [-10, 10]
  const hxrt::Tensor x = rt.tensor<float>({2, 4, 16, 32}, values);
  for (const int64_t axis : {int64_t{-1}, int64_t{1}}) {
    for (const bool log : {false, true}) {
      INFO("axis " << axis << (log ? ", LogSoftmax" : ", Softmax"));
      const int64_t extent = shape[static_cast<size_t>(axis < 0 ? 3 : axis)];
      const int64_t inner = axis < 0 ? 1 : 16 * 32;
      std::vector<double> expected(values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        const int64_t at = static_cast<int64_t>(i);
        const int64_t start = at - (at / inner % extent) * inner;  // the line's first element
        double max = -INFINITY;
        for (int64_t k = 0; k < extent; ++k) max = std::fmax(max, values[start + k * inner]);
        double total = 0;
        for (int64_t k = 0; k < extent; ++k) total += std::exp(values[start + k * inner] - max);
        expected[i] = log ? values[i] - max - std::log(total) : std::exp(values[i] - max) / total;
      }
      const hxrt::Tensor y = rt.execute(log ? "LogSoftmax" : "Softmax", {x}, {{"axis", axis}});
      check_near(y.to_vector<float>(), expected);
    }
  }
}

TEST_CASE("Gelu, exact and tanh, of an MLP-sized tensor", "[cpu][onednn]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const std::vector<float> values = cpu_test::random_values<float>(2048, 11);
  const hxrt::Tensor x = rt.tensor<float>({16, 128}, values);
  for (const char* approximate : {"none", "tanh"}) {
    INFO(approximate);
    std::vector<double> expected;
    for (const float value : values) {
      const double v = value;
      expected.push_back(std::string(approximate) == "tanh"
                             ? 0.5 * v * (1 + std::tanh(0.7978845608028654 *
                                                        (v + 0.044715 * v * v * v)))
                             : 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
    }
    const hxrt::Tensor y = rt.execute("Gelu", {x}, {{"approximate", std::string(approximate)}});
    check_near(y.to_vector<float>(), expected);
  }
}

TEST_CASE("A convolution of a batch gives the same on every call while its first calls try it "
          "whole and image by image", "[cpu][onednn]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // A first layer (3 channels, as oneDNN reads them) and a later one (16, in its blocks).
  for (const int64_t channels : {int64_t{3}, int64_t{16}}) {
    INFO(channels << " input channels");
    const int64_t images = 4, size = 12, outputs = 8;
    const std::vector<float> x_values =
        cpu_test::random_values<float>(static_cast<size_t>(images * channels * size * size), 3);
    const std::vector<float> w_values =
        cpu_test::random_values<float>(static_cast<size_t>(outputs * channels * 9), 5);
    const std::vector<float> b_values = cpu_test::random_values<float>(outputs, 9);
    std::vector<double> expected;
    for (int64_t n = 0; n < images; ++n) {
      for (int64_t m = 0; m < outputs; ++m) {
        for (int64_t i = 0; i < size; ++i) {
          for (int64_t j = 0; j < size; ++j) {
            double sum = b_values[static_cast<size_t>(m)];
            for (int64_t c = 0; c < channels; ++c) {
              for (int64_t di = 0; di < 3; ++di) {
                for (int64_t dj = 0; dj < 3; ++dj) {
                  const int64_t row = i + di - 1, column = j + dj - 1;
                  if (row < 0 || row >= size || column < 0 || column >= size) continue;
                  sum += double{x_values[static_cast<size_t>(((n * channels + c) * size + row) *
                                                                 size + column)]} *
                         w_values[static_cast<size_t>(((m * channels + c) * 3 + di) * 3 + dj)];
                }
              }
            }
            expected.push_back(sum);
          }
        }
      }
    }
    const hxrt::Tensor x = rt.tensor<float>({images, channels, size, size}, x_values);
    const hxrt::Tensor w = rt.tensor<float>({outputs, channels, 3, 3}, w_values);
    const hxrt::Tensor b = rt.tensor<float>({outputs}, b_values);
    // FasterWay's trials alternate over the first six calls; the rest run the one kept.
    for (int call = 0; call < 8; ++call) {
      INFO("call " << call);
      const hxrt::Tensor y =
          rt.execute("Conv", {x, w, b}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
      std::vector<float> got = y.to_vector<float>();
      REQUIRE(got.size() == expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        INFO(i);
        CHECK(std::fabs(got[i] - expected[i]) <= 1e-4 * (1 + std::fabs(expected[i])));
      }
    }
  }
}
