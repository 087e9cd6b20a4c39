#include "graph/executable_handle.hpp"

#include <algorithm>
#include <chrono>

namespace hxrt::detail {
namespace {

// node -> device, a line each: what tells two placements apart.
std::string placement_text(const ExecutableImpl& exe) {
  std::string text;
  for (const NodePlacement& placed : exe.placement) {
    text += placed.node + '\t' + placed.device + '\n';
  }
  return text;
}

// "\nmm1: GPU:0 -> CPU:0 (reason)" per node that moves from `before` to `after`.
std::string moves(const ExecutableImpl& before, const ExecutableImpl& after) {
  std::string moved;
  for (size_t i = 0; i < after.placement.size() && i < before.placement.size(); ++i) {
    const NodePlacement& from = before.placement[i];
    const NodePlacement& to = after.placement[i];
    if (from.device == to.device) continue;
    moved += "\n" + to.node + ": " + from.device + " -> " + to.device;
    if (!to.reason.empty()) moved += " (" + to.reason + ")";
  }
  return moved;
}

}  // namespace

ExecutableHandle::ExecutableHandle(std::shared_ptr<const ExecutableImpl> compiled,
                                   const Graph& graph, const CompileOptions& options)
    : current_(std::move(compiled)),
      recompile_(current_->measures ? new Recompile{graph, options} : nullptr),
      inputs_(current_->inputs),
      fetches_(current_->fetches) {
  now_.exe = current_;
  if (recompile_ != nullptr) replaced_.push_back(current_);
}

ExecutableHandle::ExecutableHandle(std::unique_ptr<const StagedRuns> stages)
    : current_(stages->first()),
      stages_(std::move(stages)),
      inputs_(stages_->inputs()),
      fetches_(stages_->fetches()) {}

void ExecutableHandle::after_run(const ExecutableImpl& ran, const std::vector<Tensor>& inputs,
                                 double seconds) {
  const uint64_t every = ran.context->config.replace_every_runs;
  if (every == 0) return;  // placed once and for all
  bool feeds_moved = false;
  {
    std::lock_guard<std::mutex> lock(timing_);
    for (Timed* timed : {&now_, &before_, &simple_}) {
      if (timed->exe.get() != &ran) continue;
      if (timed->runs++ > 0) timed->seconds.add(seconds);  // the first run warms up
      break;
    }
    feeds_moved = learn_feeds(ran, inputs);
  }
  const uint64_t run = ++runs_;
  const uint64_t next_check = next_check_.load(std::memory_order_relaxed);
  const bool check = run >= (next_check == 0 ? every : next_check);
  if (!feeds_moved && !check) return;
  std::unique_lock<std::mutex> lock(replacing_, std::try_to_lock);
  if (!lock) return;  // another run's thread is at it; the next check sees what it missed
  // A check costs a compile in the run's thread (6 ms for a 60-node transformer, against its
  // 0.8 ms runs): a placement that holds check after check is checked half as often each
  // time, down to once in kLongestCheckInterval windows, and never so often that checks take
  // more than kMostCheckShare of the runs' time; any change starts over, as the windows that
  // judge it are `every` runs long.
  const auto start = std::chrono::steady_clock::now();
  const bool held = adapt(feeds_moved);
  const std::chrono::duration<double> checked = std::chrono::steady_clock::now() - start;
  if (held) {
    const double runs_per_check =
        checked.count() / (kMostCheckShare * std::max(seconds, kShortestRunSeconds));
    const uint64_t doubled = check_interval_ == 0
                                 ? every
                                 : std::min(check_interval_ * 2, every * kLongestCheckInterval);
    check_interval_ = std::max<uint64_t>(
        doubled, static_cast<uint64_t>(std::min(runs_per_check, 1e9)));
  } else {
    check_interval_ = every;
  }
  next_check_.store(run + check_interval_, std::memory_order_relaxed);
}

bool ExecutableHandle::measures_next_run() const {
  const uint64_t every = current()->context->config.replace_every_runs;
  if (every == 0) return true;
  const uint64_t next_check = next_check_.load(std::memory_order_relaxed);
  return runs_.load(std::memory_order_relaxed) + every >= (next_check == 0 ? every : next_check);
}

bool ExecutableHandle::learn_feeds(const ExecutableImpl& ran, const std::vector<Tensor>& inputs) {
  if (ran.feed_sources.size() != inputs.size()) return false;  // the simple placer's
  bool learned = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& device = inputs[i].device();
    if (device == ran.feed_sources[i]) continue;
    // Once per input: feeds that keep moving must not have the graph placed on every run.
    learned |= learned_feeds_.emplace(ran.inputs[i], device).second;
  }
  return learned;
}

