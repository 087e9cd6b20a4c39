// Runtime::compile: the graph after the passes (graph/optimize), its needed nodes, placed
// (place_nodes.cpp), become steps (a transfer step where an edge crosses devices, one per value
// and device), with the executor's edges; then the memory plan (plan_arenas.cpp) and the
// placement log.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "graph/compile/compile_phases.hpp"
#include "graph/constant_ids.hpp"
#include "graph/executable_handle.hpp"
#include "graph/optimize/graph_passes.hpp"

namespace hxrt {
namespace detail {
namespace {

// Builds the steps and values of `exe` from the placed nodes.
class StepBuilder {
 public:
  StepBuilder(const Graph& graph, const std::vector<bool>& needed,
              std::vector<NodeChoice>& choices, ExecutableImpl& exe)
      : graph_(graph), needed_(needed), choices_(choices), exe_(exe) {}

  // exe.placement holds the needed nodes' entries, in graph order.
  void build() {
    const std::vector<GraphNode>& nodes = graph_.nodes();
    first_value_.resize(nodes.size());
    node_steps_.resize(nodes.size(), kNoStep);
    // Room for a step and the values of every needed node (transfers come on top, where
    // there are any): growing by doubling would hold both the old and the new arrays of a
    // large graph at once, and keep up to twice the room it needs.
    size_t steps = 0;
    size_t values = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!needed_[i]) continue;
      ++steps;
      values += nodes[i].output_dtypes.size();
    }
    exe_.steps.reserve(steps);
    if (exe_.measures) exe_.step_work.reserve(steps);
    predecessors_.reserve(steps);
    exe_.values.reserve(values);
    producers_.reserve(values);
    const NodePlacement* placement = exe_.placement.data();
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (needed_[i]) add_node(i, *placement++);
    }
  }

  // The value of output `index` of `node`.
  size_t value_of(const NodeOutput& output) const {
    return first_value_[graph_index(graph_, output.node)] + static_cast<size_t>(output.index);
  }
  // Each step's predecessors, handed over once the steps are built.
  std::vector<std::vector<size_t>> take_predecessors() { return std::move(predecessors_); }

 private:
  static constexpr size_t kNoStep = SIZE_MAX;

  size_t new_value(const TensorMeta& meta, Device* device) {
    ValueInfo value;
    value.dtype = meta.dtype;
    value.shape = meta.shape;
    value.bytes = meta.bytes;
    value.device = device;
    exe_.values.push_back(std::move(value));
    producers_.push_back(exe_.steps.size());  // the step being added writes it
    return exe_.values.size() - 1;
  }

  size_t new_step(StepInfo step, std::vector<size_t> predecessors, const WorkSize& work = {}) {
    std::sort(predecessors.begin(), predecessors.end());
    predecessors.erase(std::unique(predecessors.begin(), predecessors.end()),
                       predecessors.end());
    exe_.steps.push_back(std::move(step));
    if (exe_.measures) exe_.step_work.push_back(work);
    predecessors_.push_back(std::move(predecessors));
    return exe_.steps.size() - 1;
  }

  void add_node(size_t index, const NodePlacement& placement) {
    const GraphNode& node = graph_.nodes()[index];
    NodeChoice& choice = choices_[index];
    StepInfo step;
    step.placement = &placement;
    step.device = choice.device;
    std::vector<size_t> predecessors;
    WorkSize work;
    if (node.kind == GraphNode::Kind::kInput) {
      step.kind = StepInfo::Kind::kFeed;
      step.feed = static_cast<uint32_t>(exe_.inputs.size());
      exe_.inputs.push_back(node.name);
      exe_.input_dtypes.push_back(node.output_dtypes[0]);
      exe_.input_shapes.push_back(node.output_shapes[0]);
    } else if (node.kind == GraphNode::Kind::kConstant) {
      step.kind = StepInfo::Kind::kConstant;
      step.feed = upload(node, *choice.device);
    } else {
      step.kind = StepInfo::Kind::kOp;
      for (const NodeOutput& input : node.inputs) {
        const size_t value = local_value(value_of(input), *choice.device, predecessors);
        step.inputs.push_back(value);
      }
      for (const std::string& control : node.control_inputs) {
        predecessors.push_back(node_steps_[graph_index(graph_, control)]);
      }
      step.schema = choice.schema;
      step.kernel = choice.kernel;
      step.instance = std::move(choice.instance);
      step.attrs = node.attrs;
      if (exe_.measures) {
        work = work_of(node.op, choice.inputs.data(), choice.inputs.size(),
                       choice.outputs.data(), choice.outputs.size(), node.attrs);
      }
    }
    // A node's outputs are consecutive values.
    first_value_[index] = exe_.values.size();
    for (const TensorMeta& output : choice.outputs) {
      step.outputs.push_back(new_value(output, choice.device));
    }
    // Read no more: the steps of a large graph are built while every choice is alive.
    std::vector<TensorMeta>().swap(choice.inputs);
    std::vector<TensorMeta>().swap(choice.outputs);
    node_steps_[index] = new_step(std::move(step), std::move(predecessors), work);
  }

