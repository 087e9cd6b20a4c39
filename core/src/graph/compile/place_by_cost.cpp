// The dynamic placer (compile_phases.hpp): a scheduling problem from the graph and the cost
// model, solved by list scheduling (placement/dynamic/list_scheduler.hpp), and its answer
// explained node by node.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <unordered_map>

#include "eager/calibration.hpp"
#include "base/device_name.hpp"
#include "graph/compile/compile_phases.hpp"
#include "placement/dynamic/list_scheduler.hpp"

namespace hxrt::detail {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// The makespan of `previous` (node -> device, by name) under `problem`; infinite when a node
// of it is missing or sits where it may no longer run.
double previous_makespan(const std::vector<NodePlacement>& previous,
                         const std::vector<GraphNode>& nodes, const std::vector<size_t>& node_of,
                         const std::vector<Device*>& devices, const ScheduleProblem& problem) {
  std::vector<size_t> assignment;
  for (size_t t = 0; t < node_of.size(); ++t) {
    const std::string& name = nodes[node_of[t]].name;
    auto placed = std::find_if(previous.begin(), previous.end(),
                               [&](const NodePlacement& p) { return p.node == name; });
    if (placed == previous.end()) return kNever;
    auto device = std::find_if(devices.begin(), devices.end(),
                               [&](const Device* d) { return d->name() == placed->device; });
    if (device == devices.end()) return kNever;
    const size_t d = static_cast<size_t>(device - devices.begin());
    if (!(problem.tasks[t].seconds[d] < kNever)) return kNever;
    assignment.push_back(d);
  }
  return makespan_of(problem, assignment);
}

// Each constant that carries no request goes with its first consumer, now placed.
void place_constants(const Graph& graph, const std::vector<bool>& needed,
                     const CompileOptions& options, PlacedNodes& placed) {
  const std::vector<GraphNode>& nodes = graph.nodes();
  std::vector<bool> settled(nodes.size(), false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    for (const NodeOutput& input : nodes[i].inputs) {
      const size_t producer = graph_index(graph, input.node);
      const GraphNode& constant = nodes[producer];
      if (constant.kind != GraphNode::Kind::kConstant || settled[producer]) continue;
      settled[producer] = true;
      if (!request_of(constant, options).device->empty()) continue;
      placed.choices[producer].device = placed.choices[i].device;
      placed.placements[producer].device = placed.choices[i].device->name();
    }
  }
}

}  // namespace

void merge_given_costs(CostModel& model, const CompileOptions& options,
                       const std::vector<Device*>& devices) {
  if (options.cost_model_json.empty()) return;
  std::vector<std::string> names;
  for (Device* device : devices) names.push_back(device->name());
  model.merge_json(options.cost_model_json, "CompileOptions::cost_model_json", names);
}

size_t host_index(const std::vector<Device*>& devices) {
  for (size_t d = 0; d < devices.size(); ++d) {
    if (devices[d]->physical().placement_class() == HX_PLACEMENT_CPU) return d;
  }
  return 0;
}

std::string explain_choice(const std::string& op, const std::vector<std::string>& device_names,
                           const TaskPlacement& placed, const std::vector<double>& kernel_seconds,
                           bool has_inputs) {
  const size_t chosen = placed.device;
  size_t rival = SIZE_MAX;
  for (size_t d = 0; d < device_names.size(); ++d) {
    if (d == chosen || !(placed.finish_on[d] < kNever)) continue;
    if (rival == SIZE_MAX || placed.finish_on[d] < placed.finish_on[rival]) rival = d;
  }
  std::string reason = device_names[chosen] + ": ";
  if (rival == SIZE_MAX) return reason + "the only device that can run it";
  reason += op + " " + milliseconds_text(kernel_seconds[chosen]) + " there vs " +
            milliseconds_text(kernel_seconds[rival]) + " on " + device_names[rival];
  if (has_inputs) {
    reason += placed.transfer_in > 0
                  ? "; " + milliseconds_text(placed.transfer_in) + " of copies in"
                  : "; inputs already there";
  }
  reason += "; finishes at " + milliseconds_text(placed.finish) + " vs " +
            milliseconds_text(placed.finish_on[rival]);
  // The scheduler's search may keep a node where it finishes later itself, when that frees a
  // device for others and the whole graph ends sooner.
  if (placed.finish > placed.finish_on[rival]) reason += ", so that the whole graph ends sooner";
  return reason;
}

