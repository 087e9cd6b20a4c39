// Host-to-device and device-to-host bandwidth, from pinned and from pageable host memory,
// through the runtime (Runtime::from_host, Tensor::copy_to_host) against raw cudaMemcpyAsync.
#pragma once

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

// Registers the eight benchmarks; `runtime` (with a GPU:0) must outlive the benchmark run.
void register_cuda_copy_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