  // `value` as it is read on `device`: itself, or the copy a transfer step makes there (one
  // per value and device). Adds the step that writes it to `predecessors`.
  size_t local_value(size_t value, Device& device, std::vector<size_t>& predecessors) {
    if (exe_.values[value].device == &device) {
      predecessors.push_back(producers_[value]);
      return value;
    }
    auto found = transfers_.find({value, &device});
    if (found != transfers_.end()) {
      predecessors.push_back(producers_[found->second]);
      return found->second;
    }
    const size_t source_step = producers_[value];
    const StepInfo& source = exe_.steps[source_step];
    if (source.kind == StepInfo::Kind::kConstant) {
      return constant_copy(value, source, device, predecessors);
    }
    const size_t output =
        static_cast<size_t>(std::find(source.outputs.begin(), source.outputs.end(), value) -
                            source.outputs.begin());
    const std::string what = source.placement->node + ":" + std::to_string(output);
    StepInfo step;
    step.kind = StepInfo::Kind::kTransfer;
    step.label = "the copy of " + what + " to " + device.name();
    step.device = &device;
    step.inputs.push_back(value);
    // Read before new_value, which may move the values.
    const ValueInfo& from = exe_.values[value];
    TensorMeta meta;
    meta.dtype = from.dtype;
    meta.shape = from.shape;
    meta.bytes = from.bytes;
    exe_.transfers.push_back(what + " from " + from.device->short_name() + " to " +
                             device.short_name());
    const size_t copy = new_value(meta, &device);
    step.outputs.push_back(copy);
    new_step(std::move(step), {source_step});
    transfers_.emplace(std::make_pair(value, &device), copy);
    predecessors.push_back(producers_[copy]);
    return copy;
  }

  // A copy of a constant's value on `device`, made now and kept by the executable: the
  // index of its tensor in ExecutableImpl::constants. Shared, not copied, where it is there.
  uint32_t upload(const GraphNode& constant, Device& device) {
    const Tensor& value = constant.value;
    exe_.constant_ids.push_back(new_constant_id());
    if (value.impl()->device.get() == &device) {
      exe_.constants.push_back(value);
    } else {
      try {
        exe_.constants.push_back(exe_.context->eager.copy_to(value, device));
      } catch (const Error& error) {
        throw Error(error.code(), "graph constant '" + constant.name + "': its copy to " +
                                      device.name() + ": " + error.what());
      }
    }
    return static_cast<uint32_t>(exe_.constants.size() - 1);
  }

  // A constant read on a device other than its own: a second constant there, copied once
  // now, not a transfer on every run.
  size_t constant_copy(size_t value, const StepInfo& source, Device& device,
                       std::vector<size_t>& predecessors) {
    StepInfo step;
    step.kind = StepInfo::Kind::kConstant;
    step.placement = source.placement;
    step.device = &device;
    step.feed = upload(*graph_.find(source.placement->node), device);
    const ValueInfo& from = exe_.values[value];
    TensorMeta meta;
    meta.dtype = from.dtype;
    meta.shape = from.shape;
    meta.bytes = from.bytes;
    const size_t copy = new_value(meta, &device);
    step.outputs.push_back(copy);
    new_step(std::move(step), {});
    transfers_.emplace(std::make_pair(value, &device), copy);
    predecessors.push_back(producers_[copy]);
    return copy;
  }

