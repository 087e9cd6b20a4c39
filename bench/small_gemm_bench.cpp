#include "small_gemm_bench.hpp"

#include <cblas.h>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "blas/gemm.hpp"

namespace hxrt_bench {
namespace {

template <class T>
std::vector<T> random_matrix(int64_t elements, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> values(static_cast<size_t>(elements));
  for (T& value : values) value = static_cast<T>(uniform(engine));
  return values;
}

template <class T, bool kSmall>
void gemm_path(benchmark::State& state, hxcpu::GemmShape shape) {
  const std::vector<T> a = random_matrix<T>(shape.m * shape.k, 1);
  const std::vector<T> b = random_matrix<T>(shape.k * shape.n, 2);
  std::vector<T> c(static_cast<size_t>(shape.m * shape.n));
  for (auto _ : state) {
    if (kSmall) {
      hxcpu::small_gemm(shape, a.data(), b.data(), c.data());
    } else {
      hxcpu::blas_gemm(shape, a.data(), b.data(), c.data());
    }
    benchmark::ClobberMemory();
  }
}

struct Extents {
  int64_t m, n, k;
};

template <class T>
void register_paths(const char* dtype, bool transpose_b, Extents extents) {
  const hxcpu::GemmShape shape{extents.m, extents.n,  extents.k,   extents.k,
                               transpose_b ? extents.k : extents.n, extents.n,
                               false,       transpose_b};
  const std::string suffix = std::string("/") + dtype + (transpose_b ? "/nt/" : "/nn/") +
                             std::to_string(extents.m) + "x" + std::to_string(extents.n) + "x" +
                             std::to_string(extents.k);
  benchmark::RegisterBenchmark(("GemmPath/small" + suffix).c_str(), gemm_path<T, true>, shape)
      ->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark(("GemmPath/blas" + suffix).c_str(), gemm_path<T, false>, shape)
      ->Unit(benchmark::kNanosecond);
}

void matmul_through_runtime(benchmark::State& state, hxrt::Runtime& runtime, int64_t n) {
  try {
    const hxrt::Tensor a = runtime.tensor<float>({n, n}, random_matrix<float>(n * n, 1));
    const hxrt::Tensor b = runtime.tensor<float>({n, n}, random_matrix<float>(n * n, 2));
    for (auto _ : state) {
      hxrt::Tensor c = runtime.execute("MatMul", {a, b});
      benchmark::DoNotOptimize(c);
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

void matmul_direct(benchmark::State& state, int64_t n) {
  const std::vector<float> a = random_matrix<float>(n * n, 1);
  const std::vector<float> b = random_matrix<float>(n * n, 2);
  std::vector<float> c(static_cast<size_t>(n * n));
  const int dim = static_cast<int>(n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, dim, dim, dim, 1.0f, a.data(), dim,
                b.data(), dim, 0.0f, c.data(), dim);
    benchmark::ClobberMemory();
  }
}

}  // namespace

void register_gemm_path_benchmarks() {
  // Squares from 2 to 16, and thin shapes of the works 128 and 512 (m * n * k).
  const Extents shapes[] = {{2, 2, 2},   {3, 3, 3},   {4, 4, 4},   {5, 5, 5},   {6, 6, 6},
                            {7, 7, 7},   {8, 8, 8},   {10, 10, 10}, {12, 12, 12}, {16, 16, 16},
                            {16, 8, 1},  {1, 8, 16},  {8, 1, 16},  {2, 16, 4},  {16, 2, 4},
                            {32, 16, 1}, {1, 16, 32}, {16, 1, 32}, {2, 32, 8},  {32, 2, 8}};
  for (const Extents& extents : shapes) {
    register_paths<float>("f32", false, extents);
    register_paths<double>("f64", false, extents);
    register_paths<float>("f32", true, extents);
  }
}

void register_matmul_size_benchmarks(hxrt::Runtime& runtime) {
  for (const int64_t n : {2, 4, 8, 16, 32, 64}) {
    const std::string size = "/" + std::to_string(n);
    benchmark::RegisterBenchmark(("MatMulSizes/runtime_execute" + size).c_str(),
                                 matmul_through_runtime, std::ref(runtime), n)
        ->Unit(benchmark::kNanosecond);
    benchmark::RegisterBenchmark(("MatMulSizes/direct_cblas_sgemm" + size).c_str(),
                                 matmul_direct, n)
        ->Unit(benchmark::kNanosecond);
  }
}

}  // namespace hxrt_bench
