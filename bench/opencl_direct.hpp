// The plugin's MatMul kernel (program.cl's matmul_f32) enqueued directly on the first OpenCL
// device, without the plugin: the baseline of the OpenCL MatMul benchmark.
#pragma once

#include <CL/cl.h>

#include <cstddef>

namespace hxrt_bench {

class DirectOpenClMatMul {
 public:
  // c = a x b for n x n float32 matrices of the given values; throws std::runtime_error
  // naming the OpenCL call that failed.
  DirectOpenClMatMul(size_t n, const float* a, const float* b);
  ~DirectOpenClMatMul();
  DirectOpenClMatMul(const DirectOpenClMatMul&) = delete;
  DirectOpenClMatMul& operator=(const DirectOpenClMatMul&) = delete;

  // Sets the arguments, enqueues the kernel and waits for it, as the plugin does per call.
  void run();
  // Element `index` of c.
  float result(size_t index) const;

 private:
  size_t n_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  cl_mem a_ = nullptr, b_ = nullptr, c_ = nullptr;
};

}  // namespace hxrt_bench
