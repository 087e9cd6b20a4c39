// FusedGemm on GPU:0 (cuBLASLt) against the CPU plugin, for f32, f16 and bf16: every
// transpose, C as a bias of the columns ([N], [1, N]), as a matrix scaled by beta, absent or
// ignored (beta 0), alpha, every activation (Relu through cuBLASLt's epilogue, the others
// through the plugin's pass), K = 0; and a C cuBLASLt cannot add, declined. MatMulBias,
// which runs on FusedGemm's kernel, on a stack of rows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

struct FusedGemmCase {
  int64_t m, k, n;
  std::optional<hxrt::Shape> c;  // absent: no C
  double alpha, beta;
};

const FusedGemmCase kFusedGemmCases[] = {
    {3, 4, 5, std::nullopt, 1.0, 1.0},
    {3, 4, 5, hxrt::Shape{5}, 1.0, 1.0},
    {3, 4, 5, hxrt::Shape{1, 5}, 0.5, 1.0},
    {3, 4, 5, hxrt::Shape{3, 5}, 1.0, 0.5},
    {3, 4, 5, hxrt::Shape{3, 1}, 2.0, 0.0},  // beta 0: C ignored, whatever its shape
    {64, 33, 17, hxrt::Shape{17}, 1.0, 1.0},
    {1, 300, 1, hxrt::Shape{1}, 1.0, 1.0},
    {129, 257, 65, hxrt::Shape{129, 65}, -1.0, 2.0},
    {256, 512, 128, hxrt::Shape{128}, 1.0, 1.0},  // a layer: the epilogue's case
    {4, 0, 3, hxrt::Shape{3}, 1.0, 1.0},          // K = 0: the bias alone
    {0, 4, 3, hxrt::Shape{3}, 1.0, 1.0},
};

hxrt::Shape gemm_operand(int64_t rows, int64_t cols, bool transpose) {
  return transpose ? hxrt::Shape{cols, rows} : hxrt::Shape{rows, cols};
}

// sum over l of |alpha a(i, l) b(l, j)|, through the CPU's Gemm of |A| and |B| in f32.
std::vector<double> gemm_scale(const std::vector<hxrt::Tensor>& inputs, const hxrt::Attrs& attrs,
                               double alpha) {
  hxrt::Attrs product = attrs;
  product.set("alpha", std::fabs(alpha));
  std::vector<hxrt::Tensor> absolute;
  for (size_t i = 0; i < 2; ++i) {
    const hxrt::Tensor f32 =
        runtime().execute("Cast", {inputs[i]}, {{"dtype", hxrt::DType::kF32}}, kCpu0);
    absolute.push_back(runtime().execute("Abs", {f32}, {}, kCpu0));
  }
  return values_of(runtime().execute("Gemm", absolute, product, kCpu0));
}

void check_fused_gemm(hxrt::DType dtype, const FusedGemmCase& gemm, bool transpose_a,
                      bool transpose_b, const char* activation, uint32_t seed) {
  INFO("FusedGemm " << activation << ' ' << hxrt::dtype_name(dtype) << " m=" << gemm.m << " k="
                    << gemm.k << " n=" << gemm.n << " C " << (gemm.c ? gemm.c->to_string() : "none")
                    << " alpha=" << gemm.alpha << " beta=" << gemm.beta << " transA=" << transpose_a
                    << " transB=" << transpose_b);
  std::vector<hxrt::Tensor> inputs = {
      random_tensor(dtype, gemm_operand(gemm.m, gemm.k, transpose_a), seed, -1, 1),
      random_tensor(dtype, gemm_operand(gemm.k, gemm.n, transpose_b), seed + 1, -1, 1)};
  if (gemm.c) inputs.push_back(random_tensor(dtype, *gemm.c, seed + 2, -1, 1));
  const hxrt::Attrs product = {{"transA", int64_t{transpose_a}},
                               {"transB", int64_t{transpose_b}},
                               {"alpha", gemm.alpha},
                               {"beta", gemm.beta}};
  hxrt::Attrs attrs = product;
  attrs.set("activation", std::string(activation));
  attrs.set("activation_alpha", 0.125);
  const hxrt::Tensor got = run_on_gpu("FusedGemm", inputs, attrs);
  const hxrt::Tensor want = cpu_reference("FusedGemm", inputs, attrs);
  const std::vector<double> scale = gemm_scale(inputs, product, gemm.alpha);
  const double relative =
      std::max(2 * relative_tolerance(dtype), 2.0 * static_cast<double>(gemm.k) * 0x1p-24);
  const double c_scale = std::fabs(gemm.beta);
  check_elements(got, want, [&](size_t index, double w) {
    return relative * (std::fabs(w) + scale[index] + c_scale);
  });
}

}  // namespace

