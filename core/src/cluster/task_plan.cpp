#include "cluster/task_plan.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "cluster/graph_wire.hpp"
#include "cluster/transport.hpp"
#include "graph/compile/compile_phases.hpp"
#include "graph/staged/graph_parts.hpp"
#include "graph/staged/run_time_stages.hpp"

namespace hxrt::detail {
namespace {

constexpr int kNoTask = -1;

std::string task_list(const std::vector<TaskName>& tasks) {
  std::string list;
  for (const TaskName& task : tasks) list += (list.empty() ? "" : ", ") + task.prefix();
  return list;
}

// The rank of the task `request` names, or kNoTask when it names no job and no task.
int requested_task(const std::string& node, const std::string& request,
                   const std::vector<TaskName>& tasks) {
  if (request.empty()) return kNoTask;
  const DeviceSpec spec = parse_device_name(request);
  if (spec.job.empty() && spec.task < 0) return kNoTask;
  for (size_t rank = 0; rank < tasks.size(); ++rank) {
    if (tasks[rank].admits(spec)) return static_cast<int>(rank);
  }
  throw Error(StatusCode::kInvalidArgument,
              "graph node '" + node + "' asks for " + request +
                  ", which names no task of this cluster; its tasks are " + task_list(tasks));
}

// Builds the plan, part by part, from every needed node's task and stage. An AllReduce whose
// replicas live on several tasks is a collective: a step on each of those tasks (its group),
// at a stage after every replica's, where the task reduces its own replicas and MPI the tasks'
// results; its output is then on every task of the group, and sent from the first (its home)
// to any other task that reads it.
class Planner {
 public:
  Planner(const Graph& graph, const std::vector<bool>& needed, std::vector<int> task,
          std::vector<std::vector<int>> groups, int client, const OpRegistry& ops)
      : graph_(graph),
        needed_(needed),
        task_(std::move(task)),
        groups_(std::move(groups)),
        client_(client),
        ops_(ops) {}

  ClusterPlan plan(const std::vector<NodeOutput>& fetches) {
    const std::vector<GraphNode>& nodes = graph_.nodes();
    assign_stages();
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!needed_[i]) continue;
      if (nodes[i].kind == GraphNode::Kind::kInput) {
        plan_.inputs.push_back(nodes[i].name);
        plan_.input_values.push_back(value_of({nodes[i].name, 0}));
        plan_.input_dtypes.push_back(nodes[i].output_dtypes[0]);
        plan_.input_shapes.push_back(nodes[i].output_shapes[0]);
      } else if (collective(i)) {
        read_replicas_of(i);
      } else {
        read_inputs_of(i);
      }
    }
    for (const NodeOutput& fetch : fetches) {
      const size_t value = value_of(fetch);
      plan_.fetch_values.push_back(value);
      reach(graph_index(graph_, fetch.node), value, client_);
    }
    build_tasks();
    return std::move(plan_);
  }

 private:
  // (task, stage, step, node): a task's steps run in this order; in a stage, its collectives
  // (step 0, by node) come before its part (step 1), which may read them.
  using StepKey = std::tuple<int, int, int, size_t>;

  struct Step {
    std::vector<bool> members;  // a part's nodes
    std::vector<size_t> reads;
    std::vector<size_t> awaits;
    std::vector<size_t> computes;
    size_t collective = SIZE_MAX;  // the collective node of a collective step
  };

  bool collective(size_t node) const { return !groups_[node].empty(); }
  bool in_group(size_t node, int task) const {
    const std::vector<int>& group = groups_[node];
    return std::find(group.begin(), group.end(), task) != group.end();
  }
  // Whether `task` holds node's outputs once it has run.
  bool holds(size_t node, int task) const { return task_[node] == task || in_group(node, task); }