void add_schedule_edges(const Graph& graph, const GraphNode& node,
                        const std::vector<size_t>& task_of, ScheduleTask& task) {
  const std::vector<GraphNode>& nodes = graph.nodes();
  // One edge per producer, carrying the bytes of each of its outputs read (once each: a
  // value is copied once per device however often it is read).
  std::unordered_map<size_t, size_t> edge_of;  // producer task -> its edge
  std::set<std::pair<size_t, int>> counted;     // (producer task, output) read already
  auto edge_to = [&](size_t producer) -> uint64_t& {
    auto [found, added] = edge_of.emplace(task_of[producer], task.predecessors.size());
    if (added) {
      task.predecessors.push_back(task_of[producer]);
      task.input_bytes.push_back(0);
    }
    return task.input_bytes[found->second];
  };
  for (const NodeOutput& input : node.inputs) {
    const size_t producer = graph_index(graph, input.node);
    const GraphNode& from = nodes[producer];
    if (from.kind == GraphNode::Kind::kConstant) continue;
    uint64_t& bytes = edge_to(producer);
    if (!counted.emplace(task_of[producer], input.index).second) continue;
    const auto index = static_cast<size_t>(input.index);
    bytes += tensor_bytes(from.output_dtypes[index], from.output_shapes[index]);
  }
  for (const std::string& control : node.control_inputs) {
    edge_to(graph_index(graph, control));
  }
}

