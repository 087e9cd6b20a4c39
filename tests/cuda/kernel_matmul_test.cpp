// MatMul on GPU:0 (cuBLAS) against the CPU plugin (OpenBLAS), for every float dtype, with and
// without transposes, on square, non-square, 1-element and empty shapes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

struct GemmCase {
  int64_t m, k, n;
};

// The stored shape of an operand that is rows x cols after its transpose.
hxrt::Shape stored(int64_t rows, int64_t cols, bool transpose) {
  return transpose ? hxrt::Shape{cols, rows} : hxrt::Shape{rows, cols};
}

// sum over l of |a(i, l) b(l, j)|: the scale of the rounding errors of element (i, j) of a
// product, whatever order the terms are added in.
std::vector<double> absolute_products(const hxrt::Tensor& a, const hxrt::Tensor& b,
                                      const GemmCase& shape, bool transpose_a, bool transpose_b) {
  const std::vector<double> a_values = values_of(a);
  const std::vector<double> b_values = values_of(b);
  const auto at = [](const std::vector<double>& values, int64_t row, int64_t col, int64_t cols,
                     bool transpose, int64_t rows) {
    return transpose ? values[static_cast<size_t>(col * rows + row)]
                     : values[static_cast<size_t>(row * cols + col)];
  };
  std::vector<double> result(static_cast<size_t>(shape.m * shape.n), 0.0);
  for (int64_t i = 0; i < shape.m; ++i) {
    for (int64_t j = 0; j < shape.n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < shape.k; ++l) {
        sum += std::fabs(at(a_values, i, l, shape.k, transpose_a, shape.m) *
                         at(b_values, l, j, shape.n, transpose_b, shape.k));
      }
      result[static_cast<size_t>(i * shape.n + j)] = sum;
    }
  }
  return result;
}

// f64 accumulates in f64, everything else in f32: k additions can each lose half a unit of
// the accumulator, on both sides of the comparison; below that, the dtype's own tolerance.
double gemm_relative_tolerance(hxrt::DType dtype, int64_t k) {
  const double unit = dtype == hxrt::DType::kF64 ? 0x1p-53 : 0x1p-24;
  return std::max(relative_tolerance(dtype), 2.0 * static_cast<double>(k) * unit);
}

void check_gemm(hxrt::DType dtype, const GemmCase& shape, bool transpose_a, bool transpose_b,
                uint32_t seed, hxrt::Attrs attrs = {}, double relative = 0) {
  INFO("m=" << shape.m << " k=" << shape.k << " n=" << shape.n << " transpose_a=" << transpose_a
            << " transpose_b=" << transpose_b << " dtype=" << hxrt::dtype_name(dtype));
  const hxrt::Tensor a =
      random_tensor(dtype, stored(shape.m, shape.k, transpose_a), seed, -1.0, 1.0);
  const hxrt::Tensor b =
      random_tensor(dtype, stored(shape.k, shape.n, transpose_b), seed + 1, -1.0, 1.0);
  attrs.set("transpose_a", transpose_a);
  attrs.set("transpose_b", transpose_b);
  const hxrt::Tensor got = run_on_gpu("MatMul", {a, b}, attrs);
  const hxrt::Tensor want = cpu_reference("MatMul", {a, b}, attrs);
  const std::vector<double> scale = absolute_products(a, b, shape, transpose_a, transpose_b);
  if (relative == 0) relative = gemm_relative_tolerance(dtype, shape.k);
  check_elements(got, want, [&](size_t index, double w) {
    // The output's own rounding (|w| scale) plus the accumulation's (the products' scale).
    return relative * (std::fabs(w) + scale[index]);
  });
}

const GemmCase kShapes[] = {{1, 1, 1},    {3, 5, 7},   {16, 16, 16},
                            {64, 33, 17}, {1, 300, 1}, {129, 257, 65}};
// m, k or n of 0: empty outputs, and k == 0, an output of zeros.
const GemmCase kEmptyShapes[] = {{0, 4, 3}, {4, 3, 0}, {4, 0, 3}, {0, 0, 0}};

}  // namespace

TEST_CASE("GPU MatMul matches the CPU for every float dtype and transpose", "[cuda][matmul]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 100;
  for (const hxrt::DType dtype : kFloatDTypes) {
    for (const GemmCase& shape : kShapes) {
      for (const bool transpose_a : {false, true}) {
        for (const bool transpose_b : {false, true}) {
          check_gemm(dtype, shape, transpose_a, transpose_b, seed += 2);
        }
      }
    }
  }
}

TEST_CASE("GPU MatMul of empty shapes gives empty or zero outputs", "[cuda][matmul]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 500;
  for (const hxrt::DType dtype : kFloatDTypes) {
    for (const GemmCase& shape : kEmptyShapes) {
      for (const bool transpose_a : {false, true}) {
        check_gemm(dtype, shape, transpose_a, !transpose_a, seed += 2);
      }
    }
  }
}

TEST_CASE("GPU MatMul accepts allow_tf32 for f32, with TF32's precision", "[cuda][matmul]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  // TF32 keeps 10 mantissa bits of each operand, as f16 does: f16's tolerance covers it.
  const double tf32_tolerance = relative_tolerance(hxrt::DType::kF16);
  check_gemm(hxrt::DType::kF32, {64, 128, 32}, false, true, 900, {{"allow_tf32", true}},
             tf32_tolerance);
  check_gemm(hxrt::DType::kF32, {64, 128, 32}, false, false, 902, {{"allow_tf32", false}});
}

TEST_CASE("GPU MatMul rejects an allow_tf32 that is not a bool", "[cuda][matmul]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const hxrt::Tensor a = random_tensor(hxrt::DType::kF32, {2, 2}, 910);
  CHECK_THROWS_AS(runtime().execute("MatMul", {a, a}, {{"allow_tf32", int64_t{1}}}, kGpu0),
                  hxrt::Error);
}

}  // namespace cuda_kernel_test