  void assign_stages() {
    const std::vector<GraphNode>& nodes = graph_.nodes();
    stage_.assign(nodes.size(), 0);
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!needed_[i]) continue;
      const auto after = [&](const std::string& name) {
        const size_t p = graph_index(graph_, name);
        const bool crosses = collective(i) || !holds(p, task_[i]);
        stage_[i] = std::max(stage_[i], stage_[p] + (crosses ? 1 : 0));
      };
      for (const NodeOutput& input : nodes[i].inputs) after(input.node);
      for (const std::string& control : nodes[i].control_inputs) after(control);
      if (nodes[i].kind == GraphNode::Kind::kInput) continue;
      if (collective(i)) {
        for (int task : groups_[i]) steps_[{task, stage_[i], 0, i}].collective = i;
        continue;
      }
      Step& part = steps_[{task_[i], stage_[i], 1, 0}];
      part.members.resize(nodes.size());
      part.members[i] = true;
    }
  }

  Step& part_of(size_t node) { return steps_.at({task_[node], stage_[node], 1, 0}); }

  size_t value_of(const NodeOutput& output) {
    auto [found, added] = value_ids_.emplace(std::make_pair(output.node, output.index),
                                             plan_.values.size());
    if (!added) return found->second;
    PartValue value;
    value.source = output;
    if (output.index == PartValue::kToken) {
      value.dtype = DType::kBool;
      value.shape = Shape{0};
    } else {
      const GraphNode& node = *graph_.find(output.node);
      value.dtype = node.output_dtypes[static_cast<size_t>(output.index)];
      value.shape = node.output_shapes[static_cast<size_t>(output.index)];
    }
    plan_.values.push_back(std::move(value));
    return found->second;
  }

  static void add_once(std::vector<size_t>& list, size_t value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
  }

  // Makes `value`, an output of `producer`, reach `task`: its part computes it, and where the
  // task does not hold it, it goes there from the producer's.
  void reach(size_t producer, size_t value, int task) {
    const GraphNode& node = graph_.nodes()[producer];
    if (collective(producer)) {
      // Its output is computed by every step of its group; a word that it ran, by its home's.
      add_once(steps_.at({task_[producer], stage_[producer], 0, producer}).computes, value);
    } else if (node.kind != GraphNode::Kind::kInput) {
      add_once(part_of(producer).computes, value);
    }
    if (!holds(producer, task)) transfers_.insert({value, task_[producer], task});
  }

  // The values node `i`'s part reads of other steps, and the words it waits for.
  void read_inputs_of(size_t i) {
    const GraphNode& node = graph_.nodes()[i];
    Step& part = part_of(i);
    for (const NodeOutput& input : node.inputs) {
      const size_t producer = graph_index(graph_, input.node);
      if (part.members[producer]) continue;
      const size_t value = value_of(input);
      add_once(part.reads, value);
      add_once(part.awaits, value);
      reach(producer, value, task_[i]);
    }
    for (const std::string& control : node.control_inputs) {
      const size_t producer = graph_index(graph_, control);
      // A graph input or constant is there from the start; a step of this task has run
      // before (its stage is earlier).
      if (graph_.nodes()[producer].kind != GraphNode::Kind::kOp || holds(producer, task_[i])) {
        continue;
      }
      const size_t token = value_of({control, PartValue::kToken});
      add_once(part.awaits, token);
      reach(producer, token, task_[i]);
    }
  }

  // A collective's replicas, each read by the step of the task that holds it.
  void read_replicas_of(size_t i) {
    for (const NodeOutput& input : graph_.nodes()[i].inputs) {
      const size_t producer = graph_index(graph_, input.node);
      const size_t value = value_of(input);
      const int home = task_[producer];
      steps_.at({home, stage_[i], 0, i}).reads.push_back(value);
      reach(producer, value, home);
    }
    const GraphNode& node = graph_.nodes()[i];
    for (size_t index = 0; index < node.output_dtypes.size(); ++index) {
      const size_t output = value_of({node.name, static_cast<int>(index)});
      for (int task : groups_[i]) steps_.at({task, stage_[i], 0, i}).computes.push_back(output);
    }
  }

  // The name of the part's input fed `value`: its producer's, with the output's index when
  // not 0 ("topk:1"), unlike the part's nodes.
  static std::string input_name(const PartValue& value, const std::vector<GraphNode>& nodes,
                                const std::vector<bool>& members) {
    std::string name = value.source.node;
    if (value.source.index != 0) name += ":" + std::to_string(value.source.index);
    const auto taken = [&](const std::string& candidate) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (members[i] && nodes[i].name == candidate) return true;
      }
      return false;
    };
    while (taken(name)) name += "_";
    return name;
  }

  PlanStage collective_stage(const Step& step) const {
    const GraphNode& node = graph_.nodes()[step.collective];
    PlanStage stage;
    PlanCollective collective;
    collective.op = node.op;
    collective.node = node.name;
    collective.inputs = step.reads;
    for (size_t output = 0; output < node.output_dtypes.size(); ++output) {
      collective.outputs.push_back(value_ids_.at({node.name, static_cast<int>(output)}));
    }
    const AttrValue* reduction = node.attrs.find("reduction");
    collective.reduction = reduction ? std::get<std::string>(*reduction) : "sum";
    for (const NodeOutput& input : node.inputs) {
      collective.replica_ranks.push_back(task_[graph_index(graph_, input.node)]);
    }
    collective.root = task_[step.collective];
    collective.group = groups_[step.collective];
    stage.collective = std::move(collective);
    stage.computes = step.computes;
    return stage;
  }

  PlanStage part_stage(const Step& step) const {
    PlanStage stage;
    std::vector<PartInput> inputs;
    for (size_t value : step.reads) {
      const PartValue& read = plan_.values[value];
      inputs.push_back({read.source, input_name(read, graph_.nodes(), step.members),
                        read.dtype, read.shape});
    }
    stage.part = GraphParts::part(graph_, step.members, inputs, ops_);
    stage.reads = step.reads;
    stage.awaits = step.awaits;
    stage.computes = step.computes;
    for (size_t value : step.computes) {
      const NodeOutput& source = plan_.values[value].source;
      stage.fetches.push_back({source.node, std::max(source.index, 0)});
    }
    return stage;
  }

  void build_tasks() {
    std::map<int, TaskPlan> tasks;
    tasks[client_].rank = client_;
    std::map<std::pair<size_t, int>, PlanStage*> producing;  // (value, task) -> its stage
    for (auto& [key, step] : steps_) {
      TaskPlan& task = tasks[std::get<0>(key)];
      task.rank = std::get<0>(key);
      task.stages.push_back(step.collective != SIZE_MAX ? collective_stage(step)
                                                        : part_stage(step));
    }
    // Pointers only once every stage is in place.
    for (auto& [rank, task] : tasks) {
      for (PlanStage& stage : task.stages) {
        for (size_t value : stage.computes) producing.emplace(std::make_pair(value, rank), &stage);
      }
    }
    for (const auto& [value, from, to] : transfers_) {
      tasks[to].rank = to;
      tasks[to].receives.push_back({value, from});
      auto found = producing.find({value, from});
      std::vector<PlanTransfer>& sends =
          found != producing.end() ? found->second->sends : tasks[from].sends;
      sends.push_back({value, to});
    }
    plan_.tasks.push_back(std::move(tasks[client_]));
    for (auto& [rank, task] : tasks) {
      if (rank != client_) plan_.tasks.push_back(std::move(task));
    }
  }

  const Graph& graph_;
  const std::vector<bool>& needed_;
  const std::vector<int> task_;  // a collective's: its home, the first task of its group
  const std::vector<std::vector<int>> groups_;  // per node: a collective's tasks, else empty
  const int client_;
  const OpRegistry& ops_;
  std::vector<int> stage_;
  std::map<StepKey, Step> steps_;
  std::map<std::pair<std::string, int>, size_t> value_ids_;
  std::set<std::tuple<size_t, int, int>> transfers_;  // (value, from, to)
  ClusterPlan plan_;
};

}  // namespace