TEST_CASE("GPU FusedGemm matches the CPU for every C, transpose and activation",
          "[cuda][fused_gemm]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 28000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const FusedGemmCase& gemm : kFusedGemmCases) {
      for (const bool transpose_a : {false, true}) {
        for (const bool transpose_b : {false, true}) {
          for (const char* activation : {"Relu", "LeakyRelu", "Sigmoid", "Tanh", "Gelu"}) {
            check_fused_gemm(dtype, gemm, transpose_a, transpose_b, activation, seed += 3);
          }
        }
      }
    }
  }
}

TEST_CASE("GPU FusedGemm declines a C cuBLASLt cannot add", "[cuda][fused_gemm]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const hxrt::Tensor a = random_tensor(hxrt::DType::kF32, {3, 4}, 29000, -1, 1);
  const hxrt::Tensor b = random_tensor(hxrt::DType::kF32, {4, 5}, 29001, -1, 1);
  const hxrt::Tensor column = random_tensor(hxrt::DType::kF32, {3, 1}, 29002, -1, 1);
  const hxrt::Tensor row = random_tensor(hxrt::DType::kF32, {5}, 29003, -1, 1);
  const hxrt::Attrs relu = {{"activation", std::string("Relu")}};
  CHECK_THROWS_WITH(runtime().execute("FusedGemm", {a, b, column}, relu, kGpu0),
                    Catch::Contains("cuBLASLt adds a vector of the output's columns"));
  hxrt::Attrs scaled = relu;
  scaled.set("beta", 0.5);
  CHECK_THROWS_WITH(runtime().execute("FusedGemm", {a, b, row}, scaled, kGpu0),
                    Catch::Contains("C of shape [5] with beta 0.5"));
}

TEST_CASE("GPU MatMulBias, a stack of rows by a matrix plus a bias, matches the CPU",
          "[cuda][fused_gemm]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 29100;
  const int64_t k = 24;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const char* activation : {"", "Relu", "Gelu"}) {
      INFO("MatMulBias " << hxrt::dtype_name(dtype) << " activation '" << activation << "'");
      const std::vector<hxrt::Tensor> inputs = {
          random_tensor(dtype, {2, 7, k}, seed += 3, -1, 1),
          random_tensor(dtype, {k, 40}, seed + 1, -1, 1),
          random_tensor(dtype, {40}, seed + 2, -1, 1)};
      hxrt::Attrs attrs;
      if (*activation != '\0') attrs.set("activation", std::string(activation));
      const hxrt::Tensor got = run_on_gpu("MatMulBias", inputs, attrs);
      const hxrt::Tensor want = cpu_reference("MatMulBias", inputs, attrs);
      CHECK(got.shape() == hxrt::Shape{2, 7, 40});
      const double relative =
          std::max(2 * relative_tolerance(dtype), 2.0 * static_cast<double>(k) * 0x1p-24);
      check_elements(got, want, [&](size_t, double w) {
        return relative * (std::fabs(w) + static_cast<double>(k) + 1);
      });
    }
  }
}

}  // namespace cuda_kernel_test
