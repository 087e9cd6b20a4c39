// hxrt_trace_loop: the tiny eager op of hxrt_eager_loop (a 2x2 f32 MatMul on CPU:0) with a
// timeline trace running, for bench/count_trace_instructions.sh to count under callgrind:
// the difference from hxrt_eager_loop's count is what recording costs per op (a host span
// and a kernel span, an allocation and a free). The trace is written to a file at the end.
//
//   hxrt_trace_loop [ops] [trace path]   (defaults: 10000, /tmp/hxrt_trace_loop.json)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hxrt/hxrt.hpp"

// Not inlined, so that callgrind can collect exactly these calls by function name.
__attribute__((noinline)) void hxrt_traced_matmul_2x2(hxrt::Runtime& rt, const hxrt::Tensor& a,
                                                       const hxrt::Tensor& b, long ops) {
  for (long i = 0; i < ops; ++i) hxrt::Tensor c = rt.execute("MatMul", {a, b});
}

int main(int argc, char** argv) {
  const long ops = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 10000;
  const std::string path = argc > 2 ? argv[2] : "/tmp/hxrt_trace_loop.json";
  if (ops <= 0) {
    std::fprintf(stderr, "usage: %s [ops > 0] [trace path]\n", argv[0]);
    return 2;
  }
  hxrt::RuntimeOptions options;
  options.log_level = hxrt::LogLevel::kWarning;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  hxrt::Tensor b = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  rt.start_trace(path);
  hxrt_traced_matmul_2x2(rt, a, b, 1000);  // warm-up: thread buffers, name caches
  hxrt_traced_matmul_2x2(rt, a, b, ops);
  rt.stop_trace();
  std::printf("%ld ops traced to %s\n", ops, path.c_str());
  return 0;
}
