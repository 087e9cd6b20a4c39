// The phases of Runtime::compile (graph/compile.cpp), one file each: the nodes the fetches
// need; where each runs (the simple placer); the placement log; the memory plan.
#pragma once

#include <string>
#include <vector>

#include "cost/cost_model.hpp"
#include "graph/executable_impl.hpp"
#include "hxrt/executable.hpp"
#include "hxrt/graph.hpp"
#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt::detail {

// What the placement log and errors call a node's op: TensorFlow's "Placeholder" for a graph
// input and "Const" for a constant, else its op.
std::string op_name_of(const GraphNode& node);

// The index of the node named `name`, which must exist.
size_t graph_index(const Graph& graph, const std::string& name);

// Per node of `graph`: whether computing `fetches` runs it (through inputs and control
// inputs). Error names a fetch that is not a node's output.
std::vector<bool> needed_nodes(const Graph& graph, const std::vector<NodeOutput>& fetches);

// Where one node runs, and with what.
struct NodeChoice {
  Device* device = nullptr;
  const OpSchema* schema = nullptr;  // nullptr for a graph input
  const KernelEntry* kernel = nullptr;
  SharedInstance instance;
  std::vector<TensorMeta> inputs;   // an op's, as inferred at build
  std::vector<TensorMeta> outputs;  // with bytes
};

// Where every node of a graph runs, by node index (entries of unneeded nodes left empty): the
// choice compile builds steps from, and the placement the executable reports. Apart, so that
// the placements can move into the executable whole while the choices are read.
struct PlacedNodes {
  std::vector<NodeChoice> choices;
  std::vector<NodePlacement> placements;
};

// The request a node is placed by: a device given back (CompileOptions::placement), else its
// own, its scope's or the placement function's ("" when none).
struct NodeRequest {
  const std::string* device;
  bool given_back;
};
NodeRequest request_of(const GraphNode& node, const CompileOptions& options);

// An op node's call as the placer sees it (its inputs' and outputs' dtypes, shapes and views,
// T), made once and asked of the placer for any request: the dynamic placer asks it for every
// device. `choices` holds its producers' devices.
class OpCall {
 public:
  OpCall(GraphContext& context, const Graph& graph, const GraphNode& node,
         const std::vector<NodeChoice>& choices);
  OpCall(const OpCall&) = delete;  // the views point into it
  OpCall& operator=(const OpCall&) = delete;
  // The placer's answer for `request` under `mode`; throws its Error.
  Placement place(GraphContext& context, const std::string& request, SoftPlacement mode) const;
  const OpSchema& schema() const { return schema_; }
  const std::vector<TensorMeta>& inputs() const { return inputs_; }
  const std::vector<TensorMeta>& outputs() const { return outputs_; }

 private:
  const GraphNode& node_;
  const OpSchema& schema_;
  std::vector<TensorMeta> inputs_;
  std::vector<TensorMeta> outputs_;  // with bytes
  std::vector<Device*> input_devices_;
  std::vector<Strides> strides_;
  std::vector<hx_tensor_view> views_;
  DType t_ = DType::kF32;
};


// TensorFlow's simple placer over the needed nodes, in graph order: a node placed before
// (options.placement) stays there; a node with a request (its own, its scope's or the
// placement function's) goes there, under the soft-placement mode; the rest go where the
// placer's priority puts them. A graph input with no request goes with its first consumer.
// Kernel instances are made now, once. Error names the node. Entries of unneeded nodes are
// left empty.
// `previous` (may be null): a placement of the same graph whose makespan the dynamic placer
// also estimates, into `estimate`.
struct PlacementEstimate {
  double makespan = 0;           // seconds, the dynamic placer's; 0 for the simple placer
  double previous_makespan = 0;  // of `previous`, on the same cost model
  // Graph input -> the device its feed was assumed to come from (canonical name); the dynamic
  // placer's only.
  std::map<std::string, std::string> feed_sources;
};
PlacedNodes place_nodes(GraphContext& context, const Graph& graph,
                        const std::vector<bool>& needed, const CompileOptions& options,
                        const std::vector<NodePlacement>* previous, PlacementEstimate& estimate);

// The dynamic placer (placement.placer "dynamic"): the needed nodes that carry no request (and
// were given no device back) are placed again by list scheduling on the runtime's cost model,
// calibrated first where it knows nothing; the others are constraints it keeps. Each node it
// places gets its estimates and the reason it won.
void place_by_cost(GraphContext& context, const Graph& graph, const std::vector<bool>& needed,
                   const CompileOptions& options, const std::vector<NodePlacement>* previous,
                   PlacedNodes& placed, PlacementEstimate& estimate);

// CompileOptions::cost_model_json merged into `model`, its devices by `devices`' names.
void merge_given_costs(CostModel& model, const CompileOptions& options,
                       const std::vector<Device*>& devices);

// The device the dynamic placer takes feeds to come from and copies between unrelated devices
// to go through: the first CPU of `devices`, else device 0.
size_t host_index(const std::vector<Device*>& devices);

// What the dynamic placer's explanation of a node says (NodePlacement::reason): why the
// scheduler put it on `placed.device` rather than on the device where it would have finished
// soonest otherwise, with its kernel's time on both (`kernel_seconds`, per device) and the
// copies it waits for. Devices by `device_names`.
std::string explain_choice(const std::string& op, const std::vector<std::string>& device_names,
                           const TaskPlacement& placed, const std::vector<double>& kernel_seconds,
                           bool has_inputs);

// Adds to `task` the edges of `node`: one per producer (task_of: node index -> task) that is
// not a constant, with the bytes of the outputs it reads (each once), and one of no bytes per
// control input.
void add_schedule_edges(const Graph& graph, const GraphNode& node,
                        const std::vector<size_t>& task_of, ScheduleTask& task);

// CompileOptions::feed_devices checked against the graph and the devices: input name -> its
// device. Error(kInvalidArgument) for a name that is not a graph input or a device that does
// not exist.
std::map<std::string, Device*> feed_devices_of(GraphContext& context, const Graph& graph,
                                               const CompileOptions& options);

// The most one run may take on `device`: its allocator's limit, and the memory it has.
size_t device_memory_limit(const Device& device);

// "Device mapping:" and a line per node ("mm: (MatMul): /job:..."), as TensorFlow logs a
// graph's placement, when placement logging is on.
void log_placement(GraphContext& context, const std::vector<NodePlacement>& placement);

// With `one_thread` (one inter-op and one intra-op thread) and every op step on a synchronous
// device, an edge from each op step to the next in exe.steps' order (serial_steps.cpp): the
// runs keep the order they would have, and the memory plan knows it.
void serialize_host_steps(const ExecutableImpl& exe, bool one_thread,
                          std::vector<std::vector<size_t>>& predecessors);

// Gives every value that lives in an arena its offset (graph/compile/memory_plan.hpp), sizes the
// arenas and fills exe.memory_plan; `predecessors` per step. `one_thread`: the plan may also
// pack largest first (MemoryPlan's `largest_first`). Error(kOutOfMemory) when a run would need
// more than a device's memory limit, with the figures.
void plan_arenas(ExecutableImpl& exe, std::vector<std::vector<size_t>> predecessors,
                 bool one_thread);

}  // namespace hxrt::detail