namespace {

// The tasks that read node `i`'s outputs: those of its readers, and the client's where a fetch
// does.
std::set<int> readers_of(const Graph& graph, const std::vector<bool>& needed,
                         const std::vector<NodeOutput>& fetches, const std::vector<int>& task,
                         int client, size_t i) {
  const std::string& name = graph.nodes()[i].name;
  std::set<int> tasks;
  for (size_t j = i + 1; j < graph.nodes().size(); ++j) {
    if (!needed[j]) continue;
    for (const NodeOutput& input : graph.nodes()[j].inputs) {
      if (input.node == name) tasks.insert(task[j]);
    }
  }
  for (const NodeOutput& fetch : fetches) {
    if (fetch.node == name) tasks.insert(client);
  }
  return tasks;
}

}  // namespace

std::optional<ClusterPlan> plan_across_tasks(const Graph& graph,
                                             const std::vector<NodeOutput>& fetches,
                                             const CompileOptions& options,
                                             const std::vector<TaskName>& tasks, int client,
                                             const OpRegistry& ops) {
  const std::vector<GraphNode>& nodes = graph.nodes();
  const std::vector<bool> needed = needed_nodes(graph, fetches);
  std::vector<int> task(nodes.size(), kNoTask);
  bool elsewhere = false;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    const NodeRequest request = request_of(nodes[i], options);
    task[i] = requested_task(nodes[i].name, *request.device, tasks);
    elsewhere = elsewhere || (task[i] != kNoTask && task[i] != client);
  }
  if (!elsewhere) return std::nullopt;
  if (has_shapes_at_run(graph, fetches)) {
    throw Error(StatusCode::kInvalidArgument,
                "the graph places nodes on other tasks and has shapes known only at run "
                "(NonZero, or attributes it computes), which cannot be split between tasks "
                "yet; place it on one task");
  }
  // Graph inputs are fed here; ops that name no task run here; constants go with their first
  // consumer, so that a run sends none.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    if (nodes[i].kind == GraphNode::Kind::kInput) task[i] = client;
    if (nodes[i].kind != GraphNode::Kind::kOp) continue;
    if (task[i] == kNoTask) task[i] = client;
    for (const NodeOutput& input : nodes[i].inputs) {
      const size_t producer = graph_index(graph, input.node);
      if (task[producer] == kNoTask) task[producer] = task[i];
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (needed[i] && task[i] == kNoTask) task[i] = client;  // a constant only fetched
  }
  // A collective whose replicas are on several tasks is theirs (a collective step), at home on the
  // first: in graph order, so that one reading another's sees its home.
  std::vector<std::vector<int>> groups(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string& op = nodes[i].op;
    if (!needed[i] || nodes[i].kind != GraphNode::Kind::kOp ||
        (op != "AllReduce" && op != "ReduceScatter" && op != "AllGather" && op != "Broadcast")) {
      continue;
    }
    std::set<int> homes;
    for (const NodeOutput& input : nodes[i].inputs) {
      homes.insert(task[graph_index(graph, input.node)]);
    }
    // A Broadcast's group: its root's task and every task that reads it.
    const int root = *homes.begin();
    if (op == "Broadcast") homes.merge(readers_of(graph, needed, fetches, task, client, i));
    if (homes.size() < 2) continue;
    const bool reduces = op == "AllReduce" || op == "ReduceScatter";
    if (reduces && !all_reducible(nodes[i].output_dtypes[0])) {
      throw Error(StatusCode::kInvalidArgument,
                  "graph node '" + nodes[i].name + "' (" + op + ") reduces " +
                      dtype_name(nodes[i].output_dtypes[0]) + " replicas across tasks, which "
                      "MPI cannot reduce: Cast them to float32 (or an integer dtype) first");
    }
    groups[i].assign(homes.begin(), homes.end());
    task[i] = op == "Broadcast" ? root : groups[i][0];
  }
  return Planner(graph, needed, std::move(task), std::move(groups), client, ops).plan(fetches);
}