bool ExecutableHandle::adapt(bool feeds_moved) {
  const std::shared_ptr<const ExecutableImpl> now = current();
  const std::string after_runs = "after " + std::to_string(runs_.load()) + " runs";
  std::unique_lock<std::mutex> timing(timing_);
  if (feeds_moved) {
    std::string fed;
    for (const auto& [input, device] : learned_feeds_) {
      recompile_->options.feed_devices[input] = device;
      fed += (fed.empty() ? "" : ", ") + input + " on " + device;
    }
    timing.unlock();
    std::shared_ptr<ExecutableImpl> next = recompile(GraphPlacer::kDynamic, &now->placement);
    if (next == nullptr) return false;
    const std::string moved = moves(*now, *next);
    if (moved.empty()) return false;
    timing.lock();
    before_ = now_;
    now_ = Timed{std::move(next), {}, 0};
    simple_trial_ = false;
    switch_to(now_);
    timing.unlock();
    ++replacements_;
    log("Graph placed again " + after_runs + ": its feeds live elsewhere than assumed (" + fed +
            "), so it is placed where they live:" + moved,
        true);
    return false;
  }
  if (now_.seconds.count() == 0) return false;  // nothing measured on this placement yet
  const double measured = now_.seconds.median();

  if (simple_trial_) {
    // The simple placer's placement has run its window: the dynamic one's against it.
    simple_trial_ = false;
    simple_done_ = true;
    simple_ = now_;
    const bool dynamic_holds = before_.seconds.count() == 0 ||
                               before_.seconds.median() <= measured * (1 + kSimpleMargin);
    const std::string figures =
        "Graph placement compared " + after_runs + ": the dynamic placer's measured " +
        milliseconds_text(before_.seconds.median()) + " per run, the simple placer's " +
        milliseconds_text(measured);
    if (dynamic_holds) {
      now_ = before_;
      before_ = Timed{};
      switch_to(now_);
      timing.unlock();
      log(figures + "; the dynamic placer's is kept");
    } else {
      rejected_.insert(placement_text(*before_.exe));
      before_ = Timed{};
      timing.unlock();
      log(figures + ", more than " + std::to_string(static_cast<int>(kSimpleMargin * 100)) +
              "% faster; the simple placer's is kept",
          true);
    }
    return false;
  }
  if (before_.exe != nullptr) {
    // A placement taken on the model's word has run its window: kept only if no slower.
    const bool slower = before_.seconds.count() > 0 && measured > before_.seconds.median();
    if (slower) {
      rejected_.insert(placement_text(*now_.exe));
      const std::string message =
          "Graph placement reverted " + after_runs + ": the placement taken measured " +
          milliseconds_text(measured) + " per run, the one before it " +
          milliseconds_text(before_.seconds.median()) + "; back to that one:" +
          moves(*now_.exe, *before_.exe);
      now_ = before_;
      before_ = Timed{};
      switch_to(now_);
      timing.unlock();
      log(message, true);
      return false;
    }
    before_ = Timed{};
  }
  if (!simple_done_) {
    if (simple_.exe == nullptr) {
      timing.unlock();
      // Given the current placement only so that compile does not log the new one as a
      // first placement: the simple placer reads nothing of it.
      std::shared_ptr<ExecutableImpl> simple = recompile(GraphPlacer::kSimple, &now->placement);
      timing.lock();
      if (simple == nullptr) {
        simple_done_ = true;
        return false;
      }
      simple_.exe = std::move(simple);
    }
    if (placement_text(*simple_.exe) == placement_text(*now_.exe)) {
      simple_ = now_;  // the same placement: its times are these
      simple_done_ = true;
    } else {
      before_ = now_;
      now_ = simple_;
      simple_trial_ = true;
      switch_to(now_);
      timing.unlock();
      log("Graph placement trial " + after_runs +
          ": the simple placer's placement runs next, so that measured times compare the two");
      return false;
    }
  }
  if (simple_.seconds.count() > 0 && now_.exe != simple_.exe &&
      measured > simple_.seconds.median() * (1 + kSimpleMargin)) {
    const std::string message =
        "Graph placement reverted " + after_runs + ": it measured " +
        milliseconds_text(measured) + " per run, more than " +
        std::to_string(static_cast<int>(kSimpleMargin * 100)) + "% slower than the simple " +
        "placer's " + milliseconds_text(simple_.seconds.median()) + "; the simple placer's is " +
        "taken:" + moves(*now_.exe, *simple_.exe);
    rejected_.insert(placement_text(*now_.exe));
    now_ = simple_;
    switch_to(now_);
    timing.unlock();
    log(message, true);
    return false;
  }
  timing.unlock();

  std::shared_ptr<ExecutableImpl> next = recompile(GraphPlacer::kDynamic, &now->placement);
  if (next == nullptr) return false;
  const std::string moved = moves(*now, *next);
  const double threshold = now->context->config.replace_threshold;
  const std::string figures = after_runs + " the cost model estimates the current placement at " +
                              milliseconds_text(next->previous_makespan) +
                              " and the best found at " +
                              milliseconds_text(next->estimated_makespan);
  timing.lock();
  const bool rejected = rejected_.count(placement_text(*next)) != 0;
  if (moved.empty() || rejected ||
      !(next->estimated_makespan < next->previous_makespan * (1 - threshold))) {
    timing.unlock();
    log("Graph placement kept: " + figures +
        (rejected && !moved.empty() ? "; the best found measured slower before" : ""));
    return true;
  }
  before_ = now_;
  now_ = Timed{std::move(next), {}, 0};
  switch_to(now_);
  timing.unlock();
  ++replacements_;
  log("Graph placed again: " + figures + ", more than " +
          std::to_string(static_cast<int>(threshold * 100 + 0.5)) +
          "% faster (placement.replace_threshold):" + moved,
      true);
  return false;
}

