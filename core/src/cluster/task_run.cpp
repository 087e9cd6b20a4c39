#include "cluster/task_run.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cluster/host_tensors.hpp"
#include "cluster/polling.hpp"
#include "graph/run/run.hpp"

namespace hxrt::detail {
namespace {

using Clock = std::chrono::steady_clock;

class TaskRun {
 public:
  TaskRun(const CompiledPlan& compiled, const RunSetting& setting, std::vector<Tensor>& values,
          AbandonedSends& abandoned)
      : compiled_(compiled), setting_(setting), values_(values), abandoned_(abandoned) {}

  // Gives up what is still in flight: receives are cancelled, sends kept (AbandonedSends).
  ~TaskRun() {
    for (InFlight& send : sends_) {
      if (send.transfer) {
        abandoned_.keep(std::move(send.transfer), std::make_shared<Tensor>(send.tensor));
      }
    }
  }
  TaskRun(const TaskRun&) = delete;
  TaskRun& operator=(const TaskRun&) = delete;

  void run() {
    const TaskPlan& plan = compiled_.plan;
    last_progress_ = Clock::now();
    for (const PlanTransfer& receive : plan.receives) start_receive(receive);
    for (const PlanTransfer& send : plan.sends) start_send(send);
    for (size_t i = 0; i < plan.stages.size(); ++i) {
      const PlanStage& stage = plan.stages[i];
      for (size_t value : stage.awaits) await(value);
      if (stage.collective) {
        run_collective(*stage.collective);
      } else {
        run_stage(stage, *compiled_.parts[i]);
      }
      for (const PlanTransfer& send : stage.sends) start_send(send);
    }
    for (const auto& receive : receives_) await(receive.first);
    for (InFlight& send : sends_) {
      wait_until([&] { return send.transfer->done(); }, compiled_.values[send.value],
                 "taken by", send.peer);
      send.transfer.reset();
      send.tensor = Tensor();
    }
  }

 private:
  struct InFlight {
    size_t value;
    int peer;
    std::unique_ptr<Transfer> transfer;
    Tensor tensor;  // what it reads or writes
  };

  int tag_of(size_t value) const { return compiled_.tags.value(value); }

  void start_receive(const PlanTransfer& receive) {
    const PartValue& value = compiled_.values[receive.value];
    InFlight in_flight{receive.value, receive.peer, nullptr, Tensor()};
    void* data = nullptr;
    size_t bytes = 0;
    if (!value.token()) {
      in_flight.tensor = new_host_tensor(setting_.host, value.dtype, value.shape);
      data = host_bytes(in_flight.tensor);
      bytes = in_flight.tensor.byte_size();
    }
    in_flight.transfer = setting_.cluster.transport().start_receive(
        receive.peer, tag_of(receive.value), data, bytes);
    receives_.emplace(receive.value, std::move(in_flight));
  }

  void start_send(const PlanTransfer& send) {
    const PartValue& value = compiled_.values[send.value];
    InFlight in_flight{send.value, send.peer, nullptr, Tensor()};
    const void* data = nullptr;
    size_t bytes = 0;
    if (!value.token()) {
      in_flight.tensor = readable_on_host(values_[send.value], setting_.host, setting_.eager);
      data = host_bytes(in_flight.tensor);
      bytes = in_flight.tensor.byte_size();
    }
    in_flight.transfer =
        setting_.cluster.transport().start_send(send.peer, tag_of(send.value), data, bytes);
    sends_.push_back(std::move(in_flight));
  }

  // Waits for `value` when it comes from another task; one computed here is there already.
  void await(size_t value) {
    auto found = receives_.find(value);
    if (found == receives_.end() || found->second.transfer == nullptr) return;
    InFlight& receive = found->second;
    wait_until([&] { return receive.transfer->done(); }, compiled_.values[value], "from",
               receive.peer);
    receive.transfer.reset();
    values_[value] = std::move(receive.tensor);
  }