namespace {

using nlohmann::json;

[[noreturn]] void malformed(const std::string& why) {
  throw Error(StatusCode::kInvalidArgument, "a task's plan: " + why);
}

json transfers_to_wire(const std::vector<PlanTransfer>& transfers) {
  json wire = json::array();
  for (const PlanTransfer& transfer : transfers) wire.push_back({transfer.value, transfer.peer});
  return wire;
}

std::vector<PlanTransfer> transfers_from_wire(const json& wire, size_t values) {
  std::vector<PlanTransfer> transfers;
  for (const json& transfer : wire) {
    transfers.push_back({transfer.at(0).get<size_t>(), transfer.at(1).get<int>()});
    if (transfers.back().value >= values) malformed("a transfer of no value");
  }
  return transfers;
}

std::vector<size_t> values_from_wire(const json& wire, size_t values) {
  std::vector<size_t> list = wire.get<std::vector<size_t>>();
  for (size_t value : list) {
    if (value >= values) malformed("a stage names no value");
  }
  return list;
}

}  // namespace

nlohmann::json task_plan_to_wire(const TaskPlan& plan, const std::vector<PartValue>& values) {
  json stages = json::array();
  for (const PlanStage& stage : plan.stages) {
    if (stage.collective) {
      const PlanCollective& collective = *stage.collective;
      stages.push_back({{"collective",
                         {{"op", collective.op},
                          {"node", collective.node},
                          {"inputs", collective.inputs},
                          {"outputs", collective.outputs},
                          {"reduction", collective.reduction},
                          {"replica_ranks", collective.replica_ranks},
                          {"root", collective.root},
                          {"group", collective.group}}},
                        {"computes", stage.computes},
                        {"sends", transfers_to_wire(stage.sends)}});
      continue;
    }
    json fetches = json::array();
    for (const NodeOutput& fetch : stage.fetches) fetches.push_back({fetch.node, fetch.index});
    stages.push_back({{"part", graph_to_wire(stage.part)},
                      {"reads", stage.reads},
                      {"awaits", stage.awaits},
                      {"fetches", std::move(fetches)},
                      {"computes", stage.computes},
                      {"sends", transfers_to_wire(stage.sends)}});
  }
  json wire_values = json::array();
  for (const PartValue& value : values) {
    wire_values.push_back({value.source.node, value.source.index,
                           static_cast<int32_t>(value.dtype), value.shape.to_vector()});
  }
  return {{"rank", plan.rank},
          {"receives", transfers_to_wire(plan.receives)},
          {"sends", transfers_to_wire(plan.sends)},
          {"stages", std::move(stages)},
          {"values", std::move(wire_values)}};
}

