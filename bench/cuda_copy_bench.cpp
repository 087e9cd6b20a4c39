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

enum class Direction { kHostToDevice, kDeviceToHost };
enum class HostMemory { kPinned, kPageable };

// The host side of a copy: page-locked or ordinary heap memory, written once so that no page
// is touched for the first time inside a timed copy. Page-locked memory is the runtime's own
// (Runtime::pinned_memory) on its side, which from_host then uploads straight, and
// cudaMallocHost's on the direct side.
class HostBuffer {
 public:
  HostBuffer(HostMemory kind, size_t bytes, hxrt::Runtime* runtime) {
    if (kind == HostMemory::kPinned && runtime != nullptr) {
      runtime_pinned_ = runtime->pinned_memory(bytes, kGpu);
      data_ = runtime_pinned_.data();
    } else if (kind == HostMemory::kPinned) {
      pinned_ = std::make_unique<PinnedBuffer>(bytes);
      data_ = pinned_->get();
    } else {
      pageable_.resize(bytes);
      data_ = pageable_.data();
    }
    std::memset(data_, 1, bytes);
  }
  void* get() const { return data_; }

 private:
  hxrt::PinnedMemory runtime_pinned_;
  std::unique_ptr<PinnedBuffer> pinned_;
  std::vector<unsigned char> pageable_;
  void* data_ = nullptr;
};

// Each call returns once the bytes have arrived, as each raw copy below does: a from_host is
// waited for. A host-to-device copy makes a new tensor, so its output allocation (a cached
// block after the first call) is part of what is measured, as an application would see it.
void copy_through_runtime(benchmark::State& state, hxrt::Runtime& runtime, Direction direction,
                          HostMemory memory, size_t bytes) {
  const int64_t floats = static_cast<int64_t>(bytes / sizeof(float));
  try {
    const HostBuffer host(memory, bytes, &runtime);
    const hxrt::Tensor on_device =
        runtime.from_host(hxrt::DType::kF32, {floats}, host.get(), bytes, kGpu);
    for (auto _ : state) {
      if (direction == Direction::kHostToDevice) {
        hxrt::Tensor copy = runtime.from_host(hxrt::DType::kF32, {floats}, host.get(), bytes, kGpu);
        copy.wait();
      } else {
        on_device.copy_to_host(host.get(), bytes);
      }
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

void copy_direct(benchmark::State& state, Direction direction, HostMemory memory, size_t bytes) {
  try {
    const HostBuffer host(memory, bytes, nullptr);
    const DeviceBuffer device(bytes);
    const Stream stream;
    for (auto _ : state) {
      if (direction == Direction::kHostToDevice) {
        check_cuda(
            cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice, stream.get()),
            "cudaMemcpyAsync");
      } else {
        check_cuda(
            cudaMemcpyAsync(host.get(), device.get(), bytes, cudaMemcpyDeviceToHost, stream.get()),
            "cudaMemcpyAsync");
      }
      check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

// "4KiB", "16MiB", "1GiB".
std::string size_text(size_t bytes) {
  if (bytes >= (size_t{1} << 30)) return std::to_string(bytes >> 30) + "GiB";
  if (bytes >= (size_t{1} << 20)) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

}  // namespace

void register_cuda_copy_benchmarks(hxrt::Runtime& runtime) {
  const auto register_pair = [&runtime](const std::string& runtime_name,
                                        const std::string& direct_name, Direction direction,
                                        HostMemory memory, size_t bytes) {
    benchmark::RegisterBenchmark(runtime_name.c_str(), copy_through_runtime, std::ref(runtime),
                                 direction, memory, bytes)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(direct_name.c_str(), copy_direct, direction, memory, bytes)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  };
  register_pair(kH2DPinnedRuntime, kH2DPinnedDirect, Direction::kHostToDevice, HostMemory::kPinned,
                kBytes);
  register_pair(kH2DPageableRuntime, kH2DPageableDirect, Direction::kHostToDevice,
                HostMemory::kPageable, kBytes);
  register_pair(kD2HPinnedRuntime, kD2HPinnedDirect, Direction::kDeviceToHost, HostMemory::kPinned,
                kBytes);
  register_pair(kD2HPageableRuntime, kD2HPageableDirect, Direction::kDeviceToHost,
                HostMemory::kPageable, kBytes);
  for (const UploadSweepPoint& point : upload_sweep()) {
    register_pair(point.runtime_name, point.direct_name, Direction::kHostToDevice,
                  point.pinned ? HostMemory::kPinned : HostMemory::kPageable, point.bytes);
  }
}

const std::vector<UploadSweepPoint>& upload_sweep() {
  static const std::vector<UploadSweepPoint> points = [] {
    std::vector<UploadSweepPoint> made;
    for (bool pinned : {false, true}) {
      for (size_t bytes : {size_t{4} << 10, size_t{1} << 20, size_t{16} << 20,
                           size_t{256} << 20, size_t{1} << 30}) {
        const std::string kind = pinned ? "pinned" : "pageable";
        const std::string name = "CudaUpload_" + kind + "_" + size_text(bytes);
        made.push_back({"h2d " + kind + " " + size_text(bytes), name + "/runtime_from_host",
                        name + "/direct_cudaMemcpyAsync", pinned, bytes});
      }
    }
    return made;
  }();
  return points;
}

}  // namespace hxrt_bench
