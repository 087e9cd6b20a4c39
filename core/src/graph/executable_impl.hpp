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
#include "graph/run/bound_views.hpp"
#include "graph/run/recorded_runs.hpp"
#include "hxrt/executable.hpp"
#include "plugins/kernel_registry.hpp"
#include "ops/op_schema.hpp"
#include "placement/kernel_instances.hpp"
#include "graph/graph_context.hpp"
#include "eager/tensor_views.hpp"

namespace hxrt::detail {

// One tensor a run passes between steps.
struct ValueInfo {
  DType dtype = DType::kF32;
  Shape shape;
  size_t bytes = 0;
  Device* device = nullptr;
  const TensorKind* kind = nullptr;  // device's record of (dtype, shape), or nullptr
  // Index into ExecutableImpl::arenas, at `offset` in it; kOwnMemory: a tensor of its own,
  // as fed, fetched, read by another device (whose stream the arena's reuse could not
  // order), or copied in by a transfer.
  static constexpr size_t kOwnMemory = SIZE_MAX;
  size_t arena = kOwnMemory;
  uint64_t offset = 0;
  // kOwnMemory: the index of its tensor among a run's (ExecutableImpl::own_tensors of them),
  // so that a run keeps no slot for the values an arena holds.
  size_t tensor = 0;
};

// An op step's operand held in an arena, at `offset` in ExecutableImpl::arenas[arena]: a run
// binds its view where the arena is (graph/run/bound_views.hpp).
struct ArenaOperand {
  uint32_t operand;  // its index in ExecutableImpl::operand_views
  uint32_t arena;
  uint64_t offset;
};

struct alignas(64) StepInfo {
  enum class Kind : uint8_t {
    kFeed,      // a graph input: the fed tensor, copied to the input's device when elsewhere
    kConstant,  // a graph constant: its copy on the step's device, made at compile
    kOp,        // a node's kernel
    kTransfer,  // a copy of one value to another device, where an edge crosses devices
  };
  // First, what a run reads of every step: two cache lines (the struct is aligned to one). A
  // graph's steps outnumber what a core's first-level cache holds, so each line a step spreads
  // over is a miss on every run. The whole is three lines: a large graph holds one per node.
  Kind kind = Kind::kOp;
  // kOp: the index of its operands (inputs then outputs) in ExecutableImpl::operand_views and
  // operand_tensors; their counts are num_inputs and num_outputs.
  uint32_t first_operand = 0;
  Device* device = nullptr;
  const OpSchema* schema = nullptr;     // kOp
  const KernelEntry* kernel = nullptr;  // kOp
  SharedInstance instance;              // kOp
  // The steps it makes ready: ExecutableImpl::successors [first_successor, + num_successors).
  uint32_t first_successor = 0;
  uint32_t num_successors = 0;
  std::vector<size_t> inputs;   // values read
  std::vector<size_t> outputs;  // values written
  // inputs.size() and outputs.size(), kept: a run read them off the vectors on every node.
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  // A step that may queue work (a transfer, an op on an asynchronous device): the index of
  // its event among a run's (ExecutableImpl::queuing_steps of them).
  uint32_t event = 0;
  // kFeed: index into Executable::inputs(); kConstant: into ExecutableImpl::constants.
  uint32_t feed = 0;
  // kFeed, kConstant, kOp: its node's entry in ExecutableImpl::placement (the node's name,
  // the request and the placer's reason, for the trace), which never moves once compile has
  // made it.
  const NodePlacement* placement = nullptr;

