// What each thread of the threads section does: on its device, with a new stream each
// iteration, allocate, copy in and out and free memory, and run a kernel on its reference
// cases with the instances all threads share, checking every result. Failures are counted and the first of each kind kept, to be
// recorded by the section's own thread (SectionLog is not thread-safe).
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugin_session.hpp"
#include "reference/cases.hpp"
#include "sections/kernel_checks.hpp"

namespace hxrt_conformance {

// What every thread shares, read-only.
struct ThreadWorkload {
  const PluginSession* session = nullptr;
  int iterations = 0;
  uint64_t seed = 1;
  // The kernel to run and its cases; none when the plugin has no kernel the kit can check.
  std::optional<KernelVariant> variant;
  std::vector<KernelCase> cases;
  // instances[device][case]: made once, before the threads start, and shared by every thread
  // that runs the case on the device, as the core shares one instance among concurrent calls.
  std::vector<std::vector<std::unique_ptr<KernelInstance>>> instances;
};

// One kind of failure of one thread.
struct FailureCount {
  int count = 0;
  std::string first;  // "iteration 3: ..."

  // `when`: "iteration 3", "before the first iteration".
  void add(const std::string& when, const std::string& failure);
};

struct ThreadOutcome {
  std::string device_label;  // "device 1"
  FailureCount memory;
  FailureCount kernel;
};

// Runs `workload.iterations` iterations on device number `device_index` of the session.
ThreadOutcome run_thread_workload(const ThreadWorkload& workload, int thread, size_t device_index);

}  // namespace hxrt_conformance