TaskPlan task_plan_from_wire(const nlohmann::json& wire, const OpRegistry& ops, Device& host,
                             std::vector<PartValue>& values) {
  try {
    values.clear();
    for (const json& value : wire.at("values")) {
      PartValue read;
      read.source = {value.at(0).get<std::string>(), value.at(1).get<int>()};
      read.dtype = static_cast<DType>(value.at(2).get<int32_t>());
      read.shape = Shape(value.at(3).get<std::vector<int64_t>>());
      tensor_bytes(read.dtype, read.shape);  // a known dtype, a size that fits
      values.push_back(std::move(read));
    }
    TaskPlan plan;
    plan.rank = wire.at("rank").get<int>();
    plan.receives = transfers_from_wire(wire.at("receives"), values.size());
    plan.sends = transfers_from_wire(wire.at("sends"), values.size());
    for (const json& stage_wire : wire.at("stages")) {
      PlanStage stage;
      if (stage_wire.contains("collective")) {
        const json& collective_wire = stage_wire["collective"];
        PlanCollective collective;
        collective.op = collective_wire.at("op").get<std::string>();
        collective.node = collective_wire.at("node").get<std::string>();
        collective.inputs = values_from_wire(collective_wire.at("inputs"), values.size());
        collective.outputs = values_from_wire(collective_wire.at("outputs"), values.size());
        if (collective.outputs.empty()) malformed("a collective of no output");
        collective.reduction = collective_wire.at("reduction").get<std::string>();
        collective.replica_ranks = collective_wire.at("replica_ranks").get<std::vector<int>>();
        collective.root = collective_wire.at("root").get<int>();
        collective.group = collective_wire.at("group").get<std::vector<int>>();
        stage.collective = std::move(collective);
        stage.computes = values_from_wire(stage_wire.at("computes"), values.size());
        stage.sends = transfers_from_wire(stage_wire.at("sends"), values.size());
        plan.stages.push_back(std::move(stage));
        continue;
      }
      stage.part = graph_from_wire(stage_wire.at("part"), ops, host);
      stage.reads = values_from_wire(stage_wire.at("reads"), values.size());
      stage.awaits = values_from_wire(stage_wire.at("awaits"), values.size());
      stage.computes = values_from_wire(stage_wire.at("computes"), values.size());
      for (const json& fetch : stage_wire.at("fetches")) {
        stage.fetches.push_back({fetch.at(0).get<std::string>(), fetch.at(1).get<int>()});
      }
      stage.sends = transfers_from_wire(stage_wire.at("sends"), values.size());
      if (stage.fetches.size() != stage.computes.size()) {
        malformed("a stage has not one fetch per value it computes");
      }
      plan.stages.push_back(std::move(stage));
    }
    return plan;
  } catch (const json::exception& e) {
    malformed(e.what());
  }
}