  void run_stage(const PlanStage& stage, const ExecutableImpl& part) {
    std::vector<Tensor> feeds;
    feeds.reserve(stage.reads.size());
    for (size_t value : stage.reads) feeds.push_back(values_[value]);
    std::vector<Tensor> computed = run_executable(part, feeds);
    for (size_t i = 0; i < stage.computes.size(); ++i) {
      values_[stage.computes[i]] = std::move(computed[i]);
    }
  }

  void run_collective(const PlanCollective& collective) {
    if (collective.op == "AllGather") return run_all_gather(collective);
    if (collective.op == "Broadcast") return run_broadcast(collective);
    const PartValue& first = compiled_.values[collective.outputs[0]];
    if (collective.op == "AllReduce") {
      values_[collective.outputs[0]] = all_reduced(collective, first, first.shape);
      return;
    }
    // ReduceScatter: the whole reduction, then each shard of it (as much as an AllReduce
    // moves, twice what MPI's reduce-scatter would; every task of the group holds every shard).
    Shape whole = first.shape;
    whole.set_dim(0, first.shape[0] * static_cast<int64_t>(collective.outputs.size()));
    const Tensor reduced = all_reduced(collective, first, whole);
    const size_t shard_bytes = tensor_bytes(first.dtype, first.shape);
    for (size_t i = 0; i < collective.outputs.size(); ++i) {
      Tensor shard = new_host_tensor(setting_.host, first.dtype, first.shape);
      if (shard_bytes != 0) {
        std::memcpy(host_bytes(shard), host_bytes(reduced) + i * shard_bytes, shard_bytes);
      }
      values_[collective.outputs[i]] = std::move(shard);
    }
  }

  // This task's replicas reduced on the host, then with the other tasks' by MPI, in place; a
  // mean is the sum over the replicas of every task. `value` names the result in errors;
  // `shape` is the replicas'.
  Tensor all_reduced(const PlanCollective& collective, const PartValue& value,
                     const Shape& shape) {
    EagerOps& eager = setting_.eager;
    const std::string host = setting_.host.name();
    const bool mean = collective.reduction == "mean";
    std::vector<Tensor> replicas;
    for (size_t input : collective.inputs) replicas.push_back(values_[input]);
    Tensor reduced;
    if (replicas.size() == 1) {
      // A copy: MPI writes the reduction over it, and the replica may be read again.
      const Tensor replica = readable_on_host(replicas[0], setting_.host, eager);
      reduced = new_host_tensor(setting_.host, value.dtype, shape);
      if (reduced.byte_size() != 0) {
        std::memcpy(host_bytes(reduced), host_bytes(replica), reduced.byte_size());
      }
    } else {
      std::vector<TensorArg> args(replicas.begin(), replicas.end());
      const Attrs attrs{{"reduction", mean ? std::string("sum") : collective.reduction}};
      eager.run(eager.schema_of("AllReduce"), args.data(), args.size(), attrs, host, &reduced);
      reduced = readable_on_host(reduced, setting_.host, eager);
    }
    const ReduceOp op = collective.reduction == "max"   ? ReduceOp::kMax
                        : collective.reduction == "min" ? ReduceOp::kMin
                                                        : ReduceOp::kSum;
    std::unique_ptr<Transfer> all_reduce = setting_.cluster.transport().start_all_reduce(
        collective.group, value.dtype, op, host_bytes(reduced),
        static_cast<size_t>(shape.num_elements()));
    wait_for_collective(all_reduce, std::make_shared<Tensor>(reduced), value, "reduced with",
                        collective.group[0]);
    if (mean) {
      Tensor count = new_host_tensor(setting_.host, DType::kF64, Shape{});
      const auto replicas_count = static_cast<double>(collective.replica_ranks.size());
      std::memcpy(host_bytes(count), &replicas_count, sizeof(double));
      Tensor divisor;
      const TensorArg cast_args[] = {count};
      eager.run(eager.schema_of("Cast"), cast_args, 1, Attrs{{"dtype", value.dtype}}, host,
                &divisor);
      const TensorArg div_args[] = {reduced, divisor};
      eager.run(eager.schema_of("Div"), div_args, 2, kNoAttrs, host, &reduced);
      reduced = readable_on_host(reduced, setting_.host, eager);
    }
    return reduced;
  }

