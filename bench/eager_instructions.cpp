// hxrt_eager_loop: tiny eager ops and the direct BLAS call they stand for, each in a loop of
// its own function, for bench/count_instructions.sh to count under callgrind. Wall clocks on a
// shared machine move by tens of percent; instruction counts repeat to the instruction, so
// they show what a change to the hot path costs.
//
//   hxrt_eager_loop [ops]   (default 10000; each loop runs 1000 ops first to warm caches)
#include <cblas.h>

#include <cstdio>
#include <cstdlib>

#include "hxrt/hxrt.hpp"

// Not inlined, so that callgrind can collect exactly these calls by function name.
__attribute__((noinline)) void hxrt_eager_matmul_2x2(hxrt::Runtime& rt, const hxrt::Tensor& a,
                                                      const hxrt::Tensor& b, long ops) {
  for (long i = 0; i < ops; ++i) hxrt::Tensor c = rt.execute("MatMul", {a, b});
}

__attribute__((noinline)) void hxrt_eager_matmul_2x2_by_handle(hxrt::Runtime& rt,
                                                                const hxrt::Op& matmul,
                                                                const hxrt::Tensor& a,
                                                                const hxrt::Tensor& b, long ops) {
  for (long i = 0; i < ops; ++i) hxrt::Tensor c = rt.execute(matmul, {a, b});
}

__attribute__((noinline)) void hxrt_eager_add_16(hxrt::Runtime& rt, const hxrt::Op& add,
                                                  const hxrt::Tensor& x, long ops) {
  for (long i = 0; i < ops; ++i) hxrt::Tensor y = rt.execute(add, {x, x});
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
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  const hxrt::Tensor b = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  const hxrt::Tensor x = rt.tensor<float>({16}, std::vector<float>(16, 1.5f), "CPU:0");
  const hxrt::Op matmul = rt.op("MatMul");
  const hxrt::Op add = rt.op("Add");
  for (const long count : {1000L, ops}) {  // warm-up, then the counted calls
    hxrt_eager_matmul_2x2(rt, a, b, count);
    hxrt_eager_matmul_2x2_by_handle(rt, matmul, a, b, count);
    hxrt_eager_add_16(rt, add, x, count);
    direct_sgemm_2x2(values, values, out, count);
  }
  std::printf("%ld ops each\n", ops);
  return 0;
}
