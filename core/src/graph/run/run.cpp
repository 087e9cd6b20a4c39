// One run of an executable: a dependency-counting executor on the inter-op pool. Each step's
// count of unfinished predecessors starts from the executable's; a thread that finishes a step
// goes on with the first successor it made ready and hands the others to the pool, so a chain
// runs on one thread without a task per step. The feeds are bound on the calling thread; the
// other roots and the steps the feeds make ready are shared out in a few chunks per thread.
// Kernels of asynchronous devices are only queued here: their streams order them, events
// order work across devices, and the host waits once, at the end of the run. A step that
// would make its thread wait for a device (a copy to another plugin of a result not yet
// computed) is set aside until the runtime's EventWaiter sees the result ready, then handed
// back to the pool by the thread that called run, so that no inter-op thread is held by a
// device.
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensors/transfers.hpp"
#include "graph/executable_impl.hpp"
#include "graph/run/inter_op_arena.hpp"
#include "graph/run/run.hpp"
#include "graph/run/tsan_handoff.hpp"
#include "plugins/core_handle.hpp"
#include "eager/kernel_call.hpp"
#include "base/status.hpp"
#include "tensors/tensor_impl.hpp"
#include "trace/op_trace.hpp"
#include "trace/trace_switch.hpp"

namespace hxrt::detail {
namespace {

constexpr uint32_t kNoStep = UINT32_MAX;
// A step with more successors than this shares out those it makes ready in chunks rather
// than a task each: a fan-out to thousands of steps would otherwise spawn thousands of tasks
// that all decrement one join's count.
constexpr size_t kTaskEach = 8;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class Run {
 public:
  Run(const ExecutableImpl& exe, const std::vector<Tensor>& feeds, bool measure)
      : exe_(exe),
        measures_(exe.measures && measure),
        feeds_(feeds),
        traced_(tracing()),
        pending_(new std::atomic<uint32_t>[exe.steps.size()]),
        tensors_(exe.own_tensors),
        events_(exe.queuing_steps),
        sequence_(exe.queuing_steps, 0),
        seconds_(measures_ ? exe.steps.size() : 0, -1.0),
        starts_(measures_ ? exe.steps.size() : 0),
        timed_end_(measures_ ? exe.steps.size() : 0) {
    // The size and counts read once: each store below would make the compiler read them again.
    const size_t num_steps = exe.steps.size();
    const uint32_t* num_predecessors = exe.num_predecessors.data();
    for (size_t i = 0; i < num_steps; ++i) {
      // Released, and acquired by the step's thread before it runs (run_from): what this
      // thread set up happens before every step, in the memory model's terms and not only
      // through the pool's internals, which ThreadSanitizer does not see.
      pending_[i].store(num_predecessors[i], std::memory_order_release);
    }
    allocate_arenas();
    views_ = exe.spare_views.take(arena_blocks_);
    try {
      if (views_ == nullptr) views_ = std::make_unique<BoundViews>(exe);
      views_->bind_arenas(exe, arena_blocks_);
    } catch (...) {
      free_arenas();  // no destructor runs for a constructor that throws
      throw;
    }
  }

  // Waits for what is still queued (a run that failed on the host), then frees the arenas
  // and leaves the views to the next run.
  ~Run() {
    wait_for_devices();
    free_arenas();
    exe_.spare_views.give_back(std::move(views_));
  }

  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  std::vector<Tensor> execute(InterOpPool::Arena& pool, EventWaiter& waiter) {
    waiter_ = &waiter;
    auto start = [&] {
      // The steps ready once the feeds are bound, in a few chunks per thread: tasks for the
      // others, the first on this thread.
      chunks_ = 4 * static_cast<size_t>(std::max(1, pool.tbb.max_concurrency()));
      const std::vector<uint32_t> ready = bind_feeds();
      const size_t per_chunk = chunk_size(ready.size());
      const size_t first = std::min(per_chunk, ready.size());
      spread(ready.data() + first, ready.size() - first, per_chunk);
      run_chunk(ready.data(), first);
      group_.wait();
      handoff_acquire();  // the chunks' reads of `ready` come before it goes
    };
    execute_handed_off(pool, start);
    for (;;) {
      std::vector<uint32_t> resumed;
      {
        std::unique_lock<std::mutex> lock(resume_mutex_);
        resumed_ready_.wait(lock, [&] { return !resumed_.empty() || deferred_ == 0; });
        if (resumed_.empty()) break;  // nothing set aside, nothing left to resume
        resumed.swap(resumed_);
      }
      auto resume = [&] {
        for (uint32_t step : resumed) spawn(step);
        group_.wait();
      };
      execute_handed_off(pool, resume);
    }
    // Acquires what every task wrote (each released into finished_ as it ended).
    (void)finished_.load(std::memory_order_acquire);
    wait_for_devices();
    if (failure_) throw *failure_;
    if (measures_) report_costs();
    std::vector<Tensor> fetched;
    fetched.reserve(exe_.fetch_values.size());
    for (size_t value : exe_.fetch_values) fetched.push_back(tensor(value));
    return fetched;
  }

 private:
  // Runs `work` in the pool's arena and waits for it, telling ThreadSanitizer of the hand-offs
  // both ways: what this thread did before happens before the work, and everything the work
  // did (wait()'s last reads of group_, which lives on this thread's stack, included) before
  // what follows. The arena may run it on one of its own threads when it is full. The closure
  // is built before the release, as the other thread reads it after its acquire.
  template <class Work>
  static void execute_handed_off(InterOpPool::Arena& pool, Work& work) {
    auto handed_off = [&work] {
      handoff_acquire();
      work();
      handoff_release();
    };
    handoff_release();
    pool.tbb.execute(handed_off);
    handoff_acquire();
  }

  void allocate_arenas() {
    arena_blocks_.reserve(exe_.arenas.size());
    for (const ExecutableImpl::Arena& arena : exe_.arenas) {
      try {
        arena_blocks_.push_back(arena.device->allocate(arena.bytes));
      } catch (const Error& error) {
        free_arenas();
        throw Error(error.code(), "the graph's run needs " + std::to_string(arena.bytes) +
                                      " bytes on " + arena.device->name() +
                                      " for its intermediate tensors (Executable::memory_plan), "
                                      "which it could not allocate: " +
                                      error.what());
      }
    }
  }

  void free_arenas() noexcept {
    for (size_t i = 0; i < arena_blocks_.size(); ++i) {
      exe_.arenas[i].device->deallocate(arena_blocks_[i].block);
    }
    arena_blocks_.clear();
  }

  // Runs the roots that feed a tensor already on their step's device, on this thread: such a
  // step only binds the tensor, which costs less than a task (and a chain with two inputs,
  // its roots handed out as tasks, would wake a second thread on every run). Returns the other
  // roots, then the steps those feeds made ready.
  std::vector<uint32_t> bind_feeds() {
    const auto bound_here = [this](const StepInfo& step) {
      return step.kind == StepInfo::Kind::kConstant ||
             (step.kind == StepInfo::Kind::kFeed &&
              feeds_[step.feed].impl()->device.get() == step.device);
    };
    std::vector<uint32_t> ready;
    for (uint32_t root : exe_.roots) {
      if (!bound_here(exe_.steps[root])) ready.push_back(root);
    }
    for (uint32_t root : exe_.roots) {
      const StepInfo& step = exe_.steps[root];
      if (!bound_here(step)) continue;
      run_step(root);
      const uint32_t* successors = exe_.successors.data() + step.first_successor;
      for (uint32_t i = 0; i < step.num_successors; ++i) {
        const uint32_t successor = successors[i];
        // No step runs yet, so no other thread writes the count: a plain decrement, stored
        // with release for the thread that runs the step (run_from acquires it).
        const uint32_t left = pending_[successor].load(std::memory_order_relaxed) - 1;
        pending_[successor].store(left, std::memory_order_release);
        if (left == 0) ready.push_back(successor);
      }
    }
    return ready;
  }

  // Steps whose count of unfinished predecessors a chunk of roots has yet to decrement, and by
  // how much: a step that many roots feed (an AddN over them all) has its count, one cache
  // line, decremented once per chunk rather than once per root by every thread in turn.
  class HeldDecrements {
   public:
    // Holds back one decrement of `step`'s count; false when there is no room (decrement now).
    bool hold(uint32_t step) {
      for (size_t i = size_; i-- > 0;) {  // the last step held first: roots tend to share one
        if (held_[i].step == step) {
          ++held_[i].count;
          return true;
        }
      }
      if (size_ == kSteps) return false;
      held_[size_++] = {step, 1};
      return true;
    }
    template <class Fn>
    void for_each(Fn&& fn) const {
      for (size_t i = 0; i < size_; ++i) fn(held_[i].step, held_[i].count);
    }

   private:
    static constexpr size_t kSteps = 8;
    struct Held {
      uint32_t step;
      uint32_t count;
    };
    Held held_[kSteps];
    size_t size_ = 0;
  };

  // Steps per chunk when `count` ready steps are shared out: a few chunks per thread.
  size_t chunk_size(size_t count) const {
    const size_t chunks = std::min(count, chunks_);
    return chunks == 0 ? 0 : (count + chunks - 1) / chunks;
  }

  // Steps that are ready, each with what it makes ready, then the steps their held-back
  // decrements make ready; one count of finished tasks for the whole chunk.
  void run_chunk(const uint32_t* steps, size_t count) {
    HeldDecrements held;
    for (size_t i = 0; i < count; ++i) run_from(steps[i], &held);
    uint32_t next = kNoStep;
    held.for_each([this, &next](uint32_t step, uint32_t decrements) {
      if (pending_[step].fetch_sub(decrements, std::memory_order_acq_rel) != decrements) return;
      if (next == kNoStep) {
        next = step;
      } else {
        spawn(step);
      }
    });
    run_from(next, nullptr);
    finish_task();
  }

  // A task of the pool: `step` and what it makes ready.
  void run_task(uint32_t step) {
    run_from(step, nullptr);
    finish_task();
  }

  void finish_task() {
    finished_.fetch_add(1, std::memory_order_release);
    handoff_release();
  }

  // Gives `task` (a callable that acquires first, and that needs no destructor) to the pool.
  // For ThreadSanitizer (graph/run/tsan_handoff.hpp), which does not see inside libtbb: acquire
  // before the task is built, since the pool may build it in memory another thread's task read
  // (that thread released after its reads); release once it is built, since the thread that
  // runs it reads it.
  template <class Task>
  void hand_over(Task&& task) {
    static_assert(std::is_trivially_destructible_v<std::decay_t<Task>>,
                  "a task's callable is destroyed after its thread's last release");
    handoff_acquire();
    tbb::task_handle handle = group_.defer(std::forward<Task>(task));
    handoff_release();
    group_.run(std::move(handle));
  }

  // Hands `step` (ready) to the pool.
  void spawn(uint32_t step) {
    hand_over([this, step] {
      handoff_acquire();
      run_task(step);
    });
  }

  // Hands `steps[0, count)` (ready) to the pool in chunks of `per_chunk`; the steps must live
  // until the chunks have run (the executable's, or kept by keep_until_done).
  void spread(const uint32_t* steps, size_t count, size_t per_chunk) {
    for (size_t begin = 0; begin < count; begin += per_chunk) {
      const size_t chunk = std::min(count - begin, per_chunk);
      hand_over([this, first = steps + begin, chunk] {
        handoff_acquire();
        run_chunk(first, chunk);
      });
    }
  }

  // Keeps `steps` until the run ends, for the chunks spread hands out of them.
  const std::vector<uint32_t>& keep_until_done(std::vector<uint32_t> steps) {
    std::lock_guard<std::mutex> lock(kept_mutex_);
    return kept_.emplace_back(std::move(steps));
  }

  // One predecessor of `step` has finished: whether `step` is ready now. The last one to
  // finish (the count reads 1: every other is done, and none decrements it again) stores 0
  // rather than decrementing: a locked read-modify-write cost a chain tens of cycles on every
  // node. The load acquires what the others wrote, the store releases it all, with what this
  // one wrote, to the step's thread (run_from acquires), as the decrement does.
  bool finish_predecessor(uint32_t step) {
    if (pending_[step].load(std::memory_order_acquire) == 1) {
      pending_[step].store(0, std::memory_order_release);
      return true;
    }
    return pending_[step].fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

  // Runs `step`, then each step it makes ready: the first on this thread, the rest as tasks
  // (one each, or in chunks when a step has many successors). With `held`, the decrements
  // `step` itself makes of steps that have several predecessors are held back there; those of
  // the steps it goes on with are not, so that a chain is never held up.
  void run_from(uint32_t step, HeldDecrements* held) {
    std::vector<uint32_t> others;  // made ready besides `next`, when there are many
    while (step != kNoStep) {
      // Acquires what every predecessor wrote: each released it into this count, and the
      // thread that made the step ready may not be the one running it.
      (void)pending_[step].load(std::memory_order_acquire);
      const StepInfo& info = exe_.steps[step];
      if (std::shared_ptr<ReadyEvent> awaited = host_wait(info)) {
        set_aside(step, std::move(awaited));
        return;
      }
      const uint32_t* successors = exe_.successors.data() + info.first_successor;
      // The step likely next on this thread is fetched while this one runs: a graph's steps
      // outgrow the first-level cache, and a chain waited on each one's two lines.
      if (info.num_successors != 0) {
        const char* next_info = reinterpret_cast<const char*>(&exe_.steps[successors[0]]);
        __builtin_prefetch(next_info);
        __builtin_prefetch(next_info + 64);
      }
      run_step(step);
      // A chain's step, made its own case: one successor, no decrement held back.
      if (info.num_successors == 1 && held == nullptr) {
        step = finish_predecessor(successors[0]) ? successors[0] : kNoStep;
        continue;
      }
      uint32_t next = kNoStep;
      for (uint32_t i = 0; i < info.num_successors; ++i) {
        const uint32_t successor = successors[i];
        if (held != nullptr && exe_.num_predecessors[successor] > 1 &&
            held->hold(successor)) {
          continue;
        }
        if (!finish_predecessor(successor)) continue;
        if (next == kNoStep) {
          next = successor;
        } else if (info.num_successors > kTaskEach) {
          others.push_back(successor);
        } else {
          spawn(successor);
        }
      }
      if (!others.empty()) {
        const std::vector<uint32_t>& ready = keep_until_done(std::move(others));
        others.clear();  // moved from: emptied, for the next step
        spread(ready.data(), ready.size(), chunk_size(ready.size()));
      }
      held = nullptr;
      step = next;
    }
  }

  // The event a step would wait for on its thread: a copy to another plugin from an
  // asynchronous device whose work on the source has not completed. nullptr when none.
  std::shared_ptr<ReadyEvent> host_wait(const StepInfo& step) const {
    const Tensor* source;
    if (step.kind == StepInfo::Kind::kTransfer) {
      source = &tensor(step.inputs[0]);
    } else if (step.kind == StepInfo::Kind::kFeed) {
      source = &feeds_[step.feed];
    } else {
      return nullptr;
    }
    const TensorImpl* held = source->impl();
    if (held == nullptr || held->ready == nullptr || held->device.get() == step.device ||
        &held->device->plugin() == &step.device->plugin() || held->ready->done()) {
      return nullptr;  // no wait, or one on a stream
    }
    return held->ready;
  }

  void set_aside(uint32_t step, std::shared_ptr<ReadyEvent> awaited) {
    {
      std::lock_guard<std::mutex> lock(resume_mutex_);
      ++deferred_;
    }
    waiter_->when_done(std::move(awaited), [this, step] {
      // Notified under the lock: once it is released the run may end and be destroyed.
      std::lock_guard<std::mutex> lock(resume_mutex_);
      resumed_.push_back(step);
      --deferred_;
      resumed_ready_.notify_one();
    });
  }

  // A failed run skips the steps not begun, so that it ends soon. Always inline: its frame
  // cost each node of a chain 16 instructions.
  __attribute__((always_inline)) void run_step(uint32_t index) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;
    const StepInfo& step = exe_.steps[index];
    try {
      switch (step.kind) {
        case StepInfo::Kind::kOp:
          if (traced_) {
            run_op<true>(index, step);
          } else {
            run_op<false>(index, step);
          }
          return;
        case StepInfo::Kind::kFeed: return run_feed(step);
        case StepInfo::Kind::kConstant:
          tensor(step.outputs[0]) = exe_.constants[step.feed];
          return;
        case StepInfo::Kind::kTransfer: return run_transfer(index, step);
      }
    } catch (const Error& error) {
      fail(step, error.code(), error.what());
    } catch (const std::exception& error) {
      fail(step, StatusCode::kInternal, error.what());
    } catch (...) {
      fail(step, StatusCode::kInternal, "an exception that is not a std::exception");
    }
  }

  void fail(const StepInfo& step, StatusCode code, const std::string& what) {
    std::lock_guard<std::mutex> lock(failure_mutex_);
    if (failure_) return;  // the first failure is the run's
    failure_.emplace(code, label_of(step) + " on " + step.device->name() + " failed: " + what);
    failed_.store(true, std::memory_order_relaxed);
  }

  // Inline in run_step: a call more per node cost a chain of MatMuls 2% of its instructions.
  // Each test of the trace is of kTraced first: GCC kept the untraced tests of `trace` (its
  // address is taken), 9 instructions per node.
  template <bool kTraced>
  __attribute__((always_inline)) void run_op(uint32_t index, const StepInfo& step) {
    OpTrace trace(kTraced);
    Device& device = *step.device;
    const size_t num_inputs = step.num_inputs;
    hx_tensor_view* const views = views_->operands(step.first_operand);
    const size_t* holders = exe_.operand_tensors.data() + step.first_operand;
    // Only the operands with memory of their own: those in arenas are bound (BoundViews).
    const ExecutableImpl::OwnRange& own_range = exe_.own_ranges[index];
    const uint32_t* own_operands = exe_.own_operands.data();
    for (size_t k = own_range.begin; k < own_range.inputs_end; ++k) {
      const size_t i = own_operands[k];
      const Tensor& own = tensors_[holders[i]];
      check_not_failed(*own.impl(), step.schema->name, i);
      set_memory(*own.impl(), device.handle(), views[i]);
    }
    for (size_t k = own_range.inputs_end; k < own_range.end; ++k) {
      const size_t i = own_operands[k];
      const ValueInfo& info = exe_.values[step.outputs[i - num_inputs]];
      Tensor& own = tensors_[holders[i]];
      own = make_tensor(device.shared_from_this(), info.dtype, info.shape, info.bytes, info.kind);
      set_memory(*own.impl(), device.handle(), views[i]);
    }
    const hx_kernel_args& args = views_->kernel_args(index);
    if (kTraced) trace.kernel_starts();
    hx_status* const status =
        measures_ ? compute_measured(index, step, args) : compute(step, args);
    if (status != nullptr) {
      try {
        throw_if_error(status, "plugin '" + step.kernel->plugin + "'");
      } catch (const Error& error) {
        if (kTraced && trace.on()) {
          traced(step, [&](const OpTraceInfo& info) { trace.record_failure(info, error.what()); });
        }
        throw;
      }
    }
    if (!device.asynchronous()) {
      if (kTraced && trace.on()) {
        traced(step, [&](const OpTraceInfo& info) { trace.record(info); });
      }
      return;
    }
    std::shared_ptr<ReadyEvent> ready;
    try {
      ready = device.record(label_of(step));
    } catch (...) {
      device.clear_stream_failure();
      throw;
    }
    sequence_[step.event] = next_sequence_.fetch_add(1, std::memory_order_relaxed);
    for (size_t value : step.outputs) {
      if (exe_.values[value].arena == ValueInfo::kOwnMemory) tensor(value).impl()->ready = ready;
    }
    if (kTraced && trace.on()) {
      traced(step, [&](const OpTraceInfo& info) {
        trace.record_enqueued(info, 0, [ready] { return ready->done(); });
      });
    }
    if (measures_ && starts_[index] != nullptr) timed_end_[index] = ready;
    events_[step.event] = std::move(ready);
  }

  static hx_status* compute(const StepInfo& step, const hx_kernel_args& args) {
    return call_kernel(*step.kernel, args);
  }

  // compute, timed for the cost model: on the host for a synchronous device; an asynchronous
  // one times its own work, between an event recorded here and the step's event after it.
  // Out of line: a run that measures is rare, and its test cost every node two branches.
  __attribute__((noinline)) hx_status* compute_measured(uint32_t index, const StepInfo& step,
                                                        const hx_kernel_args& args) {
    Device& device = *step.device;
    if (device.asynchronous()) {
      if (device.has_timing()) starts_[index] = device.record(label_of(step));
      return compute(step, args);
    }
    const Clock::time_point start = Clock::now();
    hx_status* const status = compute(step, args);
    seconds_[index] = seconds_since(start);
    return status;
  }

  // Calls `record` with the trace's view of op step `step`. Its inputs' dtypes and shapes are
  // gathered from their values here: only the trace needs them side by side, and a copy kept
  // in every step cost every node of a large graph about 100 bytes.
  template <class Record>
  void traced(const StepInfo& step, Record record) const {
    std::vector<TensorMeta> inputs;
    inputs.reserve(step.inputs.size());
    for (size_t value : step.inputs) {
      const ValueInfo& info = exe_.values[value];
      inputs.push_back({info.dtype, info.shape, info.bytes});
    }
    const NodePlacement& placement = *step.placement;
    record(OpTraceInfo{step.schema->name, inputs.data(), inputs.size(), step.device->name(),
                       step.kernel->plugin, placement.requested, placement.reason,
                       &placement.node});
  }

  void run_feed(const StepInfo& step) {
    const Tensor& fed = feeds_[step.feed];
    tensor(step.outputs[0]) =
        fed.impl()->device.get() == step.device ? fed : copy(fed, *step.device);
  }

  void run_transfer(uint32_t index, const StepInfo& step) {
    const Tensor& source = tensor(step.inputs[0]);
    check_not_failed(*source.impl(), "", 0);
    // A copy to a synchronous device has completed when it returns: its time is the link's.
    const bool timed = measures_ && !step.device->asynchronous() && source.ready();
    const Clock::time_point start = timed ? Clock::now() : Clock::time_point();
    tensor(step.outputs[0]) = copy(source, *step.device);
    if (timed) seconds_[index] = seconds_since(start);
    const std::shared_ptr<ReadyEvent>& ready = tensor(step.outputs[0]).impl()->ready;
    if (ready != nullptr) {
      sequence_[step.event] = next_sequence_.fetch_add(1, std::memory_order_relaxed);
      events_[step.event] = ready;
    }
  }

  // The run's timings into the runtime's cost model; the devices' own for queued kernels.
  void report_costs() {
    CostModel& costs = exe_.context->cost_model;
    for (size_t i = 0; i < starts_.size(); ++i) {
      if (starts_[i] == nullptr || timed_end_[i] == nullptr) continue;
      try {
        const Device& device = *exe_.steps[i].device;
        if (std::optional<uint64_t> ns = device.elapsed_ns(*starts_[i], *timed_end_[i])) {
          seconds_[i] = static_cast<double>(*ns) * 1e-9;
        }
      } catch (const Error&) {
        // A plugin that cannot time this pair leaves the step unmeasured.
      }
    }
    for (size_t i = 0; i < exe_.steps.size(); ++i) {
      if (seconds_[i] < 0) continue;
      const StepInfo& step = exe_.steps[i];
      if (step.kind == StepInfo::Kind::kOp) {
        costs.add_kernel(step.schema->name, step.device->index(), exe_.step_work[i],
                         seconds_[i]);
      } else if (step.kind == StepInfo::Kind::kTransfer) {
        const ValueInfo& from = exe_.values[step.inputs[0]];
        costs.add_transfer(from.device->index(), step.device->index(), from.bytes, seconds_[i]);
      }
    }
  }

  Tensor copy(const Tensor& tensor, Device& device) {
    return exe_.context->eager.copy_to(tensor, device);
  }

  // Waits for every event the run recorded; the failure of the earliest queued work that
  // failed becomes the run's, unless the host saw one first.
  void wait_for_devices() noexcept {
    std::optional<Error> earliest;
    uint64_t earliest_sequence = UINT64_MAX;
    for (size_t i = 0; i < events_.size(); ++i) {
      if (events_[i] == nullptr) continue;
      try {
        events_[i]->wait();
      } catch (const Error& error) {
        if (sequence_[i] < earliest_sequence) {
          earliest_sequence = sequence_[i];
          earliest.emplace(error);
        }
      } catch (...) {
      }
      events_[i] = nullptr;
    }
    if (earliest && !failure_) failure_ = std::move(earliest);
  }

  // The tensor of `value`, which has memory of its own.
  Tensor& tensor(size_t value) { return tensors_[exe_.values[value].tensor]; }
  const Tensor& tensor(size_t value) const { return tensors_[exe_.values[value].tensor]; }

  const ExecutableImpl& exe_;
  // Whether this run times its kernels and copies for the cost model (ExecutableImpl::measures,
  // in the runs the executable's checks read).
  const bool measures_;
  const std::vector<Tensor>& feeds_;
  const bool traced_;
  std::unique_ptr<std::atomic<uint32_t>[]> pending_;
  std::vector<Tensor> tensors_;  // per value with memory of its own (ValueInfo::tensor)
  std::vector<Device::Block> arena_blocks_;
  std::unique_ptr<BoundViews> views_;  // this run's, bound to arena_blocks_
  // Per step that may queue work (StepInfo::event): the event after its work, and when it
  // was queued.
  std::vector<std::shared_ptr<ReadyEvent>> events_;
  std::vector<uint64_t> sequence_;
  // Per step of a measuring run: its kernel's or copy's seconds, -1 when not timed.
  std::vector<double> seconds_;
  // Per step on a device that times its work, in a measuring run: the events before and after
  // its kernel (wait_for_devices drops events_, so the end is kept here).
  std::vector<std::shared_ptr<ReadyEvent>> starts_;
  std::vector<std::shared_ptr<ReadyEvent>> timed_end_;
  std::atomic<uint64_t> next_sequence_{0};
  tbb::task_group group_;
  size_t chunks_ = 1;  // how many chunks ready steps are shared out in (a few per thread)
  std::atomic<uint64_t> finished_{0};  // tasks ended: the caller acquires their writes
  EventWaiter* waiter_ = nullptr;
  // Steps made ready together by a step with many successors, while chunks of them run. A
  // list: its elements stay put, and an empty one allocates nothing (a deque allocated twice
  // on every run).
  std::mutex kept_mutex_;
  std::list<std::vector<uint32_t>> kept_;
  // Steps set aside until an event completes: counted until handed back in resumed_.
  std::mutex resume_mutex_;
  std::condition_variable resumed_ready_;
  size_t deferred_ = 0;            // guarded by resume_mutex_
  std::vector<uint32_t> resumed_;  // guarded by resume_mutex_
  std::atomic<bool> failed_{false};
  std::mutex failure_mutex_;
  std::optional<Error> failure_;  // guarded by failure_mutex_ while steps run
};

}  // namespace

std::vector<Tensor> run_executable(const ExecutableImpl& exe, const std::vector<Tensor>& feeds,
                                   bool measure) {
  if (exe.recorded != nullptr) {
    if (std::optional<std::vector<Tensor>> fetched = exe.recorded->run(feeds)) return *fetched;
  }
  GraphContext& context = *exe.context;
  InterOpPool::Arena& pool = context.inter_op_pool.arena(context.config.execution.inter_op_threads);
  Run run(exe, feeds, measure);
  return run.execute(pool, context.event_waiter);
}

}  // namespace hxrt::detail