  // This task's replicas one after another, then every task's by MPI, then put in replica
  // order (a task's replicas need not be next to each other in it).
  void run_all_gather(const PlanCollective& collective) {
    const PartValue& value = compiled_.values[collective.outputs[0]];
    Tensor gathered = new_host_tensor(setting_.host, value.dtype, value.shape);
    const size_t each = gathered.byte_size() / collective.replica_ranks.size();
    // This task's replicas, and every task's as MPI gathers them: kept whole by one pointer, for
    // a gather given up.
    struct Buffers {
      std::vector<unsigned char> mine;
      std::vector<unsigned char> by_task;
    };
    const auto buffers = std::make_shared<Buffers>();
    std::vector<unsigned char>& mine = buffers->mine;
    mine.resize(each * collective.inputs.size());
    for (size_t i = 0; i < collective.inputs.size(); ++i) {
      const Tensor replica = readable_on_host(values_[collective.inputs[i]], setting_.host,
                                              setting_.eager);
      if (each != 0) std::memcpy(mine.data() + i * each, host_bytes(replica), each);
    }
    // Where each task's replicas land in what MPI gathers: task after task.
    std::vector<size_t> counts;
    std::map<int, size_t> first_of_task;
    size_t total = 0;
    for (int rank : collective.group) {
      const auto replicas = static_cast<size_t>(std::count(
          collective.replica_ranks.begin(), collective.replica_ranks.end(), rank));
      first_of_task[rank] = total;
      counts.push_back(replicas * each);
      total += replicas * each;
    }
    std::vector<unsigned char>& by_task = buffers->by_task;
    by_task.resize(total);
    std::unique_ptr<Transfer> all_gather = setting_.cluster.transport().start_all_gather(
        collective.group, mine.data(), mine.size(), by_task.data(), counts);
    wait_for_collective(all_gather, buffers, value, "gathered with", collective.group[0]);
    std::map<int, size_t> next_of_task = first_of_task;
    for (size_t replica = 0; replica < collective.replica_ranks.size() && each != 0; ++replica) {
      size_t& from = next_of_task[collective.replica_ranks[replica]];
      std::memcpy(host_bytes(gathered) + replica * each, by_task.data() + from, each);
      from += each;
    }
    values_[collective.outputs[0]] = std::move(gathered);
  }

  // The root task's tensor to every task of the group.
  void run_broadcast(const PlanCollective& collective) {
    const PartValue& value = compiled_.values[collective.outputs[0]];
    const bool root = setting_.cluster.rank() == collective.root;
    // The root's own, which MPI only reads; elsewhere, a tensor for it to land in.
    Tensor tensor = root ? readable_on_host(values_[collective.inputs.at(0)], setting_.host,
                                            setting_.eager)
                         : new_host_tensor(setting_.host, value.dtype, value.shape);
    std::unique_ptr<Transfer> broadcast = setting_.cluster.transport().start_broadcast(
        collective.group, collective.root, host_bytes(tensor), tensor.byte_size());
    wait_for_collective(broadcast, std::make_shared<Tensor>(tensor), value, "broadcast from",
                        collective.root);
    values_[collective.outputs[0]] = std::move(tensor);
  }

  // Waits for a collective; one given up leaves `memory`, which MPI may still write or read,
  // kept with it (AbandonedSends).
  void wait_for_collective(std::unique_ptr<Transfer>& collective,
                           std::shared_ptr<const void> memory, const PartValue& value,
                           const char* how, int peer) {
    try {
      wait_until([&] { return collective->done(); }, value, how, peer);
    } catch (...) {
      abandoned_.keep(std::move(collective), std::move(memory));
      throw;
    }
  }