  const Graph& graph_;
  const std::vector<bool>& needed_;
  std::vector<NodeChoice>& choices_;
  ExecutableImpl& exe_;
  std::vector<size_t> first_value_;  // per node: its first output's value
  std::vector<size_t> node_steps_;                // per node: its step
  std::vector<size_t> producers_;                 // per value: the step that writes it
  std::vector<std::vector<size_t>> predecessors_;  // per step
  std::map<std::pair<size_t, const Device*>, size_t> transfers_;
};

// Successors, predecessor counts and roots, from the predecessor lists.
void link_steps(ExecutableImpl& exe, const std::vector<std::vector<size_t>>& predecessors) {
  if (exe.steps.size() > UINT32_MAX) {
    throw Error(StatusCode::kInvalidArgument,
                "the graph has " + std::to_string(exe.steps.size()) +
                    " steps; an executable holds at most 4294967295");
  }
  size_t edges = 0;
  exe.num_predecessors.resize(exe.steps.size());
  for (size_t step = 0; step < exe.steps.size(); ++step) {
    exe.num_predecessors[step] = static_cast<uint32_t>(predecessors[step].size());
    if (predecessors[step].empty()) exe.roots.push_back(static_cast<uint32_t>(step));
    for (size_t from : predecessors[step]) ++exe.steps[from].num_successors;
    edges += predecessors[step].size();
  }
  if (edges > UINT32_MAX) {
    throw Error(StatusCode::kInvalidArgument,
                "the graph has " + std::to_string(edges) +
                    " edges between steps; an executable holds at most 4294967295");
  }
  uint32_t first = 0;
  for (StepInfo& step : exe.steps) {
    step.first_successor = first;
    first += step.num_successors;
  }
  exe.successors.resize(edges);
  std::vector<uint32_t> filled(exe.steps.size(), 0);
  for (size_t step = 0; step < exe.steps.size(); ++step) {
    for (size_t from : predecessors[step]) {
      exe.successors[exe.steps[from].first_successor + filled[from]++] =
          static_cast<uint32_t>(step);
    }
  }
}

// The entries of `all` (one per graph node) whose nodes are `needed`, in graph order: moved,
// and not even that when every node is needed.
std::vector<NodePlacement> needed_only(std::vector<NodePlacement> all,
                                       const std::vector<bool>& needed) {
  size_t kept = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!needed[i]) continue;
    if (kept != i) all[kept] = std::move(all[i]);
    ++kept;
  }
  all.erase(all.begin() + static_cast<std::ptrdiff_t>(kept), all.end());
  return all;
}

}  // namespace

std::vector<bool> needed_nodes(const Graph& graph, const std::vector<NodeOutput>& fetches) {
  const std::vector<GraphNode>& nodes = graph.nodes();
  std::vector<bool> needed(nodes.size(), false);
  std::vector<size_t> pending;
  for (const NodeOutput& fetch : fetches) {
    const GraphNode* node = graph.find(fetch.node);
    if (node == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "fetch '" + fetch.node + "' is not a node of the graph");
    }
    if (fetch.index < 0 || static_cast<size_t>(fetch.index) >= node->output_dtypes.size()) {
      throw Error(StatusCode::kInvalidArgument,
                  "fetch '" + fetch.node + ":" + std::to_string(fetch.index) + "': node '" +
                      fetch.node + "' has " + std::to_string(node->output_dtypes.size()) +
                      " output(s)");
    }
    pending.push_back(graph_index(graph, fetch.node));
  }
  while (!pending.empty()) {
    const size_t index = pending.back();
    pending.pop_back();
    if (needed[index]) continue;
    needed[index] = true;
    for (const NodeOutput& input : nodes[index].inputs) {
      pending.push_back(graph_index(graph, input.node));
    }
    for (const AttrInput& attr_input : nodes[index].attr_inputs) {
      pending.push_back(graph_index(graph, attr_input.value.node));
    }
    for (const std::string& control : nodes[index].control_inputs) {
      pending.push_back(graph_index(graph, control));
    }
  }
  return needed;
}

