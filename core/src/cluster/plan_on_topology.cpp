#include "cluster/plan_on_topology.hpp"

#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "eager/calibration.hpp"
#include "graph/compile/compile_phases.hpp"
#include "placement/dynamic/list_scheduler.hpp"

namespace hxrt::detail {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// A few of the topology's device names, for an error about a request that matched none.
std::string some_devices(const ClusterTopology& topology) {
  std::string list;
  size_t shown = 0;
  for (const TopologyDevice& device : topology.devices) {
    if (device.task > 1 || shown == 6) break;
    list += (list.empty() ? "" : ", ") + device.name;
    ++shown;
  }
  return list + (topology.devices.size() > shown ? ", ..." : "");
}

// What copies cost on the topology, from the runtime's cost model: each device as its like,
// each task's host its first CPU (else its first device). The scheduler asks for the same
// edge's bytes over every device in turn, so the costs of a size are worked out once, per pair
// of likes, and the last size's kept at hand.
class TopologyCosts {
 public:
  TopologyCosts(const ClusterTopology& topology, CostModel& costs,
                const std::vector<Device*>& local)
      : topology_(topology),
        costs_(costs),
        likes_(local.size()),
        local_host_(host_index(local)),
        host_of_task_(topology.tasks.size(), SIZE_MAX) {
    std::unordered_map<const Device*, size_t> index_of;
    for (size_t d = 0; d < local.size(); ++d) index_of[local[d]] = d;
    for (size_t d = 0; d < topology.devices.size(); ++d) {
      like_of_.push_back(index_of.at(topology.devices[d].like));
      size_t& host = host_of_task_[topology.devices[d].task];
      if (host == SIZE_MAX || (!on_cpu(host) && on_cpu(d))) host = d;
    }
  }

  size_t local_host() const { return local_host_; }
  size_t host_of_task(size_t task) const { return host_of_task_[task]; }
  size_t like_index(size_t device) const { return like_of_[device]; }

  double copy(size_t from, size_t to, uint64_t bytes) {
    if (from == to) return 0;
    if (bytes != last_bytes_ || last_ == nullptr) {
      auto [found, added] = of_size_.try_emplace(bytes);
      if (added) found->second = costs_of(bytes);
      last_bytes_ = bytes;
      last_ = found->second.data();
    }
    const bool across = topology_.devices[from].task != topology_.devices[to].task;
    return last_[(across ? likes_ * likes_ : 0) + like_of_[from] * likes_ + like_of_[to]];
  }

 private:
  bool on_cpu(size_t device) const {
    return topology_.devices[device].like->physical().placement_class() == HX_PLACEMENT_CPU;
  }

  // Per pair of likes (a, b), for `bytes`: a copy between two devices of one task (as between
  // the likes; two alike, through the host; two hosts alike share the task's memory), then one
  // between tasks (to the source's host, over the network, from the destination's host).
  std::vector<double> costs_of(uint64_t bytes) const {
    std::vector<double> table(2 * likes_ * likes_, 0.0);
    const auto within = [&](size_t a, size_t b) {
      if (a != b) return costs_.transfer(a, b, bytes).seconds;
      if (a == local_host_) return 0.0;
      return costs_.transfer(a, local_host_, bytes).seconds +
             costs_.transfer(local_host_, a, bytes).seconds;
    };
    const LinkSpeed& network = topology_.network;
    const double over_network =
        network.latency + static_cast<double>(bytes) / network.bytes_per_second;
    for (size_t a = 0; a < likes_; ++a) {
      for (size_t b = 0; b < likes_; ++b) {
        table[a * likes_ + b] = within(a, b);
        table[likes_ * likes_ + a * likes_ + b] =
            (a == local_host_ ? 0.0 : within(a, local_host_)) + over_network +
            (b == local_host_ ? 0.0 : within(local_host_, b));
      }
    }
    return table;
  }

  const ClusterTopology& topology_;
  CostModel& costs_;
  const size_t likes_;
  const size_t local_host_;
  std::vector<size_t> like_of_;
  std::vector<size_t> host_of_task_;
  std::unordered_map<uint64_t, std::vector<double>> of_size_;
  uint64_t last_bytes_ = 0;
  const double* last_ = nullptr;
};

// The first device `admitted` leaves in (admitted_by leaves one in at least).
size_t first_admitted(const std::vector<bool>& admitted) {
  return static_cast<size_t>(std::find(admitted.begin(), admitted.end(), true) -
                             admitted.begin());
}

// The topology devices `request` leaves in (a name without job or task: the client's);
// Error naming the node when none.
std::vector<bool> admitted_by(const ClusterTopology& topology, size_t client,
                              const GraphNode& node, const std::string& request) {
  std::vector<bool> admitted(topology.devices.size(), request.empty());
  if (request.empty()) return admitted;
  const DeviceSpec spec = parse_device_name(request);
  const bool client_only = spec.job.empty() && spec.task < 0;
  bool any = false;
  for (size_t d = 0; d < topology.devices.size(); ++d) {
    const TopologyDevice& device = topology.devices[d];
    admitted[d] =
        (!client_only || device.task == client) && topology_admits(topology, device, spec);
    any = any || admitted[d];
  }
  if (!any) {
    throw Error(StatusCode::kInvalidArgument,
                "graph node '" + node.name + "' asks for " + request +
                    ", which names no device of the topology (" + some_devices(topology) + ")");
  }
  return admitted;
}

}  // namespace

