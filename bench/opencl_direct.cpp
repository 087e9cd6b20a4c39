#include "opencl_direct.hpp"

#include <stdexcept>
#include <string>

#include "kernels/program_text.hpp"

namespace hxrt_bench {

namespace {

void check(cl_int error, const char* call) {
  if (error != CL_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed with " + std::to_string(error));
  }
}

constexpr size_t kTile = 16;  // program.cl's HXCL_TILE

}  // namespace

DirectOpenClMatMul::DirectOpenClMatMul(size_t n, const float* a, const float* b) : n_(n) {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  cl_int error = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  check(error, "clCreateContext");
  queue_ = clCreateCommandQueue(context_, device, 0, &error);
  check(error, "clCreateCommandQueue");
  const char* text = hxopencl::kProgramText;
  program_ = clCreateProgramWithSource(context_, 1, &text, nullptr, &error);
  check(error, "clCreateProgramWithSource");
  check(clBuildProgram(program_, 1, &device, "-cl-std=CL1.2", nullptr, nullptr),
        "clBuildProgram");
  kernel_ = clCreateKernel(program_, "matmul_f32", &error);
  check(error, "clCreateKernel");
  const size_t bytes = n * n * sizeof(float);
  a_ = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                      const_cast<float*>(a), &error);
  check(error, "clCreateBuffer");
  b_ = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                      const_cast<float*>(b), &error);
  check(error, "clCreateBuffer");
  c_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &error);
  check(error, "clCreateBuffer");
}

DirectOpenClMatMul::~DirectOpenClMatMul() {
  for (cl_mem buffer : {a_, b_, c_}) {
    if (buffer != nullptr) clReleaseMemObject(buffer);
  }
  if (kernel_ != nullptr) clReleaseKernel(kernel_);
  if (program_ != nullptr) clReleaseProgram(program_);
  if (queue_ != nullptr) clReleaseCommandQueue(queue_);
  if (context_ != nullptr) clReleaseContext(context_);
}

void DirectOpenClMatMul::run() {
  const cl_ulong zero = 0;
  const cl_long n = static_cast<cl_long>(n_);
  cl_uint index = 0;
  for (cl_mem buffer : {a_, b_, c_}) {
    check(clSetKernelArg(kernel_, index++, sizeof buffer, &buffer), "clSetKernelArg");
    check(clSetKernelArg(kernel_, index++, sizeof zero, &zero), "clSetKernelArg");
  }
  for (cl_long value : {n, n, n, n, n}) {  // m, n, k, lda, ldb
    check(clSetKernelArg(kernel_, index++, sizeof value, &value), "clSetKernelArg");
  }
  const size_t rounded = (n_ + kTile - 1) / kTile * kTile;
  const size_t global[2] = {rounded, rounded};
  const size_t local[2] = {kTile, kTile};
  check(clEnqueueNDRangeKernel(queue_, kernel_, 2, nullptr, global, local, 0, nullptr,
                               nullptr),
        "clEnqueueNDRangeKernel");
  check(clFinish(queue_), "clFinish");
}

float DirectOpenClMatMul::result(size_t index) const {
  float value = 0;
  check(clEnqueueReadBuffer(queue_, c_, CL_TRUE, index * sizeof(float), sizeof value, &value, 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  return value;
}

}  // namespace hxrt_bench