namespace {

// Whether operand `i` of op step `step` is an input seen at the output's shape (broadcast).
bool seen_broadcast(const StepInfo& step, size_t i) {
  return i < step.inputs.size() && step.schema->broadcasts;
}

const ValueInfo& operand_value(const ExecutableImpl& exe, const StepInfo& step, size_t i) {
  const size_t num_inputs = step.inputs.size();
  return exe.values[i < num_inputs ? step.inputs[i] : step.outputs[i - num_inputs]];
}

}  // namespace

void finish_steps(ExecutableImpl& exe) {
  for (ValueInfo& value : exe.values) {
    if (value.arena != ValueInfo::kOwnMemory) continue;
    value.tensor = exe.own_tensors++;
    // Only a value with memory of its own becomes a tensor: one in an arena needs no kind,
    // and would spend one of the device's (devices/tensor_kinds.hpp).
    if (value.device != nullptr) value.kind = value.device->tensor_kind(value.dtype, value.shape);
  }
  size_t operands = 0;
  for (StepInfo& step : exe.steps) {
    if (step.kind == StepInfo::Kind::kTransfer ||
        (step.kind == StepInfo::Kind::kOp && step.device->asynchronous())) {
      step.event = static_cast<uint32_t>(exe.queuing_steps++);
    }
    if (step.kind != StepInfo::Kind::kOp) continue;
    step.first_operand = static_cast<uint32_t>(operands);
    step.num_inputs = static_cast<uint32_t>(step.inputs.size());
    step.num_outputs = static_cast<uint32_t>(step.outputs.size());
    operands += step.inputs.size() + step.outputs.size();
  }
  // Steps, operands and events are numbered in 32 bits (a step is three cache lines).
  if (operands > UINT32_MAX || exe.steps.size() > UINT32_MAX) {
    throw Error(StatusCode::kInvalidArgument,
                "compile: the graph has " + std::to_string(exe.steps.size()) + " steps and " +
                    std::to_string(operands) + " operands; at most 2^32 - 1 of each are "
                    "supported: split it into several graphs");
  }
  exe.operand_views.resize(operands);
  exe.operand_tensors.resize(operands);
  exe.own_ranges.resize(exe.steps.size());
  // Counted first: a large graph's lists grown by doubling would hold two copies at once.
  size_t own_operands = 0;
  for (const StepInfo& step : exe.steps) {
    if (step.kind != StepInfo::Kind::kOp) continue;
    for (size_t i = 0; i < step.inputs.size() + step.outputs.size(); ++i) {
      own_operands += operand_value(exe, step, i).arena == ValueInfo::kOwnMemory;
    }
  }
  exe.own_operands.reserve(own_operands);
  exe.arena_operands.reserve(operands - own_operands);
  // Each view points at its shape and strides in operand_dims, which holds each distinct
  // (shape, strides) once: the operands of most graphs share a few, and a run then reads a few
  // lines of them rather than two arrays per operand (a chain of 100 2x2 MatMuls outgrew the
  // first-level cache by them).
  std::map<std::vector<int64_t>, size_t> dims_at;  // shape then strides -> offset
  std::vector<size_t> operand_dims_at(operands);
  std::vector<int64_t> dims(1);  // one more, so that a scalar's view (rank 0) points into it
  for (size_t s = 0; s < exe.steps.size(); ++s) {
    const StepInfo& step = exe.steps[s];
    if (step.kind != StepInfo::Kind::kOp) continue;
    const Shape& output_shape = exe.values[step.outputs[0]].shape;
    ExecutableImpl::OwnRange& own = exe.own_ranges[s];
    own.begin = static_cast<uint32_t>(exe.own_operands.size());
    for (size_t i = 0; i < step.inputs.size() + step.outputs.size(); ++i) {
      if (i == step.inputs.size()) {
        own.inputs_end = static_cast<uint32_t>(exe.own_operands.size());
      }
      const ValueInfo& value = operand_value(exe, step, i);
      const size_t operand = step.first_operand + i;
      hx_tensor_view& view = exe.operand_views[operand];
      Strides strides;
      if (seen_broadcast(step, i)) {
        fill_broadcast_view(value.dtype, value.shape, output_shape, strides, view);
      } else {
        fill_dense_view(value.dtype, value.shape, strides, view);
      }
      const size_t rank = static_cast<size_t>(view.rank);
      std::vector<int64_t> key(view.shape, view.shape + rank);
      key.insert(key.end(), strides.value, strides.value + rank);
      const auto [at, added] = dims_at.emplace(std::move(key), dims.size());
      if (added) dims.insert(dims.end(), at->first.begin(), at->first.end());
      operand_dims_at[operand] = at->second;
      if (value.arena == ValueInfo::kOwnMemory) {
        exe.operand_tensors[operand] = value.tensor;
        exe.own_operands.push_back(static_cast<uint32_t>(i));  // an op has few operands
      } else {
        exe.operand_tensors[operand] = ExecutableImpl::kInArena;
        exe.arena_operands.push_back(
            {static_cast<uint32_t>(operand), static_cast<uint32_t>(value.arena), value.offset});
      }
    }
    own.end = static_cast<uint32_t>(exe.own_operands.size());
  }
  exe.operand_dims = std::move(dims);
  for (size_t operand = 0; operand < operands; ++operand) {
    hx_tensor_view& view = exe.operand_views[operand];
    view.shape = exe.operand_dims.data() + operand_dims_at[operand];
    view.strides = view.shape + view.rank;
  }
  mark_constant_operands(exe);
}

}  // namespace detail