// The graph passes the options switch, each by name: an unset one is left out.
std::vector<std::pair<const char*, std::optional<bool> GraphPasses::*>> pass_switches() {
  return {{"remove_identities", &GraphPasses::remove_identities},
          {"fold_constants", &GraphPasses::fold_constants},
          {"fuse_kernels", &GraphPasses::fuse_kernels},
          {"block_channels", &GraphPasses::block_channels}};
}

nlohmann::json part_options_to_wire(const CompileOptions& options) {
  json wire = {{"placement", options.placement}, {"passes", json::object()}};
  if (options.placer) wire["placer"] = static_cast<int>(*options.placer);
  for (const auto& [name, pass] : pass_switches()) {
    if (options.passes.*pass) wire["passes"][name] = *(options.passes.*pass);
  }
  return wire;
}

CompileOptions part_options_from_wire(const nlohmann::json& wire) {
  CompileOptions options;
  try {
    options.placement = wire.at("placement").get<std::map<std::string, std::string>>();
    if (wire.contains("placer")) {
      options.placer = static_cast<GraphPlacer>(wire["placer"].get<int>());
    }
    for (const auto& [name, pass] : pass_switches()) {
      const json& passes = wire.at("passes");
      if (passes.contains(name)) options.passes.*pass = passes[name].get<bool>();
    }
  } catch (const json::exception& e) {
    malformed(e.what());
  }
  return options;
}

CompileOptions options_for_part(const CompileOptions& options, const Graph& part,
                                bool client) {
  CompileOptions own = options;
  own.placement.clear();
  own.feed_devices.clear();
  for (const auto& [name, device] : options.placement) {
    const GraphNode* node = part.find(name);
    if (node != nullptr && node->kind != GraphNode::Kind::kInput) {
      own.placement.emplace(name, device);
    }
  }
  for (const auto& [name, device] : options.feed_devices) {
    const GraphNode* node = part.find(name);
    if (client && node != nullptr && node->kind == GraphNode::Kind::kInput) {
      own.feed_devices.emplace(name, device);
    }
  }
  return own;
}

}  // namespace hxrt::detail
