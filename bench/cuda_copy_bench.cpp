#include "cuda_copy_bench.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda_support.hpp"

namespace hxrt_bench {
namespace {

constexpr size_t kBytes = size_t{64} << 20;
constexpr int64_t kFloats = static_cast<int64_t>(kBytes / sizeof(float));
const std::string kGpu = "/GPU:0";

enum class Direction { kHostToDevice, kDeviceToHost };
enum class HostMemory { kPinned, kPageable };

// The host side of a copy: page-locked (cudaMallocHost) or ordinary heap memory, written
// once so that no page is touched for the first time inside a timed copy.
class HostBuffer {
 public:
  explicit HostBuffer(HostMemory kind) {
    if (kind == HostMemory::kPinned) {
      pinned_ = std::make_unique<PinnedBuffer>(kBytes);
      data_ = pinned_->get();
    } else {
      pageable_.resize(kBytes);
      data_ = pageable_.data();
    }
    std::memset(data_, 1, kBytes);
  }
  void* get() const { return data_; }

 private:
  std::unique_ptr<PinnedBuffer> pinned_;
  std::vector<unsigned char> pageable_;
  void* data_ = nullptr;
};

// Each call returns once the bytes have arrived, as each raw copy below does. A host-to-device
// copy makes a new tensor, so its output allocation (a cached block after the first call) is
// part of what is measured, as an application would see it.
void copy_through_runtime(benchmark::State& state, hxrt::Runtime& runtime, Direction direction,
                          HostMemory memory) {
  try {
    const HostBuffer host(memory);
    const hxrt::Tensor on_device =
        runtime.from_host(hxrt::DType::kF32, {kFloats}, host.get(), kBytes, kGpu);
    for (auto _ : state) {
      if (direction == Direction::kHostToDevice) {
        hxrt::Tensor copy =
            runtime.from_host(hxrt::DType::kF32, {kFloats}, host.get(), kBytes, kGpu);
        benchmark::DoNotOptimize(copy);
      } else {
        on_device.copy_to_host(host.get(), kBytes);
      }
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kBytes));
}

void copy_direct(benchmark::State& state, Direction direction, HostMemory memory) {
  try {
    const HostBuffer host(memory);
    const DeviceBuffer device(kBytes);
    const Stream stream;
    for (auto _ : state) {
      if (direction == Direction::kHostToDevice) {
        check_cuda(
            cudaMemcpyAsync(device.get(), host.get(), kBytes, cudaMemcpyHostToDevice, stream.get()),
            "cudaMemcpyAsync");
      } else {
        check_cuda(
            cudaMemcpyAsync(host.get(), device.get(), kBytes, cudaMemcpyDeviceToHost, stream.get()),
            "cudaMemcpyAsync");
      }
      check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kBytes));
}

}  // namespace

void register_cuda_copy_benchmarks(hxrt::Runtime& runtime) {
  const auto register_pair = [&runtime](const char* runtime_name, const char* direct_name,
                                        Direction direction, HostMemory memory) {
    benchmark::RegisterBenchmark(runtime_name, copy_through_runtime, std::ref(runtime), direction,
                                 memory)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(direct_name, copy_direct, direction, memory)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  };
  register_pair(kH2DPinnedRuntime, kH2DPinnedDirect, Direction::kHostToDevice, HostMemory::kPinned);
  register_pair(kH2DPageableRuntime, kH2DPageableDirect, Direction::kHostToDevice,
                HostMemory::kPageable);
  register_pair(kD2HPinnedRuntime, kD2HPinnedDirect, Direction::kDeviceToHost, HostMemory::kPinned);
  register_pair(kD2HPageableRuntime, kD2HPageableDirect, Direction::kDeviceToHost,
                HostMemory::kPageable);
}

}  // namespace hxrt_bench
