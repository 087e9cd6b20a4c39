#include "cluster/task_executable.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "cluster/dynamic_across_tasks.hpp"
#include "cluster/host_tensors.hpp"
#include "cluster/part_description.hpp"
#include "cluster/polling.hpp"
#include "cluster/quiet_context.hpp"
#include "graph/compile/compile_phases.hpp"
#include "graph/executable_handle.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// What a collective across tasks does, for its placement's reason.
std::string how_across_tasks(const std::string& op) {
  if (op == "AllGather") {
    return "each joins its replicas on its host, then MPI_Allgatherv the tasks'";
  }
  if (op == "Broadcast") return "MPI_Bcast from its root's host to the others'";
  if (op == "ReduceScatter") {
    return "each reduces its replicas on its host, then MPI_Allreduce the tasks' results, "
           "then cuts them into the shards";
  }
  return "each reduces its replicas on its host, then MPI_Allreduce the tasks' results";
}

// This process's executables across tasks, numbered: with the client's rank, their name in
// the services' requests.
std::atomic<uint64_t> g_executables{0};

class TaskExecutable final : public StagedRuns {
 public:
  TaskExecutable(ClusterService& service, std::shared_ptr<GraphContext> context, ClusterPlan plan,
                 std::vector<NodeOutput> fetches, const CompileOptions& options,
                 std::map<std::string, NodePlacement> chosen)
      : service_(service),
        context_(std::move(context)),
        id_{service.cluster().rank(), g_executables.fetch_add(1)},
        inputs_(std::move(plan.inputs)),
        input_dtypes_(std::move(plan.input_dtypes)),
        input_shapes_(std::move(plan.input_shapes)),
        input_values_(std::move(plan.input_values)),
        fetch_values_(std::move(plan.fetch_values)),
        fetches_(std::move(fetches)),
        chosen_(std::move(chosen)) {
    own_.tags = service.new_tags(plan.values.size());
    for (const TaskPlan& task : plan.tasks) own_.participants.push_back(task.rank);
    for (size_t i = 1; i < plan.tasks.size(); ++i) {
      service.post(plan.tasks[i].rank, {{"request", "compile"},
                                        {"executable", id_},
                                        {"tags", {own_.tags.first, own_.tags.stride}},
                                        {"participants", own_.participants},
                                        {"plan", task_plan_to_wire(plan.tasks[i], plan.values)},
                                        {"options", part_options_to_wire(options)}});
      remotes_.push_back(plan.tasks[i].rank);
    }
    try {
      std::vector<std::string> between_tasks = transfers_between_tasks(plan);
      collectives_ = collective_placements(plan);
      own_.values = std::move(plan.values);
      own_.plan = std::move(plan.tasks[0]);
      const std::shared_ptr<GraphContext> quiet = without_placement_log(context_);
      for (const PlanStage& stage : own_.plan.stages) {
        own_.parts.push_back(stage.collective
                                 ? nullptr
                                 : compile_graph(quiet, stage.part, stage.fetches,
                                                 options_for_part(options, stage.part, true),
                                                 nullptr));
      }
      describe(std::move(between_tasks));
    } catch (...) {
      release();
      throw;
    }
  }

  ~TaskExecutable() override { release(); }

  const std::shared_ptr<const ExecutableImpl>& first() const override { return description_; }
  const std::vector<std::string>& inputs() const override { return inputs_; }
  const std::vector<DType>& input_dtypes() const override { return input_dtypes_; }
  const std::vector<Shape>& input_shapes() const override { return input_shapes_; }
  const std::vector<NodeOutput>& fetches() const override { return fetches_; }

