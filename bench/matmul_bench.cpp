#include "matmul_bench.hpp"

#include <cblas.h>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace hxrt_bench {
namespace {

// Row-major n x n operands with fixed pseudo-random values, shared by both sides.
struct Operands {
  explicit Operands(int64_t n) : n(n), a(n * n), b(n * n) {
    std::mt19937 engine(42);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& x : a) x = uniform(engine);
    for (float& x : b) x = uniform(engine);
  }
  int64_t n;
  std::vector<float> a;
  std::vector<float> b;
};

void count_flops(benchmark::State& state, int64_t n) {
  // Shown per second with an SI prefix: "38.5G/s" is 38.5 GFLOP/s.
  state.counters["FLOP"] = benchmark::Counter(2.0 * static_cast<double>(n * n * n),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

// The output is allocated by the runtime on every call, as an application would see it.
void matmul_through_runtime(benchmark::State& state, hxrt::Runtime& runtime, int64_t n) {
  const Operands operands(n);
  try {
    const hxrt::Tensor a = runtime.tensor<float>({n, n}, operands.a);
    const hxrt::Tensor b = runtime.tensor<float>({n, n}, operands.b);
    for (auto _ : state) {
      hxrt::Tensor c = runtime.execute("MatMul", {a, b});
      benchmark::DoNotOptimize(c);
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
    return;
  }
  count_flops(state, n);
}

// The same through an hxrt::Op handle, resolved once: no lookup of the op by name per call.
void matmul_through_op(benchmark::State& state, hxrt::Runtime& runtime, int64_t n) {
  const Operands operands(n);
  try {
    const hxrt::Op matmul = runtime.op("MatMul");
    const hxrt::Tensor a = runtime.tensor<float>({n, n}, operands.a);
    const hxrt::Tensor b = runtime.tensor<float>({n, n}, operands.b);
    for (auto _ : state) {
      hxrt::Tensor c = runtime.execute(matmul, {a, b});
      benchmark::DoNotOptimize(c);
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
    return;
  }
  count_flops(state, n);
}

// An element-wise Add of 16 float32 through an Op handle, the output allocated per call...
void add_through_op(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const hxrt::Op add = runtime.op("Add");
    const hxrt::Tensor x = runtime.tensor<float>({16}, std::vector<float>(16, 1.5f));
    for (auto _ : state) {
      hxrt::Tensor y = runtime.execute(add, {x, x});
      benchmark::DoNotOptimize(y);
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

// ...and the loop it stands for, into an output allocated once.
void add_direct(benchmark::State& state) {
  std::vector<float> x(16, 1.5f);
  std::vector<float> y(16);
  for (auto _ : state) {
    benchmark::DoNotOptimize(x.data());
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] + x[i];
    benchmark::ClobberMemory();
  }
}

// The baseline: the raw library into an output allocated once.
void matmul_direct(benchmark::State& state, int64_t n) {
  const Operands operands(n);
  std::vector<float> c(n * n);
  const int dim = static_cast<int>(n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, dim, dim, dim, 1.0f,
                operands.a.data(), dim, operands.b.data(), dim, 0.0f, c.data(), dim);
    benchmark::ClobberMemory();
  }
  count_flops(state, n);
}

}  // namespace

void register_matmul_benchmarks(hxrt::Runtime& runtime) {
  constexpr int64_t kTiny = 2;
  constexpr int64_t kLarge = 2048;
  // Real time: OpenBLAS runs the large GEMM on its own threads, which CPU time of the
  // benchmark thread would not see.
  benchmark::RegisterBenchmark(kTinyRuntime, matmul_through_runtime, std::ref(runtime), kTiny)
      ->Unit(benchmark::kNanosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(kTinyRuntimeOp, matmul_through_op, std::ref(runtime), kTiny)
      ->Unit(benchmark::kNanosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(kTinyDirect, matmul_direct, kTiny)
      ->Unit(benchmark::kNanosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(kAddRuntimeOp, add_through_op, std::ref(runtime))
      ->Unit(benchmark::kNanosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(kAddDirect, add_direct)->Unit(benchmark::kNanosecond)->UseRealTime();
  // One large GEMM takes a good fraction of a second on a small machine: a short minimum
  // time per repetition keeps the default run short; --benchmark_repetitions runs it longer.
  benchmark::RegisterBenchmark(kLargeRuntime, matmul_through_runtime, std::ref(runtime), kLarge)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->MinTime(0.5);
  benchmark::RegisterBenchmark(kLargeDirect, matmul_direct, kLarge)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->MinTime(0.5);
}

}  // namespace hxrt_bench