namespace detail {

std::shared_ptr<ExecutableImpl> compile_graph(const std::shared_ptr<GraphContext>& shared,
                                              const Graph& given,
                                              const std::vector<NodeOutput>& fetches,
                                              const CompileOptions& options,
                                              const std::vector<NodePlacement>* previous) {
  GraphContext& context = *shared;
  if (fetches.empty()) {
    throw Error(StatusCode::kInvalidArgument,
                "compile: no fetches; name the node outputs the executable returns");
  }
  // An enum the host app passes may hold any integer (a cast, a stale build).
  if (options.placer && *options.placer != GraphPlacer::kSimple &&
      *options.placer != GraphPlacer::kDynamic) {
    throw Error(StatusCode::kInvalidArgument,
                "compile: CompileOptions::placer is " +
                    std::to_string(static_cast<int64_t>(*options.placer)) +
                    ", which is not a GraphPlacer; use GraphPlacer::kSimple or "
                    "GraphPlacer::kDynamic, or leave it unset for the config's placer");
  }
  context.eager.ensure_initialized();
  const bool dynamic = options.placer.value_or(context.config.placer) == GraphPlacer::kDynamic;
  if (!dynamic) feed_devices_of(context, given, options);  // checked, though only placing uses it
  const std::optional<Graph> optimized = optimize_graph(context, given, fetches, options);
  const Graph& graph = optimized ? *optimized : given;
  const std::vector<bool> needed = needed_nodes(graph, fetches);
  auto exe = std::make_shared<ExecutableImpl>();
  PlacementEstimate estimate;
  PlacedNodes placed = place_nodes(context, graph, needed, options, previous, estimate);
  exe->context = shared;
  exe->fetches = fetches;
  exe->measures = dynamic;
  exe->estimated_makespan = estimate.makespan;
  exe->previous_makespan = estimate.previous_makespan;
  exe->placement = needed_only(std::move(placed.placements), needed);
  StepBuilder builder(graph, needed, placed.choices, *exe);
  builder.build();
  if (dynamic) {
    for (const std::string& input : exe->inputs) {
      exe->feed_sources.push_back(estimate.feed_sources.at(input));
    }
  }
  for (const NodeOutput& fetch : fetches) exe->fetch_values.push_back(builder.value_of(fetch));
  // What the steps were built from goes before the memory plan takes its own: compile's
  // peak, for a graph of a million nodes, is kept near what the executable keeps.
  std::vector<NodeChoice>().swap(placed.choices);
  std::vector<std::vector<size_t>> predecessors = builder.take_predecessors();
  const bool one_thread = context.config.execution.inter_op_threads == 1 &&
                          context.config.execution.intra_op_threads == 1;
  serialize_host_steps(*exe, one_thread, predecessors);
  link_steps(*exe, predecessors);
  if (previous == nullptr) log_placement(context, exe->placement);
  plan_arenas(*exe, std::move(predecessors), one_thread);
  finish_steps(*exe);
  exe->recorded = RecordedRuns::for_executable(*exe);
  return exe;
}

}  // namespace detail

}  // namespace hxrt
