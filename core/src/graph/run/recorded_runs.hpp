// Runs of a compiled graph by replay (plugin_api.h, "Recorded work"): a graph whose work lies
// on one device that records is recorded at its second run and replayed in the runs after, so
// that a run costs the host one launch rather than one per kernel (CUDA graphs' gain). The
// first run goes the usual way: it makes the kernels' instances and whatever a device makes at
// first use (cuBLAS handles), none of which may happen while recording.
// A recording names its buffers once and for all, so it keeps its own memory while the
// executable lives: the arenas of its intermediate tensors, and a slot for each feed and fetch.
// A run copies its feeds into their slots on the device's stream, replays, and copies the
// fetches out into tensors of their own, all in stream order, then waits as every run does.
// One run replays at a time; a run that finds the recording busy goes the usual way.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "execution/recorded_work.hpp"
#include "graph/run/bound_views.hpp"
#include "hxrt/tensor.hpp"

namespace hxrt::detail {

struct ExecutableImpl;

class RecordedRuns {
 public:
  // nullptr unless `exe` qualifies: every op step on one device whose plugin records, its
  // feeds placed there, no transfer between devices, and an executable that does not time its
  // steps (the dynamic placer's: a replay cannot time kernel by kernel).
  static std::unique_ptr<RecordedRuns> for_executable(const ExecutableImpl& exe);

  RecordedRuns(const ExecutableImpl& exe, Device& device);
  ~RecordedRuns();
  RecordedRuns(const RecordedRuns&) = delete;
  RecordedRuns& operator=(const RecordedRuns&) = delete;

  // The fetches of a run by replay, once its work has completed; nullopt when the run is to go
  // the usual way: the first run, a traced run (the trace shows each kernel), a run while
  // another replays, every run once recording was refused (logged with the reason), and a run
  // whose replay failed: run again kernel by kernel, its failure names the node that failed.
  std::optional<std::vector<Tensor>> run(const std::vector<Tensor>& feeds);

 private:
  // Allocates the memory, binds the views and records; false (logged, and everything released)
  // when the plugin refuses.
  bool record();
  void record_steps();
  std::vector<Tensor> replay(const std::vector<Tensor>& feeds);
  void release() noexcept;

  const ExecutableImpl& exe_;
  std::shared_ptr<Device> device_;
  std::mutex mutex_;  // held by the run that replays
  std::atomic<bool> refused_{false};
  bool first_run_done_ = false;  // guarded by mutex_
  // What the recording names, kept while it lives (guarded by mutex_).
  std::vector<Device::Block> arenas_;  // ExecutableImpl::arenas
  std::vector<Device::Block> slots_;   // per value with memory of its own (ValueInfo::tensor)
  // Per slot: a constant's own memory, which the executable keeps, so not the recording's to
  // give back.
  std::vector<bool> constant_slots_;
  std::unique_ptr<BoundViews> views_;
  std::unique_ptr<RecordedWork> work_;
};

}  // namespace hxrt::detail