  // Polls `done` until it holds, reading the other tasks' failures meanwhile; Error when
  // nothing came for longer than the timeout. `value`, `how` and `peer` say what it waits
  // for: "mm:0 from /job:worker/replica:0/task:1".
  template <class Done>
  void wait_until(Done done, const PartValue& value, const char* how, int peer) {
    Polling polling(Polling::kRunEager);
    while (!finished(done, peer)) {
      if (std::optional<Message> failure =
              setting_.cluster.transport().take_message(compiled_.tags.failure())) {
        throw_told(*failure);
      }
      if (Clock::now() - last_progress_ > setting_.timeout) {
        const std::string waited =
            std::to_string(setting_.timeout.count()) + " ms for " + describe(value) + " " +
            how + " " + task_name(peer);
        setting_.cluster.mark_lost(peer);
        throw Error(StatusCode::kUnavailable,
                    task_name(setting_.cluster.transport().rank()) + " waited " + waited +
                        ", which did not answer: the task died or hangs, or runs a part for "
                        "longer than cluster.timeout_ms");
      }
      polling.pause();
    }
    last_progress_ = Clock::now();
  }

  // done(), with an MPI error of a message with `peer` (a task that died, to some of MPI's
  // transports) making the peer lost.
  template <class Done>
  bool finished(Done& done, int peer) {
    try {
      return done();
    } catch (const std::runtime_error& error) {
      setting_.cluster.mark_lost(peer);
      throw Error(StatusCode::kUnavailable, task_name(setting_.cluster.rank()) +
                                                ": a message with " + task_name(peer) +
                                                " failed: " + error.what());
    }
  }

  [[noreturn]] void throw_told(const Message& message) const {
    StatusCode code = StatusCode::kInternal;
    std::string what = "a failure it could not describe";
    try {
      const nlohmann::json failure = nlohmann::json::parse(message.bytes);
      code = static_cast<StatusCode>(failure.at("code").get<int>());
      what = failure.at("error").get<std::string>();
    } catch (const nlohmann::json::exception&) {
    }
    throw Error(code, task_name(message.source) + ": " + what);
  }

  static std::string describe(const PartValue& value) {
    if (value.token()) return "the word that '" + value.source.node + "' ran";
    return value.source.node + ":" + std::to_string(value.source.index);
  }

  std::string task_name(int rank) const {
    return setting_.cluster.tasks().at(static_cast<size_t>(rank)).prefix();
  }

  const CompiledPlan& compiled_;
  const RunSetting& setting_;
  std::vector<Tensor>& values_;
  AbandonedSends& abandoned_;
  std::map<size_t, InFlight> receives_;
  std::vector<InFlight> sends_;
  Clock::time_point last_progress_;
};

// Tells every other task of the executable that this one's run failed, so that they stop
// waiting for what it will not send.
void tell_failure(const CompiledPlan& compiled, const RunSetting& setting, const Error& error,
                  AbandonedSends& abandoned) {
  const auto message = std::make_shared<const std::string>(
      nlohmann::json{{"code", static_cast<int>(error.code())}, {"error", error.what()}}.dump());
  std::vector<std::unique_ptr<Transfer>> told;
  for (int peer : compiled.participants) {
    if (peer == setting.cluster.transport().rank()) continue;
    try {
      told.push_back(setting.cluster.transport().start_send(peer, compiled.tags.failure(),
                                                  message->data(), message->size()));
    } catch (const std::exception&) {
      // The task may be gone: it is told what it can be.
    }
  }
  // Small messages go at once; the wait is short.
  const auto deadline = Clock::now() + setting.timeout;
  Polling polling;
  for (std::unique_ptr<Transfer>& transfer : told) {
    try {
      while (!transfer->done() && Clock::now() < deadline) polling.pause();
      if (!transfer->done()) abandoned.keep(std::move(transfer), message);
    } catch (const std::exception&) {
    }
  }
}

}  // namespace

void run_task_plan(const CompiledPlan& compiled, const RunSetting& setting,
                   std::vector<Tensor>& values, AbandonedSends& abandoned) {
  try {
    TaskRun(compiled, setting, values, abandoned).run();
  } catch (const Error& error) {
    // Told whatever it was (a failure here, another task's, a wait that ran out): the other
    // tasks may be waiting for this one.
    tell_failure(compiled, setting, error, abandoned);
    throw;
  } catch (const std::exception& error) {
    const Error failure(StatusCode::kUnavailable,
                        setting.cluster.task().prefix() +
                            ": a message between tasks failed: " + error.what());
    tell_failure(compiled, setting, failure, abandoned);
    throw failure;
  }
}

}  // namespace hxrt::detail