  // Runs go one at a time: each task runs its parts in the order the client asked for them.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const override {
    std::lock_guard<std::mutex> lock(run_mutex_);
    if (!failure_.empty()) {
      throw Error(StatusCode::kFailedPrecondition,
                  "an earlier run of this graph across tasks failed (" + failure_ +
                      "), and what it left in flight could be taken for a later run's: "
                      "compile the graph again");
    }
    for (int rank : remotes_) service_.post(rank, {{"request", "run"}, {"executable", id_}});
    std::vector<Tensor> values(own_.values.size());
    for (size_t i = 0; i < inputs.size(); ++i) values[input_values_[i]] = inputs[i];
    const RunSetting setting{service_.cluster(), context_->eager, host_device(context_->devices),
                             service_.timeout()};
    try {
      run_task_plan(own_, setting, values, abandoned_);
    } catch (const Error& error) {
      failure_ = error.what();
      throw;
    }
    std::vector<Tensor> fetched;
    fetched.reserve(fetch_values_.size());
    for (size_t value : fetch_values_) fetched.push_back(values[value]);
    return fetched;
  }

 private:
  // "mm:0 from /job:worker/replica:0/task:1 to /job:worker/replica:0/task:0", per message
  // of a run between tasks.
  std::vector<std::string> transfers_between_tasks(const ClusterPlan& plan) const {
    const std::vector<TaskName>& tasks = service_.cluster().tasks();
    std::vector<std::string> lines;
    for (const TaskPlan& task : plan.tasks) {
      for (const PlanTransfer& receive : task.receives) {
        const PartValue& sent = plan.values[receive.value];
        const std::string what =
            sent.token() ? "'" + sent.source.node + "' ran"
                         : sent.source.node + ":" + std::to_string(sent.source.index);
        lines.push_back(what + " from " + tasks[static_cast<size_t>(receive.peer)].prefix() +
                        " to " + tasks[static_cast<size_t>(task.rank)].prefix());
      }
    }
    return lines;
  }

  // An entry per AllReduce across tasks: at home on its first task's host device, where the
  // reduction is; every task of its group holds the result.
  std::vector<NodePlacement> collective_placements(const ClusterPlan& plan) const {
    const Cluster& cluster = service_.cluster();
    std::vector<NodePlacement> placements;
    std::set<std::string> placed;
    for (const TaskPlan& task : plan.tasks) {
      for (const PlanStage& stage : task.stages) {
        if (!stage.collective || !placed.insert(stage.collective->node).second) continue;
        const PlanCollective& collective = *stage.collective;
        NodePlacement placement;
        placement.node = collective.node;
        placement.op = collective.op;
        placement.device = host_of(collective.root);
        std::string tasks;
        for (int rank : collective.group) {
          const std::string& task = cluster.tasks()[static_cast<size_t>(rank)].prefix();
          tasks += (tasks.empty() ? "" : ", ") + task;
        }
        placement.reason = "across tasks " + tasks + ": " + how_across_tasks(collective.op);
        placements.push_back(std::move(placement));
      }
    }
    return placements;
  }

  // The canonical name of the host device of the task of `rank`.
  std::string host_of(int rank) const {
    const Cluster& cluster = service_.cluster();
    if (rank == cluster.rank()) return host_device(context_->devices).name();
    return cluster.remote_host_name(rank);
  }

  // Waits for every task's answer to the compile, then describes the whole and logs its
  // placement.
  void describe(std::vector<std::string> between_tasks) {
    auto whole = std::make_shared<ExecutableImpl>();
    const std::set<std::string> graph_inputs(inputs_.begin(), inputs_.end());
    add_description(describe_parts(own_.parts), graph_inputs, *whole);
    for (NodePlacement& collective : collectives_) {
      whole->placement.push_back(std::move(collective));
    }
    for (int rank : remotes_) add_description(await_compiled(rank), graph_inputs, *whole);
    for (std::string& line : between_tasks) whole->transfers.push_back(std::move(line));
    // A node the placer put on its task says why, rather than that it was placed before.
    for (NodePlacement& placement : whole->placement) {
      auto chosen = chosen_.find(placement.node);
      if (chosen == chosen_.end()) continue;
      placement.requested = chosen->second.requested;
      placement.request_source = chosen->second.request_source;
      placement.reason = std::move(chosen->second.reason);
      placement.estimates = std::move(chosen->second.estimates);
    }
    chosen_.clear();
    log_placement(*context_, whole->placement);
    description_ = std::move(whole);
  }

  json await_compiled(int rank) {
    const std::string& task = service_.cluster().tasks()[static_cast<size_t>(rank)].prefix();
    const auto deadline = Clock::now() + service_.timeout();
    Polling polling;
    std::optional<Message> reply;
    while (!(reply = service_.cluster().transport().take_message(own_.tags.reply(), rank))) {
      if (Clock::now() > deadline) {
        service_.cluster().mark_lost(rank);
        throw Error(StatusCode::kUnavailable,
                    "waited " + std::to_string(service_.timeout().count()) + " ms for " + task +
                        " to compile its part of the graph, which did not answer: the task "
                        "died or hangs, or compiles for longer than cluster.timeout_ms");
      }
      polling.pause();
    }
    json answer;
    try {
      answer = json::from_msgpack(reply->bytes);
      if (answer.at("ok").get<bool>()) return answer.at("description");
    } catch (const json::exception& e) {
      throw Error(StatusCode::kInternal, task + " answered the compile with no answer: " +
                                             std::string(e.what()));
    }
    const int code = answer.value("code", static_cast<int>(StatusCode::kInternal));
    throw Error(static_cast<StatusCode>(code),
                task + ", compiling its part of the graph: " + answer.value("error", ""));
  }

  // Tells the other tasks to let their parts go.
  void release() noexcept {
    for (int rank : remotes_) {
      try {
        service_.post(rank, {{"request", "release"}, {"executable", id_}});
      } catch (const std::exception&) {
        // The task is gone: its parts went with it.
      }
    }
  }

  ClusterService& service_;
  std::shared_ptr<GraphContext> context_;  // keeps the runtime, and its service, alive
  const std::pair<int, uint64_t> id_;
  const std::vector<std::string> inputs_;
  const std::vector<DType> input_dtypes_;
  const std::vector<Shape> input_shapes_;
  const std::vector<size_t> input_values_;
  const std::vector<size_t> fetch_values_;
  const std::vector<NodeOutput> fetches_;
  CompiledPlan own_;
  std::vector<int> remotes_;
  std::map<std::string, NodePlacement> chosen_;  // by the placer across tasks, until described
  std::vector<NodePlacement> collectives_;  // until described
  std::shared_ptr<const ExecutableImpl> description_;
  mutable std::mutex run_mutex_;
  mutable AbandonedSends abandoned_;
  mutable std::string failure_;  // guarded by run_mutex_
};

}  // namespace

std::unique_ptr<const StagedRuns> compile_across_tasks(ClusterService& service,
                                                       std::shared_ptr<GraphContext> context,
                                                       const Graph& graph,
                                                       const std::vector<NodeOutput>& fetches,
                                                       const CompileOptions& options) {
  const Cluster& cluster = service.cluster();
  PlacedAcrossTasks placed = place_across_tasks(service, context, graph, fetches, options);
  std::optional<ClusterPlan> plan = plan_across_tasks(
      graph, fetches, placed.options, cluster.tasks(), cluster.rank(), context->ops);
  if (!plan) return nullptr;
  return std::make_unique<TaskExecutable>(service, std::move(context), std::move(*plan), fetches,
                                          placed.options, std::move(placed.chosen));
}

}  // namespace hxrt::detail
