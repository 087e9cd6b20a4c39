// What Runtime::compile makes of a graph (graph/compile.cpp), and what every run reads
// (graph/run.cpp): the steps in a topological order, each with its device, kernel, instance and
// the views of its operands made once; the tensors ("values") they pass, each either at a
// planned offset in its device's arena or a tensor of its own; and the dependency counts of the
// executor. Immutable once compiled, so runs on many threads share it without locks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cost/work_size.hpp"
#include "hxrt/executable.hpp"
#include "kernel_registry.hpp"
#include "ops/op_schema.hpp"
#include "placement/kernel_instances.hpp"
#include "runtime/runtime_impl.hpp"
#include "runtime/tensor_views.hpp"

namespace hxrt::detail {

// One tensor a run passes between steps.
struct ValueInfo {
  DType dtype = DType::kF32;
  Shape shape;
  size_t bytes = 0;
  Device* device = nullptr;
  // Index into ExecutableImpl::arenas, at `offset` in it; kOwnMemory: a tensor of its own,
  // as fed, fetched, read by another device (whose stream the arena's reuse could not
  // order), or copied in by a transfer.
  static constexpr size_t kOwnMemory = SIZE_MAX;
  size_t arena = kOwnMemory;
  uint64_t offset = 0;
};

struct StepInfo {
  enum class Kind {
    kFeed,      // a graph input: the fed tensor, copied to the input's device when elsewhere
    kOp,        // a node's kernel
    kTransfer,  // a copy of one value to another device, where an edge crosses devices
  };
  Kind kind = Kind::kOp;
  std::string node;   // the graph node; for a transfer, the node whose output it copies
  std::string label;  // for errors and events: "graph node 'mm' (MatMul)"
  Device* device = nullptr;
  std::vector<size_t> inputs;   // values read
  std::vector<size_t> outputs;  // values written
  size_t feed = 0;              // kFeed: index into Executable::inputs()

  // kOp: what the eager path decides per call, decided once.
  const OpSchema* schema = nullptr;
  const KernelEntry* kernel = nullptr;
  SharedInstance instance;
  Attrs attrs;
  std::string requested;  // for the trace: the request, "" when none
  std::string reason;     // the placer's
  std::vector<TensorMeta> input_meta;  // for the trace
  WorkSize work;                       // for the cost model
  // The operands' views without memory, inputs then outputs, pointing into view_shapes and
  // strides (filled by finish_views once the step stays at its address).
  std::vector<Shape> view_shapes;
  std::vector<Strides> strides;
  std::vector<hx_tensor_view> views;

  // The executor's edges.
  std::vector<uint32_t> successors;
  uint32_t num_predecessors = 0;
};

struct ExecutableImpl {
  std::shared_ptr<Runtime::Impl> runtime;  // its devices, kernels and instances
  std::vector<StepInfo> steps;             // a topological order
  std::vector<ValueInfo> values;
  std::vector<uint32_t> roots;  // steps with no predecessors
  struct Arena {
    Device* device;
    size_t bytes;
  };
  std::vector<Arena> arenas;

  std::vector<std::string> inputs;  // the graph inputs the fetches need, in graph order
  std::vector<DType> input_dtypes;
  std::vector<Shape> input_shapes;
  std::vector<NodeOutput> fetches;
  std::vector<size_t> fetch_values;
  std::vector<NodePlacement> placement;
  std::vector<DeviceMemoryPlan> memory_plan;
  std::vector<std::string> transfers;
  // Whether runs time their kernels and copies for the cost model (the dynamic placer's
  // executables).
  bool measures = false;
  // The dynamic placer's estimated makespans, in seconds, on the cost model of the compile:
  // of this placement, and of the placement it was compiled to replace (when it was).
  double estimated_makespan = 0;
  double previous_makespan = 0;
};

// Points every op step's views at its own shapes and strides; called once, when the steps
// are in their final vector.
void finish_views(ExecutableImpl& exe);

}  // namespace hxrt::detail