PlacementPlan plan_on_topology(GraphContext& context, const Graph& graph,
                               const std::vector<NodeOutput>& fetches,
                               const CompileOptions& options, const ClusterTopology& topology,
                               size_t client) {
  context.eager.ensure_initialized();
  const std::vector<GraphNode>& nodes = graph.nodes();
  const std::vector<bool> needed = needed_nodes(graph, fetches);
  std::vector<Device*> local;
  for (const std::shared_ptr<Device>& device : context.devices.all()) local.push_back(device.get());
  CostModel& model = context.cost_model;
  merge_given_costs(model, options, local);
  TopologyCosts costs(topology, model, local);
  model.set_host(costs.local_host());
  {
    std::lock_guard<std::mutex> lock(context.calibration_mutex);
    calibrate(context.eager, model, local);
  }
  const std::vector<TopologyDevice>& devices = topology.devices;
  const size_t num_devices = devices.size();
  std::map<std::string, size_t> fed_on;
  for (const auto& [input, device] : options.feed_devices) {
    const GraphNode* node = graph.find(input);
    if (node == nullptr || node->kind != GraphNode::Kind::kInput) {
      throw Error(StatusCode::kInvalidArgument,
                  "plan_placement: CompileOptions::feed_devices names '" + input +
                      "', which is not a graph input");
    }
    fed_on[input] = first_admitted(admitted_by(topology, client, *node, device));
  }

  ScheduleProblem problem;
  problem.num_devices = num_devices;
  problem.transfer_seconds = [&](size_t from, size_t to, uint64_t bytes) {
    return costs.copy(from, to, bytes);
  };
  for (const TopologyDevice& device : devices) problem.memory_budget.push_back(device.memory_bytes);
  const SoftPlacement mode = context.soft_placement.load();
  const std::vector<NodeChoice> no_choices(nodes.size());
  std::vector<size_t> task_of(nodes.size(), SIZE_MAX);
  std::vector<size_t> node_of;
  std::vector<std::vector<double>> kernel_seconds(nodes.size());
  std::vector<bool> free(nodes.size(), false);
  std::vector<std::string> fallback(nodes.size());
  PlacementPlan plan;
  std::vector<NodePlacement> placements(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    const GraphNode& node = nodes[i];
    NodePlacement& placement = placements[i];
    placement.node = node.name;
    placement.op = op_name_of(node);
    const NodeRequest request = request_of(node, options);
    placement.requested = *request.device;
    placement.request_source = node.request_source;
    // A constant is no task: it goes with its first consumer (below).
    if (node.kind == GraphNode::Kind::kConstant) continue;
    free[i] = request.device->empty();
    const std::vector<bool> admitted = admitted_by(topology, client, node, *request.device);
    ScheduleTask task;
    task.seconds.assign(num_devices, kNever);
    uint64_t held = 0;
    for (size_t o = 0; o < node.output_dtypes.size(); ++o) {
      held += tensor_bytes(node.output_dtypes[o], node.output_shapes[o]);
    }
    for (const NodeOutput& input : node.inputs) {
      const GraphNode& from = *graph.find(input.node);
      const auto index = static_cast<size_t>(input.index);
      held += tensor_bytes(from.output_dtypes[index], from.output_shapes[index]);
    }
    task.output_bytes = held;
    add_schedule_edges(graph, node, task_of, task);
    if (node.kind == GraphNode::Kind::kInput) {
      const auto declared = fed_on.find(node.name);
      const size_t source = declared != fed_on.end() ? declared->second
                            : free[i]                ? costs.host_of_task(client)
                                                     : first_admitted(admitted);
      for (size_t d = 0; d < num_devices; ++d) {
        if (admitted[d]) task.seconds[d] = d == source ? 0 : costs.copy(source, d, held);
      }
    } else {
      const OpCall call(context, graph, node, no_choices);
      const WorkSize work = work_of(node.op, call.inputs().data(), call.inputs().size(),
                                    call.outputs().data(), call.outputs().size(), node.attrs);
      std::unordered_map<const Device*, std::optional<double>> on_like;
      const auto seconds_on = [&](size_t d) -> double {
        const TopologyDevice& device = devices[d];
        auto [found, added] = on_like.emplace(device.like, std::nullopt);
        if (added) {
          try {
            call.place(context, device.like->name(), SoftPlacement::kStrict);
            found->second = model.kernel(node.op, costs.like_index(d), work).seconds;
          } catch (const Error&) {
            // no kernel of the like accepts it
          }
        }
        return found->second ? *found->second / device.speed : kNever;
      };
      bool runs = false;
      for (size_t d = 0; d < num_devices; ++d) {
        if (!admitted[d]) continue;
        task.seconds[d] = seconds_on(d);
        runs = runs || task.seconds[d] < kNever;
      }
      if (!runs && !free[i] && mode != SoftPlacement::kStrict) {
        // Soft placement: the asked-for devices have no kernel for it; any device of their
        // tasks that has one may run it.
        std::set<size_t> tasks;
        for (size_t d = 0; d < num_devices; ++d) {
          if (admitted[d]) tasks.insert(devices[d].task);
        }
        for (size_t d = 0; d < num_devices; ++d) {
          if (tasks.count(devices[d].task) == 0) continue;
          task.seconds[d] = seconds_on(d);
          runs = runs || task.seconds[d] < kNever;
        }
        fallback[i] = "no kernel for " + node.op + " on " + *request.device +
                      "; the placer put it on a device of the same task that has one";
      }
      if (!runs) {
        throw Error(StatusCode::kInvalidArgument,
                    "graph node '" + node.name + "' (" + node.op + "): " +
                        (free[i] ? std::string("no device of the topology")
                                 : "no device " + *request.device + " names") +
                        " has a kernel for it (a device's kernels are its like's)");
      }
    }
    kernel_seconds[i] = task.seconds;
    task_of[i] = problem.tasks.size();
    node_of.push_back(i);
    problem.tasks.push_back(std::move(task));
  }

  Schedule found;
  try {
    found = schedule(problem);
  } catch (const ScheduleTaskError& error) {
    throw Error(error.code(), "graph node '" + nodes[node_of[error.task()]].name +
                                  "': the dynamic placer: " + std::string(error.what()));
  }
  plan.makespan_ms = found.makespan * 1e3;
  // The same nodes kept to the client: what the cluster gains over one task.
  ScheduleProblem one_task = problem;
  for (size_t t = 0; t < node_of.size(); ++t) {
    if (!free[node_of[t]]) continue;
    for (size_t d = 0; d < num_devices; ++d) {
      if (devices[d].task != client) one_task.tasks[t].seconds[d] = kNever;
    }
  }
  try {
    plan.one_task_makespan_ms = schedule(one_task).makespan * 1e3;
  } catch (const Error&) {
    plan.one_task_makespan_ms = 0;  // the client alone cannot run it
  }

  std::vector<std::string> short_names;
  for (const TopologyDevice& device : devices) short_names.push_back(device.short_name);
  std::vector<size_t> device_of(nodes.size(), SIZE_MAX);
  for (size_t t = 0; t < node_of.size(); ++t) {
    const size_t i = node_of[t];
    const TaskPlacement& placed = found.tasks[t];
    device_of[i] = placed.device;
    NodePlacement& placement = placements[i];
    placement.device = devices[placed.device].name;
    if (!free[i]) {
      placement.reason = fallback[i];
      continue;
    }
    placement.reason = explain_choice(placement.op, short_names, placed, kernel_seconds[i],
                                      !nodes[i].inputs.empty());
    for (size_t d = 0; d < num_devices; ++d) {
      if (!(placed.finish_on[d] < kNever)) continue;
      placement.estimates.push_back(
          {devices[d].name, true, kernel_seconds[i][d] * 1e3, placed.finish_on[d] * 1e3});
    }
  }
  // Each constant goes where it was asked to, else with its first consumer.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i] || nodes[i].kind == GraphNode::Kind::kConstant) continue;
    for (const NodeOutput& input : nodes[i].inputs) {
      const size_t producer = graph_index(graph, input.node);
      if (nodes[producer].kind != GraphNode::Kind::kConstant || device_of[producer] != SIZE_MAX) {
        continue;
      }
      const std::string& request = *request_of(nodes[producer], options).device;
      device_of[producer] =
          request.empty()
              ? device_of[i]
              : first_admitted(admitted_by(topology, client, nodes[producer], request));
      placements[producer].device = devices[device_of[producer]].name;
    }
  }
  std::set<size_t> tasks_used;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    if (device_of[i] == SIZE_MAX) {  // a constant only fetched: on the client's host
      device_of[i] = costs.host_of_task(client);
      placements[i].device = devices[device_of[i]].name;
    }
    tasks_used.insert(devices[device_of[i]].task);
    plan.nodes.push_back(std::move(placements[i]));
  }
  plan.tasks_used = static_cast<int>(tasks_used.size());
  return plan;
}

}  // namespace hxrt::detail
