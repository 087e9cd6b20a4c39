// A graph compiled for one set of fetches: placed once, with its transfers, kernel instances and
// memory plan made once, then run any number of times, from any number of threads at once
// (docs/graphs.md). Runtime::compile makes it.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/export.hpp"
#include "hxrt/graph.hpp"
#include "hxrt/graph_passes.hpp"
#include "hxrt/runtime_options.hpp"
#include "hxrt/tensor.hpp"

namespace hxrt {

namespace detail {
class ExecutableHandle;
}

// What the dynamic placer estimated for one node on one device.
struct DeviceEstimate {
  std::string device;       // canonical name
  bool allowed = false;     // false: no kernel there, a constraint, or over its memory budget
  double kernel_ms = 0;     // the node's kernel there
  double finish_ms = 0;     // when the node would finish there, from the run's start
};

// Where one node of a compiled graph runs, as the placement log prints it.
struct NodePlacement {
  std::string node;
  std::string op;         // "Placeholder" for a graph input, "Const" for a constant, as
                          // TensorFlow names them
  std::string device;     // canonical: /job:localhost/replica:0/task:0/device:GPU:0
  std::string requested;  // the device asked for, as written ("" when none)
  RequestSource request_source = RequestSource::kNone;
  // Why `device` differs from the request (soft placement), or that a given-back placement
  // kept it, or (dynamic placer) why it won ("GPU:1: MatMul 4.10 ms there vs 37.00 ms on
  // CPU:0; inputs already there"); "" when it is what was asked for.
  std::string reason;
  // The dynamic placer's estimates, one per device, for a node it placed; empty otherwise.
  std::vector<DeviceEstimate> estimates;
};

// What one run holds on one device, planned at compile from the lifetimes of its tensors.
struct DeviceMemoryPlan {
  std::string device;  // canonical name
  // One block per run for every intermediate tensor (transfer copies included): tensors
  // whose lifetimes cannot overlap in any order the executor may run share memory.
  size_t arena_bytes = 0;
  // The same tensors without sharing: what the plan saves is the difference.
  size_t unshared_bytes = 0;
  // The most of those tensors live at once when the nodes run one by one in a topological
  // order: no plan's arena can be smaller, so arena_bytes / widest_bytes says how close the
  // plan comes (a graph whose branches may run at once needs more than this).
  size_t widest_bytes = 0;
  // Tensors allocated one by one for the run: fetched outputs (returned to the caller),
  // outputs another device reads, and copies from other devices.
  size_t separate_bytes = 0;
  // arena_bytes + separate_bytes: the most a run allocates on the device (fed tensors, which
  // the caller made, aside).
  size_t peak_bytes = 0;
  // The graph constants' copies on the device (a model's weights), made at compile and kept
  // by the executable across runs; not part of peak_bytes.
  size_t constant_bytes = 0;
};

struct CompileOptions {
  // Devices for nodes, by node name, as a previous executable's placement gave them
  // (Executable::placement_map, or read back by placement_from_json): TensorFlow's first rule,
  // a node placed before stays where it is. They win over every request; a device that no
  // longer exists is handled under the soft-placement mode, as a request would be. A name
  // that is not a node of the graph is an error.
  std::map<std::string, std::string> placement;
  // The placer; unset: the config's placement.placer ("simple" by default).
  std::optional<GraphPlacer> placer;
  // A cost model saved by Runtime::cost_model_json, merged into the runtime's before placing.
  std::string cost_model_json;
  // Where the feeds of graph inputs will live, by input name ("x" -> "/GPU:0"): the dynamic
  // placer counts no copy for an input placed there, and a copy from there elsewhere. An input
  // not named is assumed fed where it was asked to be (GraphBuilder::input's device), else
  // from the host (the first CPU), until a run feeds it from another device: the executable is
  // then placed again at once, where its feeds live. A name that is not a graph input, or a
  // device that does not exist, is an error.
  std::map<std::string, std::string> feed_devices;
  // The passes compile runs over the graph before placing it; unset: the config's.
  GraphPasses passes;
};

class HXRT_API Executable {
 public:
  // An empty handle; run() on it is Error(kFailedPrecondition).
  Executable() = default;

  // Runs the graph: `feeds` gives a tensor for every graph input the fetches need, by name
  // (dtype and shape as declared; on any device). Returns the fetches, in the order compile
  // was given them, once the work of every node has completed. A failing node stops the
  // run: Error names the node, its op and device, and the executable stays usable. Several
  // threads may run one executable at once.
  std::vector<Tensor> run(const std::map<std::string, Tensor>& feeds) const;
  // The same with the inputs in the order of inputs().
  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const;

  // The graph inputs a run needs, in the order they were added to the graph.
  const std::vector<std::string>& inputs() const;
  const std::vector<NodeOutput>& fetches() const;
  // Every node the fetches need, in graph order, with its device: the current placement (the
  // dynamic placer may place the executable again between runs; what an earlier call returned
  // stays valid as long as the executable). For a graph with shapes known only at run
  // (GraphNode::shapes_at_run), this and memory_plan() and transfers() describe the part
  // compiled before any run (docs/graphs.md, "Shapes known only at run").
  const std::vector<NodePlacement>& placement() const;
  // node -> device: CompileOptions::placement for a later compile.
  std::map<std::string, std::string> placement_map() const;
  // The placement in a few lines, as hxrt-run prints it: per device, its nodes and their ops
  // by count ("  /job:localhost/replica:0/task:0/device:CPU:0: 24 nodes (MatMulBias 12, Add
  // 5)"), then each node that runs elsewhere than it asked and why, or a line saying none
  // did. Graph inputs and constants are not counted. Each line starts with two spaces and ends
  // with a newline.
  std::string placement_summary() const;  // hxrt::placement_summary(placement())
  // One entry per device the graph uses, in device order.
  const std::vector<DeviceMemoryPlan>& memory_plan() const;
  // The transfers compile inserted where an edge crosses devices ("mm:0 from GPU:0 to
  // CPU:0"), in graph order.
  std::vector<std::string> transfers() const;

  // How many times the dynamic placer placed this executable again after runs measured costs
  // that made another placement faster by more than placement.replace_threshold (checked
  // every placement.replace_every_runs runs). 0 for the simple placer.
  int replacements() const;

  bool valid() const { return handle_ != nullptr; }

 private:
  friend class Runtime;
  explicit Executable(std::shared_ptr<detail::ExecutableHandle> handle);
  detail::ExecutableHandle& handle() const;
  std::shared_ptr<detail::ExecutableHandle> handle_;
};

// A placement in a few lines: Executable::placement_summary's, of any list of nodes.
HXRT_API std::string placement_summary(const std::vector<NodePlacement>& placement);

// A placement as JSON text, {"node": "device", ...}, to keep in a file... JSON text holds only
// Unicode: the bytes of a node name that are not UTF-8 are written as U+FFFD, so such a node's
// entry reads back under another name, which a later compile refuses as not in the graph.
HXRT_API std::string placement_to_json(const std::map<std::string, std::string>& placement);
// ...and read back. Error(kInvalidArgument) names what is wrong and where (the JSON path):
// malformed JSON, a key given twice, a value that is not a device name.
HXRT_API std::map<std::string, std::string> placement_from_json(const std::string& text);

}  // namespace hxrt
