#include "graph/executable_handle.hpp"

namespace hxrt::detail {

ExecutableHandle::ExecutableHandle(std::shared_ptr<const ExecutableImpl> compiled,
                                   const Graph& graph, const CompileOptions& options)
    : current_(std::move(compiled)),
      recompile_(current_->measures ? new Recompile{graph, options} : nullptr),
      inputs_(current_->inputs),
      fetches_(current_->fetches) {}

void ExecutableHandle::after_run() {
  const std::shared_ptr<const ExecutableImpl> now = current();
  Runtime::Impl& runtime = *now->runtime;
  const uint64_t every = runtime.config.replace_every_runs;
  if (recompile_ == nullptr || every == 0 || ++runs_ % every != 0) return;
  std::unique_lock<std::mutex> lock(replacing_, std::try_to_lock);
  if (!lock) return;  // another run's thread is at it
  Logger& logger = *runtime.logger;
  const bool logging = runtime.log_placement.load(std::memory_order_relaxed);
  std::shared_ptr<ExecutableImpl> next;
  try {
    next = compile_graph(now->runtime, recompile_->graph, fetches_, recompile_->options,
                         &now->placement);
  } catch (const Error& error) {
    logger.log(LogLevel::kWarning,
               std::string("the dynamic placer could not place the graph again; it keeps its "
                           "placement: ") + error.what());
    return;
  }
  std::string moved;
  for (size_t i = 0; i < next->placement.size(); ++i) {
    const NodePlacement& before = now->placement[i];
    const NodePlacement& after = next->placement[i];
    if (before.device == after.device) continue;
    moved += "\n" + after.node + ": " + before.device + " -> " + after.device + " (" +
             after.reason + ")";
  }
  const double threshold = runtime.config.replace_threshold;
  const std::string figures = "after " + std::to_string(runs_.load()) +
                              " runs the cost model estimates the current placement at " +
                              milliseconds_text(next->previous_makespan) +
                              " and the best found at " +
                              milliseconds_text(next->estimated_makespan);
  if (moved.empty() || !(next->estimated_makespan < next->previous_makespan * (1 - threshold))) {
    if (logging) logger.write(LogLevel::kInfo, "Graph placement kept: " + figures);
    return;
  }
  const std::string message = "Graph placed again: " + figures + ", more than " +
                              std::to_string(static_cast<int>(threshold * 100 + 0.5)) +
                              "% faster (placement.replace_threshold):" + moved;
  if (logging) {
    logger.write(LogLevel::kInfo, message);
  } else {
    logger.log(LogLevel::kInfo, message);
  }
  replaced_.push_back(now);
  std::atomic_store(&current_, std::shared_ptr<const ExecutableImpl>(std::move(next)));
  ++replacements_;
}

}  // namespace hxrt::detail