void place_by_cost(GraphContext& context, const Graph& graph, const std::vector<bool>& needed,
                   const CompileOptions& options, const std::vector<NodePlacement>* previous,
                   PlacedNodes& placed_nodes, PlacementEstimate& estimate) {
  std::vector<NodeChoice>& choices = placed_nodes.choices;
  std::vector<Device*> devices;
  for (const std::shared_ptr<Device>& device : context.devices.all()) {
    devices.push_back(device.get());
  }
  CostModel& costs = context.cost_model;
  merge_given_costs(costs, options, devices);
  const size_t host = host_index(devices);
  costs.set_host(host);
  std::unordered_map<const Device*, size_t> index_of;
  for (size_t d = 0; d < devices.size(); ++d) index_of[devices[d]] = d;
  const std::map<std::string, Device*> fed_on = feed_devices_of(context, graph, options);
  {
    std::lock_guard<std::mutex> lock(context.calibration_mutex);
    calibrate(context.eager, costs, devices);
  }

  const std::vector<GraphNode>& nodes = graph.nodes();
  std::vector<size_t> task_of(nodes.size(), SIZE_MAX);
  std::vector<size_t> node_of;
  ScheduleProblem problem;
  problem.num_devices = devices.size();
  problem.transfer_seconds = [&](size_t from, size_t to, uint64_t bytes) {
    return costs.transfer(from, to, bytes).seconds;
  };
  for (Device* device : devices) problem.memory_budget.push_back(device_memory_limit(*device));
  // Per free op node, per device: the kernel's placement there, when it has one.
  std::vector<std::vector<std::optional<Placement>>> candidates(nodes.size());
  std::vector<std::vector<double>> kernel_seconds(nodes.size());
  std::vector<bool> free(nodes.size(), false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    // A constant is no task: compile copies it once to every device that reads it, so where
    // it lives costs a run nothing, and it goes with its first consumer (below).
    if (!needed[i] || nodes[i].kind == GraphNode::Kind::kConstant) continue;
    const GraphNode& node = nodes[i];
    NodeChoice& choice = choices[i];
    free[i] = request_of(node, options).device->empty();
    ScheduleTask task;
    task.seconds.assign(devices.size(), kNever);
    kernel_seconds[i].assign(devices.size(), kNever);
    // What the node may hold on its device: its outputs, and copies of its inputs should they
    // come from elsewhere (counted whether or not they will: the budget errs on the safe side).
    for (const TensorMeta& output : choice.outputs) task.output_bytes += output.bytes;
    for (const TensorMeta& input : choice.inputs) task.output_bytes += input.bytes;
    add_schedule_edges(graph, node, task_of, task);
    if (node.kind == GraphNode::Kind::kInput) {
      // A feed comes from where it lives: where CompileOptions::feed_devices says, else where
      // the input was asked to be, else the host. Elsewhere it is one copy in.
      const auto declared = fed_on.find(node.name);
      const size_t source = declared != fed_on.end() ? index_of.at(declared->second)
                            : !free[i]               ? index_of.at(choice.device)
                                                     : host;
      estimate.feed_sources[node.name] = devices[source]->name();
      for (size_t d = 0; d < devices.size(); ++d) {
        if (free[i] || devices[d] == choice.device) {
          kernel_seconds[i][d] =
              d == source ? 0 : costs.transfer(source, d, task.output_bytes).seconds;
        }
      }
    } else {
      const WorkSize work = work_of(node.op, choice.inputs.data(), choice.inputs.size(),
                                    choice.outputs.data(), choice.outputs.size(), node.attrs);
      candidates[i].resize(devices.size());
      std::optional<OpCall> call;
      if (free[i]) call.emplace(context, graph, node, choices);
      for (size_t d = 0; d < devices.size(); ++d) {
        if (!free[i] && devices[d] != choice.device) continue;
        if (free[i]) {
          try {
            candidates[i][d] = call->place(context, devices[d]->name(), SoftPlacement::kStrict);
          } catch (const Error&) {
            continue;  // no kernel there accepts it
          }
        }
        kernel_seconds[i][d] = costs.kernel(node.op, d, work).seconds;
      }
    }
    task.seconds = kernel_seconds[i];
    task_of[i] = problem.tasks.size();
    node_of.push_back(i);
    problem.tasks.push_back(std::move(task));
  }

  std::vector<std::string> short_names;
  for (Device* device : devices) short_names.push_back(device->short_name());
  Schedule schedule_found;
  try {
    schedule_found = schedule(problem);
  } catch (const ScheduleTaskError& error) {
    const GraphNode& node = nodes[node_of[error.task()]];
    throw Error(error.code(), "graph node '" + node.name + "': the dynamic placer: " +
                                  std::string(error.what()));
  }
  estimate.makespan = schedule_found.makespan;
  if (previous != nullptr) {
    estimate.previous_makespan = previous_makespan(*previous, nodes, node_of, devices, problem);
  }
  for (size_t t = 0; t < node_of.size(); ++t) {
    const size_t i = node_of[t];
    if (!free[i]) continue;
    const GraphNode& node = nodes[i];
    const TaskPlacement& placed = schedule_found.tasks[t];
    NodeChoice& choice = choices[i];
    Device* device = devices[placed.device];
    if (node.kind == GraphNode::Kind::kOp) {
      Placement& chosen = *candidates[i][placed.device];
      choice.kernel = chosen.kernel;
      choice.instance = std::move(chosen.instance);
    }
    choice.device = device;
    NodePlacement& placement = placed_nodes.placements[i];
    placement.device = device->name();
    placement.reason = explain_choice(placement.op, short_names, placed, kernel_seconds[i],
                                      !node.inputs.empty());
    placement.estimates.clear();
    for (size_t d = 0; d < devices.size(); ++d) {
      DeviceEstimate estimate;
      estimate.device = devices[d]->name();
      estimate.allowed = placed.finish_on[d] < kNever;
      estimate.kernel_ms = kernel_seconds[i][d] < kNever ? kernel_seconds[i][d] * 1e3 : 0;
      estimate.finish_ms = estimate.allowed ? placed.finish_on[d] * 1e3 : 0;
      placement.estimates.push_back(estimate);
    }
  }
  place_constants(graph, needed, options, placed_nodes);
}

std::map<std::string, Device*> feed_devices_of(GraphContext& context, const Graph& graph,
                                               const CompileOptions& options) {
  std::map<std::string, Device*> found;
  for (const auto& [input, device] : options.feed_devices) {
    const GraphNode* node = graph.find(input);
    if (node == nullptr || node->kind != GraphNode::Kind::kInput) {
      throw Error(StatusCode::kInvalidArgument,
                  "compile: CompileOptions::feed_devices names '" + input + "', which is " +
                      (node == nullptr ? "not a node of the graph" : "not a graph input") +
                      "; name graph inputs only");
    }
    std::vector<Device*> matching = context.devices.matching(parse_device_name(device));
    if (matching.empty()) {
      throw Error(StatusCode::kInvalidArgument,
                  "compile: CompileOptions::feed_devices puts the feed of '" + input + "' on '" +
                      device + "', which names no device.\nExisting devices: " +
                      context.devices.describe());
    }
    found[input] = matching.front();
  }
  return found;
}

}  // namespace hxrt::detail
