// Asynchronous execution on the sim plugin's timed GPUs: a MatMul replicated over several
// devices against the same MatMul on one, and chains of upload-then-MatMul over devices,
// whose wall time is compared with what the sim's performance model allows.
#pragma once

#include "async_config.hpp"
#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kReplicationOne[] = "AsyncReplication/1_device";
inline constexpr char kReplicationMany[] = "AsyncReplication/N_devices";
inline constexpr char kOverlap[] = "AsyncOverlap/upload_then_matmul";
// The overlap benchmark's counter: (serial - actual) / (serial - ideal), from 0 (the devices
// ran one after another) to 1 (each device's chain ran as if alone).
inline constexpr char kOverlapCounter[] = "overlap";

// Registers the three benchmarks; `runtime` and `config` must outlive the benchmark run.
void register_async_benchmarks(hxrt::Runtime& runtime, const AsyncConfig& config);

}  // namespace hxrt_bench
