// The asynchronous benchmarks' settings, from one JSON file (bench/async_bench.json): the sim
// plugin's options, passed to the runtime as they are, and the shapes of the two workloads.
// The sim's performance figures are also read into its own model (perf_model.hpp), so that
// the modelled times the benchmarks compare with come from the same figures the device uses.
#pragma once

#include <cstdint>
#include <string>

#include "perf_model.hpp"

namespace hxrt_bench {

struct Workload {
  int devices = 0;          // GPUs used, the first of the sim's
  int64_t matmul_size = 0;  // n of each n x n by n x n MatMul
  int chain_length = 0;     // overlap only: upload-then-compute steps per device
};

struct AsyncConfig {
  std::string path;
  std::string sim_options;  // the "sim" object as JSON text, for RuntimeOptions::plugin_options
  hxsim::PerfOptions model;
  Workload replication;
  Workload overlap;
};

// Reads and checks the file; throws std::runtime_error naming the file and the key at fault.
AsyncConfig read_async_config(const std::string& path);

}  // namespace hxrt_bench
