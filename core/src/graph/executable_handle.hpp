// What an Executable holds: the compiled graph it runs now, and what it takes to compile it
// again. The dynamic placer places an executable again after runs have measured costs that
// make another placement faster (README.md, "Dynamic placement"); runs in flight keep the
// compiled graph they started with. Only such an executable keeps a copy of the graph and
// the compile options: for a large graph they cost as much as the executable itself.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "graph/executable_impl.hpp"

namespace hxrt::detail {

// Compiles `graph` for `fetches` on `runtime` (Runtime::compile). `previous`: the placement of
// the executable being replaced, whose makespan the dynamic placer estimates on the current
// cost model too (ExecutableImpl::previous_makespan).
std::shared_ptr<ExecutableImpl> compile_graph(const std::shared_ptr<Runtime::Impl>& runtime,
                                              const Graph& graph,
                                              const std::vector<NodeOutput>& fetches,
                                              const CompileOptions& options,
                                              const std::vector<NodePlacement>* previous);

class ExecutableHandle {
 public:
  // `graph` and `options` are copied only when `compiled` measures (the dynamic placer's).
  ExecutableHandle(std::shared_ptr<const ExecutableImpl> compiled, const Graph& graph,
                   const CompileOptions& options);

  // The compiled graph runs start on now; it lives as long as this handle.
  std::shared_ptr<const ExecutableImpl> current() const { return std::atomic_load(&current_); }
  const std::vector<std::string>& inputs() const { return inputs_; }
  const std::vector<NodeOutput>& fetches() const { return fetches_; }
  int replacements() const { return replacements_.load(); }

  // Called after each run of an executable that measures: every replace_every_runs runs,
  // compiles the graph again on the cost model, and takes the new placement when its
  // estimated makespan is shorter than the current placement's (estimated on the same model)
  // by more than replace_threshold; logs either way when placement logging is on. One thread
  // at a time; others skip.
  void after_run();

 private:
  std::shared_ptr<const ExecutableImpl> current_;  // atomic_load / atomic_store
  // Every placement taken, kept so that what placement() and memory_plan() returned stays
  // valid; guarded by replacing_ (moves are rare: at most one per replace_every_runs runs).
  std::vector<std::shared_ptr<const ExecutableImpl>> replaced_;
  // What compile_graph takes again, for an executable that may be placed again.
  struct Recompile {
    Graph graph;
    CompileOptions options;
  };
  const std::unique_ptr<const Recompile> recompile_;
  const std::vector<std::string> inputs_;
  const std::vector<NodeOutput> fetches_;
  std::atomic<uint64_t> runs_{0};
  std::atomic<int> replacements_{0};
  std::mutex replacing_;
};

}  // namespace hxrt::detail
