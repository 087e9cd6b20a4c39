// hxrt_eager_loop: the tiny eager op and the direct BLAS call it stands for, each in a loop of
// its own function, for bench/count_instructions.sh to count under callgrind. Wall clocks on a
// shared machine move by tens of percent; instruction counts repeat to the instruction, so
// they show what a change to the hot path costs.
//
//   hxrt_eager_loop [ops]   (default 10000; the first 1000 of each loop warm caches first)
#include <cblas.h>

#include <cstdio>
#include <cstdlib>

#include "hxrt/hxrt.hpp"

// Not inlined, so that callgrind can collect exactly these calls by function name.
__attribute__((noinline)) void hxrt_eager_matmul_2x2(hxrt::Runtime& rt, const hxrt::Tensor& a,
                                                      const hxrt::Tensor& b, long ops) {
  for (long i = 0; i < ops; ++i) hxrt::Tensor c = rt.execute("MatMul", {a, b});
}

__attribute__((noinline)) void direct_sgemm_2x2(const float* a, const float* b, float* c,
                                                long ops) {
  for (long i = 0; i < ops; ++i) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
  }
}

int main(int argc, char** argv) {
  const long ops = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 10000;
  if (ops <= 0) {
    std::fprintf(stderr, "usage: %s [ops > 0]\n", argv[0]);
    return 2;
  }
  hxrt::RuntimeOptions options;
  options.log_level = hxrt::LogLevel::kWarning;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const float values[4] = {1, 2, 3, 4};
  float out[4];
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  hxrt::Tensor b = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  hxrt_eager_matmul_2x2(rt, a, b, 1000);
  direct_sgemm_2x2(values, values, out, 1000);
  hxrt_eager_matmul_2x2(rt, a, b, ops);
  direct_sgemm_2x2(values, values, out, ops);
  std::printf("%ld ops each\n", ops);
  return 0;
}
