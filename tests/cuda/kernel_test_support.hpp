// Shared pieces of the GPU kernel tests: one runtime with the CPU and CUDA plugins, seeded
// random inputs of any float dtype, the op run on GPU:0 and the CPU plugin's result for the same
// inputs, and an element-by-element comparison with a tolerance.
//
// Every op is checked against the CPU plugin. The CPU has no f16 or bf16 arithmetic, so for
// those the reference is what a program would write on the CPU: cast the inputs to f32, run the
// op, cast the result back.
#pragma once

#include <hxrt/hxrt.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugin_test_support.hpp"

namespace cuda_kernel_test {

inline const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
inline const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

// The float dtypes, and the ones the element-wise GPU kernels take.
inline const std::vector<hxrt::DType> kFloatDTypes = {hxrt::DType::kF32, hxrt::DType::kF64,
                                                      hxrt::DType::kF16, hxrt::DType::kBF16};
inline const std::vector<hxrt::DType> kElementwiseDTypes = {hxrt::DType::kF32, hxrt::DType::kF16,
                                                            hxrt::DType::kBF16};

// One runtime per test process with the freshly built CPU and CUDA plugins (by path; see
// plugin_test_support.hpp, whose CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime()) skips a test case
// where there is no GPU) and strict placement, so that an op sent to GPU:0 runs there or fails.
hxrt::Runtime& runtime();

// A CPU tensor of `dtype` holding `values` rounded to it (through the CPU's Cast).
hxrt::Tensor cpu_tensor(hxrt::DType dtype, const hxrt::Shape& shape,
                        const std::vector<double>& values);
// `count` values drawn uniformly from [low, high) with a fixed seed.
std::vector<double> random_values(size_t count, uint32_t seed, double low = -10, double high = 10);
// A CPU tensor of random values (cpu_tensor of random_values).
hxrt::Tensor random_tensor(hxrt::DType dtype, const hxrt::Shape& shape, uint32_t seed,
                           double low = -10, double high = 10);

// The elements of a float tensor on any device, exactly, as doubles.
std::vector<double> values_of(const hxrt::Tensor& tensor);

// The op on GPU:0 (its inputs copied there by the runtime); checks that it ran there.
hxrt::Tensor run_on_gpu(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                        const hxrt::Attrs& attrs = {});
// The CPU plugin's result for the same call, computed in f32 when the inputs are f16 or bf16
// and cast back to their dtype.
hxrt::Tensor cpu_reference(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                           const hxrt::Attrs& attrs = {});

// The relative tolerance of an element-wise result of `dtype`: 1e-5 for f32, 1e-12 for f64,
// 1e-2 for f16, 2e-2 for bf16.
double relative_tolerance(hxrt::DType dtype);

// Checks dtype, shape and every element: NaN matches NaN, infinities match themselves, and
// otherwise |got - want| <= tolerance(index, want). One CHECK per tensor; a failure names the
// first element that differs and how many do.
using Tolerance = std::function<double(size_t index, double want)>;
void check_elements(const hxrt::Tensor& got, const hxrt::Tensor& want, const Tolerance& tolerance);
// With tolerance relative_tolerance(dtype) * |want|.
void check_close(const hxrt::Tensor& got, const hxrt::Tensor& want);
// With no tolerance: the same value in every element (conversions that round once).
void check_equal(const hxrt::Tensor& got, const hxrt::Tensor& want);

}  // namespace cuda_kernel_test
