// How a graph whose nodes run on several tasks of a cluster runs (docs/cluster.md, "Graphs
// across tasks"). Each needed node has a task: the one its device request names, else (a
// constant) its first consumer's, else the client's, the task that compiles the graph. A
// node's stage is how many edges between tasks the longest path to it crosses. The nodes of
// one task and stage are a part, compiled on that task as a graph of its own: its inputs the
// values it reads of other parts, its fetches those that other parts or the graph's fetches
// read. A run goes through the stages in order on every task at once: a part runs when what it
// reads has come, then sends what other tasks read of it. A part waits only for parts of
// earlier stages, which wait for none of it, so no run can wait on itself.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/device_name.hpp"
#include "devices/device.hpp"
#include "hxrt/executable.hpp"
#include "hxrt/graph.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// A tensor that goes from a part to others: a node's output, or (index kToken) only the word
// that the node has run, for a control input on another task.
struct PartValue {
  static constexpr int kToken = -1;
  NodeOutput source;
  DType dtype = DType::kF32;
  Shape shape;
  bool token() const { return source.index == kToken; }
};

// A value on its way between two tasks: from the task that computes it to one that reads it.
struct PlanTransfer {
  size_t value;
  int peer;  // the rank it goes to (a send) or comes from (a receive)
};

// A collective step over tasks: an AllReduce (this task's replicas reduced here, then with
// the other tasks' by MPI), a ReduceScatter (an AllReduce, then cut into its shards), an
// AllGather (this task's replicas joined, then the tasks'), or a Broadcast (the root task's
// tensor to every task of the group).
struct PlanCollective {
  std::string op;              // "AllReduce", "ReduceScatter", "AllGather" or "Broadcast"
  std::string node;            // for errors
  std::vector<size_t> inputs;  // this task's replicas, in replica order (the root's tensor)
  // The results, then on every task of the group: one, or ReduceScatter's shards in replica
  // order.
  std::vector<size_t> outputs;
  std::string reduction;       // AllReduce's: "sum", "mean", "max" or "min"
  std::vector<int> replica_ranks;  // every replica's task, in replica order
  int root = 0;                // its home: the task of Broadcast's tensor, else the first
  std::vector<int> group;      // the ranks of the tasks, ascending
};

// A step of a task's run: a part, or a collective.
struct PlanStage {
  std::optional<PlanCollective> collective;  // set: a collective, without a part
  Graph part;                       // its inputs (one per read) first, then its nodes
  std::vector<size_t> reads;        // the values its inputs are fed, in order
  std::vector<size_t> awaits;       // the values received that must have come: reads, tokens
  std::vector<NodeOutput> fetches;  // of `part`, one per value in `computes`
  std::vector<size_t> computes;     // what it gives the task's later parts and other tasks
  std::vector<PlanTransfer> sends;  // once it has run
};

// One task's share of a run.
struct TaskPlan {
  int rank = 0;
  std::vector<PlanTransfer> receives;  // posted as a run starts
  std::vector<PlanTransfer> sends;     // the graph inputs other tasks read (the client's)
  std::vector<PlanStage> stages;       // in the order they run
};

struct ClusterPlan {
  std::vector<PartValue> values;
  std::vector<TaskPlan> tasks;      // those with work, the client's first
  std::vector<std::string> inputs;  // the graph inputs the fetches need, in graph order
  std::vector<size_t> input_values;
  std::vector<DType> input_dtypes;
  std::vector<Shape> input_shapes;
  std::vector<size_t> fetch_values;
};

// The plan of `graph` for `fetches`, compiled on `tasks[client]`; nullopt when every node it
// needs runs there. Error(kInvalidArgument) naming the node whose request names no task of the
// cluster or an AllReduce across tasks of a dtype MPI cannot reduce, or for a graph with
// shapes known only at run (which cannot be split yet).
std::optional<ClusterPlan> plan_across_tasks(const Graph& graph,
                                             const std::vector<NodeOutput>& fetches,
                                             const CompileOptions& options,
                                             const std::vector<TaskName>& tasks, int client,
                                             const OpRegistry& ops);

// A task's plan as the message that carries it, with the values it names; and back, its
// constants on `host`. Error(kInvalidArgument) for a message that is no plan.
nlohmann::json task_plan_to_wire(const TaskPlan& plan, const std::vector<PartValue>& values);
TaskPlan task_plan_from_wire(const nlohmann::json& wire, const OpRegistry& ops, Device& host,
                             std::vector<PartValue>& values);

// What of the compile options a task's parts compile with: the placer, the graph passes, and
// the placement given back (its nodes' entries name their task's devices).
nlohmann::json part_options_to_wire(const CompileOptions& options);
CompileOptions part_options_from_wire(const nlohmann::json& wire);
// `options` for one part (a compile refuses entries naming nodes its graph does not have): the
// placement given back of its own ops and constants (its inputs stand for values of other
// parts, which may share their producers' names), and on the client, where the graph is fed,
// the feeds' devices of its graph inputs.
CompileOptions options_for_part(const CompileOptions& options, const Graph& part, bool client);

}  // namespace hxrt::detail
