#include "cluster/remote_calls.hpp"

#include <vector>

#include "cluster/quiet_context.hpp"
#include "cluster/task_executable.hpp"
#include "graph/staged/graph_parts.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {
namespace {

// What tells one kind of call from another: everything its graph is made of.
std::string call_key(const OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
                     const Attrs& attrs, const std::string& request, SoftPlacement mode) {
  std::string key = schema.name + "|" + request + "|" + std::to_string(static_cast<int>(mode));
  for (size_t i = 0; i < num_inputs; ++i) {
    key += "|" + std::string(dtype_name(inputs[i]->dtype())) + inputs[i]->shape().to_string();
  }
  for (const auto& [name, value] : attrs.items()) {
    key += "|" + name + "=" + attr_value_to_string(value);
  }
  return key;
}

// The call as a graph: an input per tensor, the op's node on the device requested.
Graph call_graph(const OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
                 const Attrs& attrs, const std::string& request, const OpRegistry& ops) {
  std::vector<GraphNode> nodes;
  GraphNode op;
  op.kind = GraphNode::Kind::kOp;
  op.name = schema.name;
  op.op = schema.name;
  op.attrs = attrs;
  op.requested_device = request;
  op.request_source = RequestSource::kNode;
  for (size_t i = 0; i < num_inputs; ++i) {
    GraphNode input;
    input.kind = GraphNode::Kind::kInput;
    input.name = "input_" + std::to_string(i);
    input.output_dtypes = {inputs[i]->dtype()};
    input.output_shapes = {inputs[i]->shape()};
    op.inputs.push_back({input.name, 0});
    nodes.push_back(std::move(input));
  }
  nodes.push_back(std::move(op));
  return GraphParts::assemble(std::move(nodes), ops);
}

}  // namespace

bool RemoteCalls::names_another_task(const std::string& request) const {
  if (request.find("/job:") == std::string::npos && request.find("/task:") == std::string::npos) {
    return false;
  }
  const DeviceSpec spec = parse_device_name(request);
  return !service_.cluster().task().admits(spec);
}

void RemoteCalls::run(const OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
                      const Attrs& attrs, const std::string& request, Tensor* outputs) {
  const SoftPlacement mode = context_->soft_placement.load(std::memory_order_relaxed);
  const std::string key = call_key(schema, inputs, num_inputs, attrs, request, mode);
  std::shared_ptr<const StagedRuns> executable;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = kept_.find(key);
    if (found != kept_.end()) executable = found->second;
  }
  if (executable == nullptr) {
    const Graph graph = call_graph(schema, inputs, num_inputs, attrs, request, context_->ops);
    std::vector<NodeOutput> fetches;
    for (size_t i = 0; i < graph.nodes().back().output_dtypes.size(); ++i) {
      fetches.push_back({schema.name, static_cast<int>(i)});
    }
    // Logged as an eager op is, at each call, rather than as a graph's placement.
    executable = compile_across_tasks(service_, without_placement_log(context_), graph, fetches,
                                      CompileOptions());
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_.size() >= kKept) kept_.clear();
    kept_.emplace(key, executable);
  }
  std::vector<Tensor> feeds;
  feeds.reserve(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) feeds.push_back(*inputs[i]);
  std::vector<Tensor> fetched = executable->run(feeds);
  if (context_->log_placement.load(std::memory_order_relaxed)) {
    for (const NodePlacement& node : executable->first()->placement) {
      if (node.node != schema.name) continue;
      context_->logger.write(LogLevel::kInfo,
                             "Executing op " + schema.name + " in device " + node.device);
    }
  }
  for (size_t i = 0; i < fetched.size(); ++i) outputs[i] = std::move(fetched[i]);
}

}  // namespace hxrt::detail
