#include "cuda_gemm_bench.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cuda_support.hpp"

namespace hxrt_bench {
namespace {

constexpr int64_t kN = 8192;

// Row-major n x n operands with fixed pseudo-random values in [-1, 1), as raw element bytes
// of `dtype` (f32 or bf16), shared by both sides of a comparison.
struct Operands {
  explicit Operands(hxrt::DType dtype) : dtype(dtype) {
    const size_t count = static_cast<size_t>(kN * kN);
    std::mt19937 engine(42);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (std::vector<unsigned char>* operand : {&a, &b}) {
      operand->resize(count * hxrt::dtype_size(dtype));
      for (size_t i = 0; i < count; ++i) store(*operand, i, uniform(engine));
    }
  }

  size_t bytes() const { return a.size(); }

  hxrt::DType dtype;
  std::vector<unsigned char> a, b;

 private:
  // bf16 is the upper half of an f32, rounded to nearest even (the values are finite).
  void store(std::vector<unsigned char>& bytes, size_t index, float value) const {
    if (dtype == hxrt::DType::kF32) {
      std::memcpy(bytes.data() + index * 4, &value, 4);
      return;
    }
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    const auto rounded = static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
    std::memcpy(bytes.data() + index * 2, &rounded, 2);
  }
};

// Drawing 2 x 8192^2 values takes about a second, and Google Benchmark calls each benchmark
// function several times (once per repetition, and more to size the runs): one set per dtype.
const Operands& operands_of(hxrt::DType dtype) {
  static const Operands f32(hxrt::DType::kF32);
  static const Operands bf16(hxrt::DType::kBF16);
  return dtype == hxrt::DType::kF32 ? f32 : bf16;
}

void count_flops(benchmark::State& state, int64_t n) {
  // Shown per second with an SI prefix: "612T/s" is 612 TFLOP/s.
  state.counters["FLOP"] = benchmark::Counter(2.0 * static_cast<double>(n * n * n),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

// What the runtime's kernel asks of cuBLAS for a row-major product of `dtype`, with the same
// compute type (f32 accumulation, no TF32), on a stream of its own: operands uploaded once, the
// output allocated once.
class DirectGemm {
 public:
  explicit DirectGemm(hxrt::DType dtype)
      : type_(dtype == hxrt::DType::kF32 ? CUDA_R_32F : CUDA_R_16BF),
        a_(operands_of(dtype).bytes()),
        b_(operands_of(dtype).bytes()),
        c_(operands_of(dtype).bytes()),
        handle_(stream_) {
    const Operands& operands = operands_of(dtype);
    check_cuda(cudaMemcpy(a_.get(), operands.a.data(), operands.bytes(), cudaMemcpyHostToDevice),
               "cudaMemcpy");
    check_cuda(cudaMemcpy(b_.get(), operands.b.data(), operands.bytes(), cudaMemcpyHostToDevice),
               "cudaMemcpy");
  }

  // Queues one product; returns when cublasGemmEx does.
  void run() const {
    const float one = 1.0f, zero = 0.0f;
    const int n = static_cast<int>(kN);
    // Row-major C = A B is column-major C^T = B^T A^T: B first, as the plugin does.
    check_cublas(cublasGemmEx(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b_.get(),
                              type_, n, a_.get(), type_, n, &zero, c_.get(), type_, n,
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  }

 private:
  cudaDataType_t type_;
  DeviceBuffer a_, b_, c_;
  Stream stream_;
  CublasHandle handle_;
};

// The output is allocated by the runtime on every call, as an application would see it. The
// first call (which creates the plugin's cuBLAS handle and picks the algorithm) is not timed.
void gemm_through_runtime(benchmark::State& state, hxrt::Runtime& runtime, hxrt::DType dtype) {
  try {
    const Operands& operands = operands_of(dtype);
    const hxrt::Tensor a =
        runtime.from_host(dtype, {kN, kN}, operands.a.data(), operands.bytes(), kGpu);
    const hxrt::Tensor b =
        runtime.from_host(dtype, {kN, kN}, operands.b.data(), operands.bytes(), kGpu);
    runtime.execute("MatMul", {a, b}, {}, kGpu);
    synchronize_device();
    for (auto _ : state) {
      hxrt::Tensor c = runtime.execute("MatMul", {a, b}, {}, kGpu);
      synchronize_device();
      benchmark::DoNotOptimize(c);
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  count_flops(state, kN);
}

void gemm_direct(benchmark::State& state, hxrt::DType dtype) {
  try {
    const DirectGemm gemm(dtype);
    gemm.run();
    synchronize_device();
    for (auto _ : state) {
      gemm.run();
      synchronize_device();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  count_flops(state, kN);
}

// How long the host waits for execute to return, warm: issue 32 asks under 50 us of an f32
// GEMM of 8192 that runs for 20 ms. Each iteration's time is the call alone (manual time);
// the device is synchronised after it, untimed, so that no call queues behind another.
void gemm_return_through_runtime(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const Operands& operands = operands_of(hxrt::DType::kF32);
    const hxrt::Tensor a = runtime.from_host(hxrt::DType::kF32, {kN, kN}, operands.a.data(),
                                             operands.bytes(), kGpu);
    const hxrt::Tensor b = runtime.from_host(hxrt::DType::kF32, {kN, kN}, operands.b.data(),
                                             operands.bytes(), kGpu);
    for (int warm = 0; warm < 3; ++warm) runtime.execute("MatMul", {a, b}, {}, kGpu);
    synchronize_device();
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      hxrt::Tensor c = runtime.execute("MatMul", {a, b}, {}, kGpu);
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      state.SetIterationTime(took.count());
      synchronize_device();
      benchmark::DoNotOptimize(c);
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

// The same of cublasGemmEx itself, on the same operands.
void gemm_return_direct(benchmark::State& state) {
  try {
    const DirectGemm gemm(hxrt::DType::kF32);
    for (int warm = 0; warm < 3; ++warm) gemm.run();
    synchronize_device();
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      gemm.run();
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      state.SetIterationTime(took.count());
      synchronize_device();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

}  // namespace

void register_cuda_gemm_benchmarks(hxrt::Runtime& runtime) {
  // An f32 GEMM of 8192 takes tens of milliseconds: a second per repetition gives dozens.
  const auto register_pair = [&runtime](const char* runtime_name, const char* direct_name,
                                        hxrt::DType dtype) {
    benchmark::RegisterBenchmark(runtime_name, gemm_through_runtime, std::ref(runtime), dtype)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(1.0);
    benchmark::RegisterBenchmark(direct_name, gemm_direct, dtype)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(1.0);
  };
  register_pair(kGemmF32Runtime, kGemmF32Direct, hxrt::DType::kF32);
  register_pair(kGemmBF16Runtime, kGemmBF16Direct, hxrt::DType::kBF16);
  benchmark::RegisterBenchmark(kGemmReturnRuntime, gemm_return_through_runtime, std::ref(runtime))
      ->Unit(benchmark::kMicrosecond)
      ->UseManualTime()
      ->Iterations(50);
  benchmark::RegisterBenchmark(kGemmReturnDirect, gemm_return_direct)
      ->Unit(benchmark::kMicrosecond)
      ->UseManualTime()
      ->Iterations(50);
}

}  // namespace hxrt_bench
