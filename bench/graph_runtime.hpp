// A runtime whose graphs run on a given number of threads, set as a user sets it: the config
// file's "execution" section, written to a temporary file that Runtime::create reads.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

struct ExecutionThreads {
  int inter_op = 0;  // threads that run a graph's nodes (the caller's among them); 0: unset
  int intra_op = 0;  // threads one kernel may use; 0: unset
};

// Runtime::create(options) with a config file that sets `threads` (and nothing else).
// Error as Runtime::create throws it; std::runtime_error when the file cannot be written.
hxrt::Runtime runtime_with_threads(ExecutionThreads threads, hxrt::RuntimeOptions options = {});

}  // namespace hxrt_bench