  // kTransfer, for errors and events: "the copy of mm:0 to /job:...". An op's and a feed's are
  // made from its placement when needed (label_of) rather than kept by every node.
  std::string label;
  // kOp: the rest of what the eager path decides per call, decided once.
  Attrs attrs;
};
static_assert(sizeof(StepInfo) == 192, "a step is three cache lines; see above");

// What errors and events call a step: "graph node 'mm' (MatMul)", "graph input 'x'", or a
// transfer's label.
inline std::string label_of(const StepInfo& step) {
  switch (step.kind) {
    case StepInfo::Kind::kFeed:
      return "graph input '" + step.placement->node + "'";
    case StepInfo::Kind::kConstant:
      return "graph constant '" + step.placement->node + "'";
    case StepInfo::Kind::kOp:
      return "graph node '" + step.placement->node + "' (" + step.placement->op + ")";
    case StepInfo::Kind::kTransfer:
      break;
  }
  return step.label;
}

struct ExecutableImpl {
  ExecutableImpl() = default;
  // Tells the kernels that kept something under its constants' ids that they are gone.
  ~ExecutableImpl();
  ExecutableImpl(const ExecutableImpl&) = delete;
  ExecutableImpl& operator=(const ExecutableImpl&) = delete;

  std::shared_ptr<GraphContext> context;  // the runtime's devices, kernels and instances
  std::vector<StepInfo> steps;             // a topological order
  // Per step, the work of its op for the cost model: only in an executable that measures
  // (empty otherwise); a transfer's is empty.
  std::vector<WorkSize> step_work;
  std::vector<ValueInfo> values;
  std::vector<uint32_t> roots;  // steps with no predecessors
  std::vector<uint32_t> successors;  // every step's (StepInfo::first_successor), step after step
  std::vector<uint32_t> num_predecessors;  // per step: what a run starts its count from
  struct Arena {
    Device* device;
    size_t bytes;
  };
  std::vector<Arena> arenas;
  // The operands of every op step, inputs then outputs, step after step (StepInfo::
  // first_operand): their views without memory, and the shapes and strides the views point
  // into (each distinct one once); per operand, the run's tensor that holds it
  // (ValueInfo::tensor), or kInArena. Packed, so that a run reads a step's in a few cache
  // lines.
  static constexpr size_t kInArena = SIZE_MAX;
  std::vector<hx_tensor_view> operand_views;
  std::vector<size_t> operand_tensors;
  std::vector<int64_t> operand_dims;
  // The operands a step binds as it runs, those not in an arena (feeds, fetches, copies), so
  // that it reads nothing of the others: per step, own_operands [begin, end) holds their
  // indices from its first operand, the inputs' before inputs_end (empty for steps of other
  // kinds).
  struct OwnRange {  // 32-bit, as the step's operand counts: a large graph has one per node
    uint32_t begin = 0;
    uint32_t inputs_end = 0;
    uint32_t end = 0;
  };
  std::vector<OwnRange> own_ranges;
  std::vector<uint32_t> own_operands;
  std::vector<ArenaOperand> arena_operands;  // the operands in arenas, in operand order
  // The operand views with memory that the last run left, for the next (graph/run/bound_views.hpp).
  SpareBoundViews spare_views;
  size_t own_tensors = 0;    // values with memory of their own (ValueInfo::tensor)
  size_t queuing_steps = 0;  // steps that may queue work (StepInfo::event)

  std::vector<std::string> inputs;  // the graph inputs the fetches need, in graph order
  // The graph constants' values, each on the device of a step that reads it (kConstant), made
  // at compile and read by every run.
  std::vector<Tensor> constants;
  // Per constant, the id kernels may keep what they derive from it under
  // (hx_kernel_args.input_constants; graph/constant_ids.hpp); and per operand, the id of the
  // constant it reads, or 0 (outputs, and inputs that are no constant).
  std::vector<uint64_t> constant_ids;
  std::vector<uint64_t> operand_constants;
  // Per input, where the dynamic placer assumed its feed comes from (a device's canonical
  // name); empty for the simple placer. A run that feeds an input from elsewhere has it
  // placed again (ExecutableHandle::after_run).
  std::vector<std::string> feed_sources;
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
  // Runs by replay, where the graph qualifies (graph/run/recorded_runs.hpp); nullptr otherwise.
  // Last: destroyed first, while the steps' kernel instances it recorded are alive.
  std::unique_ptr<RecordedRuns> recorded;
};

// Numbers what a run keeps per value and per step (ValueInfo::tensor, StepInfo::event) and
// fills the op steps' operands (ExecutableImpl::operand_views); called once, when the steps
// are final and the arenas planned.
void finish_steps(ExecutableImpl& exe);

}  // namespace hxrt::detail
