// What an Executable holds: the compiled graph it runs now, and what it takes to compile it
// again. The dynamic placer's executable keeps adapting after compile
// (docs/dynamic-placer.md, "Placement that learns and stays"), by what its runs measure:
// - a run that feeds an input from another device than the placer assumed has the graph placed
//   again at once, where its feeds live;
// - every placement.replace_every_runs runs, the graph is placed again on the cost model the
//   runs refined, and the new placement taken when its estimate is shorter by more than
//   placement.replace_threshold; each check that keeps the placement doubles the runs to the
//   next, up to 64 times placement.replace_every_runs, and to no fewer than keep checks
//   under 2% of the runs' time; any change starts them over;
// - a placement taken is then timed, run by run (the host's wall time of Executable::run, its
//   first run left out as warm-up), and given up for the one before when it measures slower;
// - once, the simple placer's placement runs for a window of runs, and is kept instead when
//   the dynamic placement measures more than 5% slower than it.
// placement.replace_every_runs 0 turns all of it off. Runs in flight keep the compiled graph
// they started with. Only such an executable keeps a
// copy of the graph and the compile options: for a large graph they cost as much as the
// executable itself.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cost/sample_window.hpp"
#include "graph/executable_impl.hpp"
#include "graph/staged/staged_runs.hpp"

namespace hxrt::detail {

// Compiles `graph` for `fetches` in `context`, a runtime's (Runtime::compile). `previous`: the
// placement of the executable being replaced, whose makespan the dynamic placer estimates on
// the current cost model too (ExecutableImpl::previous_makespan).
std::shared_ptr<ExecutableImpl> compile_graph(const std::shared_ptr<GraphContext>& context,
                                              const Graph& graph,
                                              const std::vector<NodeOutput>& fetches,
                                              const CompileOptions& options,
                                              const std::vector<NodePlacement>* previous);

class ExecutableHandle {
 public:
  // How much slower than the simple placer's a dynamic placement may measure before the
  // simple placer's is kept instead.
  static constexpr double kSimpleMargin = 0.05;

  // `graph` and `options` are copied only when `compiled` measures (the dynamic placer's).
  ExecutableHandle(std::shared_ptr<const ExecutableImpl> compiled, const Graph& graph,
                   const CompileOptions& options);
  // An executable run in stages (a graph with shapes known only at run, or one across the
  // tasks of a cluster): runs go through `stages`, and current() is what describes them
  // (nullptr when nothing does yet). It is not placed again as runs go.
  explicit ExecutableHandle(std::unique_ptr<const StagedRuns> stages);
  // nullptr for an executable of one compiled graph.
  const StagedRuns* stages() const { return stages_.get(); }

  // The compiled graph runs start on now; it lives as long as this handle.
  std::shared_ptr<const ExecutableImpl> current() const { return std::atomic_load(&current_); }
  const std::vector<std::string>& inputs() const { return inputs_; }
  const std::vector<NodeOutput>& fetches() const { return fetches_; }
  int replacements() const { return replacements_.load(); }
  // Whether runs are reported to after_run: the dynamic placer's executables.
  bool adapts() const { return recompile_ != nullptr; }

  // Called after each run of an executable that adapts, with the compiled graph it ran, its
  // inputs and its wall time: adapts the placement as the header says, and logs what it did
  // when placement logging is on. One thread at a time decides; others only record.
  void after_run(const ExecutableImpl& ran, const std::vector<Tensor>& inputs, double seconds);
  // Whether the next run times its kernels for the cost model: those of the window of
  // placement.replace_every_runs runs before each check, which the check reads (timing cost a
  // 7-node CNN 0.012 ms a run, 40% of it). Every run where checks are off.
  bool measures_next_run() const;

 private:
  // A placement that runs have timed.
  struct Timed {
    std::shared_ptr<const ExecutableImpl> exe;
    SampleWindow seconds;  // runs after its first
    uint64_t runs = 0;
  };

  // The inputs `inputs` feeds from other devices than `ran` assumed and that were not learned
  // yet, added to learned_feeds_ (input -> device); whether there were any.
  bool learn_feeds(const ExecutableImpl& ran, const std::vector<Tensor>& inputs);
  // The decisions of the header, with replacing_ held. Whether the check placed the graph
  // again and kept its placement, which then holds.
  bool adapt(bool feeds_moved);
  // Compiles again with the learned feeds, under `placer`; logs and returns nullptr on failure.
  std::shared_ptr<ExecutableImpl> recompile(GraphPlacer placer,
                                            const std::vector<NodePlacement>* previous);
  // Runs start on `next` from now; `timed` is what is known of its times.
  void switch_to(Timed& timed);
  void log(const std::string& message, bool always = false) const;

  std::shared_ptr<const ExecutableImpl> current_;  // atomic_load / atomic_store
  // Every compiled graph made, kept so that what placement() and memory_plan() returned stays
  // valid; guarded by replacing_ (moves are rare: at most one per replace_every_runs runs).
  std::vector<std::shared_ptr<const ExecutableImpl>> replaced_;
  // What compile_graph takes again, for an executable that may be placed again.
  struct Recompile {
    Graph graph;
    CompileOptions options;
  };
  const std::unique_ptr<Recompile> recompile_;  // its feed_devices grow as runs teach them
  const std::unique_ptr<const StagedRuns> stages_;
  const std::vector<std::string> inputs_;
  const std::vector<NodeOutput> fetches_;
  std::atomic<uint64_t> runs_{0};
  // The run of the next check (0: the first, after placement.replace_every_runs runs), and the
  // runs between checks, doubled each time one finds the placement holds (guarded by
  // replacing_), at most kLongestCheckInterval times placement.replace_every_runs.
  static constexpr uint64_t kLongestCheckInterval = 64;
  // The most of the runs' time that checks that keep the placement may take: 6 ms checks of
  // 0.7 ms runs come at most every 430 runs.
  static constexpr double kMostCheckShare = 0.02;
  static constexpr double kShortestRunSeconds = 1e-6;
  std::atomic<uint64_t> next_check_{0};
  uint64_t check_interval_ = 0;
  std::atomic<int> replacements_{0};
  std::mutex replacing_;

  // Guarded by timing_: the times of the placements in play, and the feeds learned.
  mutable std::mutex timing_;
  Timed now_;        // the placement runs start on
  Timed before_;     // the one it replaced, while the new one is on trial (exe set)
  Timed simple_;     // the simple placer's, once compiled
  bool simple_trial_ = false;  // whether now_ is the simple placer's on trial
  bool simple_done_ = false;   // whether the simple placer's was compared already
  std::set<std::string> rejected_;  // placements (placement_text) that measured slower
  std::map<std::string, std::string> learned_feeds_;
};

}  // namespace hxrt::detail
