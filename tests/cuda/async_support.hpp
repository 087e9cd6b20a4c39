// Shared pieces of the asynchronous-execution tests on real GPUs: two logical GPUs cut from
// one physical GPU (the machine a test is lent may have just one), long MatMul queues, and a
// wall clock.
#pragma once

#include <hxrt/hxrt.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace cuda_async_test {

// An 8192 x 8192 f32 MatMul is about 1.1 TFLOP: 15 to 40 ms on a current data-centre GPU
// without TF32 (the kernels' default math), far longer than the host takes to enqueue it.
constexpr int64_t kBig = 8192;
constexpr int kChain = 8;

// Splits GPU:0 into two logical GPUs of `limit_mb` each and returns their names ("GPU:0",
// "GPU:1").
std::vector<std::string> two_logical_gpus(hxrt::Runtime& runtime, uint64_t limit_mb = 16384);

// A kBig x kBig f32 matrix on `device` with small values (so that a chain stays finite),
// completed before it returns.
hxrt::Tensor big_matrix(hxrt::Runtime& runtime, const std::string& device);

// Queues `count` MatMuls on `device`, each multiplying the previous product by `b`, starting
// from `a`; returns the last product without waiting for it.
hxrt::Tensor queue_matmuls(hxrt::Runtime& runtime, const std::string& device,
                           const hxrt::Tensor& a, const hxrt::Tensor& b, int count);

// Runs one small MatMul on `device` and waits for it: cuBLAS is loaded and each device's
// stream has its handle before anything is timed.
void warm_up(hxrt::Runtime& runtime, const std::string& device);

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace cuda_async_test
