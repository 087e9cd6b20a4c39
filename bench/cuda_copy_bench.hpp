// Host-to-device and device-to-host bandwidth, from pinned and from pageable host memory,
// through the runtime (Runtime::from_host, Tensor::copy_to_host) against raw cudaMemcpyAsync.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kH2DPinnedRuntime[] = "CudaCopy_h2d_pinned_64MiB/runtime_from_host";
inline constexpr char kH2DPinnedDirect[] = "CudaCopy_h2d_pinned_64MiB/direct_cudaMemcpyAsync";
inline constexpr char kH2DPageableRuntime[] = "CudaCopy_h2d_pageable_64MiB/runtime_from_host";
inline constexpr char kH2DPageableDirect[] = "CudaCopy_h2d_pageable_64MiB/direct_cudaMemcpyAsync";
inline constexpr char kD2HPinnedRuntime[] = "CudaCopy_d2h_pinned_64MiB/runtime_copy_to_host";
inline constexpr char kD2HPinnedDirect[] = "CudaCopy_d2h_pinned_64MiB/direct_cudaMemcpyAsync";
inline constexpr char kD2HPageableRuntime[] = "CudaCopy_d2h_pageable_64MiB/runtime_copy_to_host";
inline constexpr char kD2HPageableDirect[] = "CudaCopy_d2h_pageable_64MiB/direct_cudaMemcpyAsync";

// One size of the upload sweep: from_host against cudaMemcpyAsync and a synchronise, 4 KiB to
// 1 GiB, from pageable and from page-locked memory.
struct UploadSweepPoint {
  std::string label;  // "h2d pageable 4KiB"
  std::string runtime_name;
  std::string direct_name;
  bool pinned;
  size_t bytes;
};
const std::vector<UploadSweepPoint>& upload_sweep();

// Registers the eight benchmarks of 64 MiB and the sweep's; `runtime` (with a GPU:0) must
// outlive the benchmark run.
void register_cuda_copy_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
