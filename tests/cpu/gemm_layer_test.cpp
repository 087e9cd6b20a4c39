// Gemm's f32 layers on oneDNN's matmul (plugins/cpu/kernels/gemm.cpp, on_onednn): C of every
// shape that broadcasts to Y, both transposes, against a loop in double; and the calls that
// stay on OpenBLAS (alpha or beta other than 1, few columns) beside them.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

std::vector<float> random_floats(size_t count, std::mt19937& engine) {
  std::uniform_real_distribution<float> uniform(-2, 2);
  std::vector<float> values(count);
  for (float& value : values) value = uniform(engine);
  return values;
}

struct Layer {
  int64_t m, k, n;
  bool trans_a, trans_b;
  std::vector<int64_t> c_shape;  // empty: no C
  double alpha = 1, beta = 1;
};

// alpha * op(A) op(B) + beta * C in double, C broadcast as NumPy does.
std::vector<double> expected(const Layer& layer, const std::vector<float>& a,
                             const std::vector<float>& b, const std::vector<float>& c) {
  std::vector<double> y(static_cast<size_t>(layer.m * layer.n));
  const int64_t c_rows = layer.c_shape.size() == 2 ? layer.c_shape[0] : 1;
  const int64_t c_columns = layer.c_shape.empty() ? 1 : layer.c_shape.back();
  for (int64_t i = 0; i < layer.m; ++i) {
    for (int64_t j = 0; j < layer.n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < layer.k; ++p) {
        const float x = layer.trans_a ? a[static_cast<size_t>(p * layer.m + i)]
                                      : a[static_cast<size_t>(i * layer.k + p)];
        const float w = layer.trans_b ? b[static_cast<size_t>(j * layer.k + p)]
                                      : b[static_cast<size_t>(p * layer.n + j)];
        sum += static_cast<double>(x) * w;
      }
      double added = 0;
      if (!c.empty()) {
        added = c[static_cast<size_t>((c_rows == 1 ? 0 : i) * c_columns +
                                      (c_columns == 1 ? 0 : j))];
      }
      y[static_cast<size_t>(i * layer.n + j)] = layer.alpha * sum + layer.beta * added;
    }
  }
  return y;
}

}  // namespace

TEST_CASE("Gemm of f32 layers matches a loop for every C and transpose", "[cpu][gemm]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  std::mt19937 engine(7);
  const std::vector<Layer> layers = {
      {40, 70, 48, false, true, {48}},         {40, 70, 48, false, false, {1, 48}},
      {33, 64, 17, true, false, {33, 17}},     {33, 64, 17, true, true, {33, 1}},
      {64, 100, 32, false, true, {}},          {20, 30, 40, false, false, {}},
      {12, 50, 20, false, true, {1, 1}},       {64, 96, 10, false, true, {10}},  // OpenBLAS
      {30, 40, 50, false, false, {50}, 0.5, 1},  {30, 40, 50, false, false, {50}, 1, 2},
      {30, 40, 50, false, false, {50}, 1, 0},
  };
  for (const Layer& layer : layers) {
    INFO(layer.m << " x " << layer.k << " by " << layer.k << " x " << layer.n << ", transA "
                 << layer.trans_a << ", transB " << layer.trans_b << ", C of rank "
                 << layer.c_shape.size() << ", alpha " << layer.alpha << ", beta "
                 << layer.beta);
    const hxrt::Shape a_shape = layer.trans_a ? hxrt::Shape{layer.k, layer.m}
                                              : hxrt::Shape{layer.m, layer.k};
    const hxrt::Shape b_shape = layer.trans_b ? hxrt::Shape{layer.n, layer.k}
                                              : hxrt::Shape{layer.k, layer.n};
    const std::vector<float> a = random_floats(static_cast<size_t>(layer.m * layer.k), engine);
    const std::vector<float> b = random_floats(static_cast<size_t>(layer.k * layer.n), engine);
    std::vector<float> c;
    std::vector<hxrt::Tensor> inputs = {rt.tensor<float>(a_shape, a),
                                        rt.tensor<float>(b_shape, b)};
    if (!layer.c_shape.empty()) {
      const hxrt::Shape c_shape(layer.c_shape);
      c = random_floats(static_cast<size_t>(c_shape.num_elements()), engine);
      inputs.push_back(rt.tensor<float>(c_shape, c));
    }
    const hxrt::Attrs attrs = {{"transA", int64_t{layer.trans_a}},
                               {"transB", int64_t{layer.trans_b}},
                               {"alpha", layer.alpha},
                               {"beta", layer.beta}};
    const hxrt::Tensor y = rt.execute("Gemm", inputs, attrs);
    REQUIRE(y.shape() == hxrt::Shape{layer.m, layer.n});
    const std::vector<float> got = y.to_vector<float>();
    const std::vector<double> want = expected(layer, a, b, c);
    for (size_t i = 0; i < got.size(); ++i) {
      // k products of magnitude up to 4 each, rounded in f32.
      REQUIRE(std::abs(got[i] - want[i]) <= 1e-5 * 4 * static_cast<double>(layer.k) + 1e-5);
    }
  }
}