std::shared_ptr<ExecutableImpl> ExecutableHandle::recompile(
    GraphPlacer placer, const std::vector<NodePlacement>* previous) {
  CompileOptions options;
  {
    std::lock_guard<std::mutex> lock(timing_);
    options = recompile_->options;
  }
  options.placer = placer;
  const std::shared_ptr<const ExecutableImpl> now = current();
  try {
    return compile_graph(now->context, recompile_->graph, fetches_, options, previous);
  } catch (const Error& error) {
    now->context->logger.log(LogLevel::kWarning,
                              std::string("the dynamic placer could not place the graph again; "
                                          "it keeps its placement: ") +
                                  error.what());
    return nullptr;
  }
}

void ExecutableHandle::switch_to(Timed& timed) {
  // Every compiled graph that was current is kept: what placement() returned stays valid.
  if (std::find(replaced_.begin(), replaced_.end(), timed.exe) == replaced_.end()) {
    replaced_.push_back(timed.exe);
  }
  std::atomic_store(&current_, timed.exe);
}

void ExecutableHandle::log(const std::string& message, bool always) const {
  GraphContext& context = *current()->context;
  if (context.log_placement.load(std::memory_order_relaxed)) {
    context.logger.write(LogLevel::kInfo, message);
  } else if (always) {
    context.logger.log(LogLevel::kInfo, message);
  }
}

}  // namespace hxrt::detail
