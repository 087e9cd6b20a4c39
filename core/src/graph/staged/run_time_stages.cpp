#include "graph/staged/run_time_stages.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "graph/compile/compile_phases.hpp"
#include "graph/executable_handle.hpp"
#include "graph/run/run.hpp"
#include "ops/attr_from_elements.hpp"
#include "ops/declared_attr.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {
namespace {

std::string output_text(const NodeOutput& output) {
  return output.node + ":" + std::to_string(output.index);
}

// What `node` reads: its inputs, then the values of its attribute inputs.
std::vector<NodeOutput> reads_of(const GraphNode& node) {
  std::vector<NodeOutput> reads = node.inputs;
  for (const AttrInput& attr_input : node.attr_inputs) reads.push_back(attr_input.value);
  return reads;
}

}  // namespace

bool has_shapes_at_run(const Graph& graph, const std::vector<NodeOutput>& fetches) {
  const std::vector<GraphNode>& nodes = graph.nodes();
  if (std::none_of(nodes.begin(), nodes.end(),
                   [](const GraphNode& node) { return node.shapes_at_run; })) {
    return false;
  }
  const std::vector<bool> needed = needed_nodes(graph, fetches);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (needed[i] && nodes[i].shapes_at_run) return true;
  }
  return false;
}

std::vector<std::string> RunTimeStages::input_names(const StagePlan& stage) const {
  std::set<std::string> used;
  const std::vector<GraphNode>& nodes = graph_.nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (stage.part[i]) used.insert(nodes[i].name);
  }
  std::vector<std::string> names;
  for (const NodeOutput& source : stage.reads) {
    std::string name = source.index == 0 ? source.node : output_text(source);
    while (!used.insert(name).second) name += "'";
    names.push_back(std::move(name));
  }
  return names;
}

RunTimeStages::RunTimeStages(std::shared_ptr<GraphContext> context, const Graph& graph,
                             std::vector<NodeOutput> fetches, const CompileOptions& options)
    : context_(std::move(context)),
      graph_(graph),
      fetches_(std::move(fetches)),
      options_(options),
      needed_(needed_nodes(graph_, fetches_)) {
  const std::vector<GraphNode>& nodes = graph_.nodes();
  std::vector<TensorMeta> declared;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed_[i] || nodes[i].kind != GraphNode::Kind::kInput) continue;
    input_nodes_.push_back(i);
    inputs_.push_back(nodes[i].name);
    input_dtypes_.push_back(nodes[i].output_dtypes[0]);
    input_shapes_.push_back(nodes[i].output_shapes[0]);
  }
  // The first part reads only graph inputs, of their declared shapes: compiled now, so that
  // what compile can refuse it refuses here.
  const StagePlan first = plan_stage(done_at_start());
  if (!first.has_part()) return;
  for (const NodeOutput& read : first.reads) {
    const GraphNode& input = *graph_.find(read.node);
    declared.push_back({input.output_dtypes[0], input.output_shapes[0]});
  }
  first_ = part_for(0, first, declared);
}

std::vector<bool> RunTimeStages::done_at_start() const {
  const std::vector<GraphNode>& nodes = graph_.nodes();
  std::vector<bool> done(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) done[i] = nodes[i].kind != GraphNode::Kind::kOp;
  return done;
}

bool RunTimeStages::runs_eagerly(const GraphNode& node) const {
  return context_->ops.find(node.op)->extents_at_run || !node.attr_inputs.empty();
}

bool RunTimeStages::is_constant(const std::string& node) const {
  return graph_.find(node)->kind == GraphNode::Kind::kConstant;
}

RunTimeStages::StagePlan RunTimeStages::plan_stage(const std::vector<bool>& done) const {
  const std::vector<GraphNode>& nodes = graph_.nodes();
  StagePlan stage;
  stage.part.assign(nodes.size(), false);
  // later[i]: node i, still to run, does not run in this stage's part.
  std::vector<bool> later(nodes.size(), false);
  const auto waits_for = [&](const std::string& name) {
    const size_t producer = graph_index(graph_, name);
    return !done[producer] && later[producer];
  };
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed_[i] || done[i]) continue;
    const GraphNode& node = nodes[i];
    bool blocked = false;
    for (const NodeOutput& input : reads_of(node)) blocked = blocked || waits_for(input.node);
    for (const std::string& control : node.control_inputs) {
      blocked = blocked || waits_for(control);
    }
    const bool at_run = runs_eagerly(node);
    later[i] = blocked || at_run;
    if (!blocked && at_run) stage.eager.push_back(i);
    if (!later[i]) stage.part[i] = true;
  }
  // What the part reads of earlier stages (constants aside: a part holds the constants it
  // reads), and what others read of it.
  std::set<std::pair<std::string, int>> reads;
  std::set<std::pair<std::string, int>> computes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed_[i] || done[i]) continue;
    for (const NodeOutput& input : reads_of(nodes[i])) {
      const size_t producer = graph_index(graph_, input.node);
      if (stage.part[i] && !stage.part[producer]) {
        if (is_constant(input.node)) {
          stage.part[producer] = true;
        } else if (reads.insert({input.node, input.index}).second) {
          stage.reads.push_back(input);
        }
      } else if (!stage.part[i] && stage.part[producer] &&
                 computes.insert({input.node, input.index}).second) {
        stage.computes.push_back(input);
      }
    }
    // A node that a later one waits for only by a control input runs in its part too.
    for (const std::string& control : nodes[i].control_inputs) {
      if (!stage.part[i] && stage.part[graph_index(graph_, control)] &&
          computes.insert({control, 0}).second) {
        stage.computes.push_back({control, 0});
      }
    }
  }
  for (const NodeOutput& fetch : fetches_) {
    if (stage.part[graph_index(graph_, fetch.node)] &&
        computes.insert({fetch.node, fetch.index}).second) {
      stage.computes.push_back(fetch);
    }
  }
  return stage;
}

std::shared_ptr<const ExecutableImpl> RunTimeStages::part_for(
    size_t index, const StagePlan& stage, const std::vector<TensorMeta>& reads) const {
  std::string key = std::to_string(index);
  for (const TensorMeta& read : reads) {
    key += std::string(" ") + dtype_name(read.dtype) + read.shape.to_string();
  }
  std::lock_guard<std::mutex> lock(parts_mutex_);
  auto kept = parts_.find(key);
  if (kept != parts_.end()) return kept->second;
  std::shared_ptr<const ExecutableImpl> compiled = compile_part(stage, reads);
  if (parts_.size() >= kKeptParts) {
    // The oldest but the first part, which the executable's placement and memory plan
    // describe.
    auto oldest = std::find_if(part_order_.begin(), part_order_.end(),
                               [&](const std::string& kept) { return parts_.at(kept) != first_; });
    parts_.erase(*oldest);
    part_order_.erase(oldest);
  }
  parts_.emplace(key, compiled);
  part_order_.push_back(key);
  return compiled;
}

std::shared_ptr<const ExecutableImpl> RunTimeStages::compile_part(
    const StagePlan& stage, const std::vector<TensorMeta>& reads) const {
  const std::vector<std::string> names = input_names(stage);
  std::vector<PartInput> inputs;
  for (size_t i = 0; i < stage.reads.size(); ++i) {
    inputs.push_back({stage.reads[i], names[i], reads[i].dtype, reads[i].shape});
  }
  const Graph part = GraphParts::part(graph_, stage.part, inputs, context_->ops);
  CompileOptions options = options_;
  // Only the names of this part: compile refuses the others.
  options.placement.clear();
  for (const auto& [node, device] : options_.placement) {
    if (part.find(node) != nullptr) options.placement.emplace(node, device);
  }
  options.feed_devices.clear();
  for (const auto& [input, device] : options_.feed_devices) {
    if (part.find(input) != nullptr) options.feed_devices.emplace(input, device);
  }
  return compile_graph(context_, part, stage.computes, options, nullptr);
}

Tensor RunTimeStages::value_of(const Values& values, const NodeOutput& output) const {
  const size_t node = graph_index(graph_, output.node);
  if (graph_.nodes()[node].kind == GraphNode::Kind::kConstant) return graph_.nodes()[node].value;
  return values.at({node, output.index});
}

Attrs RunTimeStages::attrs_computed(const GraphNode& node, const OpSchema& schema,
                                    const Values& values) const {
  if (node.attr_inputs.empty()) return node.attrs;
  Attrs attrs = node.attrs;
  for (const AttrInput& attr_input : node.attr_inputs) {
    const Tensor value = value_of(values, attr_input.value);
    std::string bytes(value.byte_size(), '\0');
    value.copy_to_host(bytes.data(), bytes.size());
    attrs.set(attr_input.attr,
              attr_from_elements(value.dtype(), value.shape(), bytes.data(),
                                 declared_attr(schema, attr_input.attr)->type,
                                 "attribute input '" + attr_input.attr + "' ('" +
                                     output_text(attr_input.value) + "')"));
  }
  return attrs;
}

void RunTimeStages::run_eagerly(size_t index, Values& values) const {
  const GraphNode& node = graph_.nodes()[index];
  std::vector<TensorArg> inputs;
  std::vector<Tensor> held;  // what the arguments borrow
  held.reserve(node.inputs.size());
  for (const NodeOutput& input : node.inputs) held.push_back(value_of(values, input));
  for (const Tensor& input : held) inputs.emplace_back(input);
  std::vector<Tensor> outputs(node.output_dtypes.size());
  try {
    const OpSchema& schema = *context_->ops.find(node.op);
    context_->eager.run(schema, inputs.data(), inputs.size(),
                        attrs_computed(node, schema, values), node.requested_device,
                        outputs.data());
  } catch (const Error& error) {
    throw Error(error.code(), "graph node '" + node.name + "' (" + node.op + "): " +
                                  error.what());
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    values[{index, static_cast<int>(o)}] = std::move(outputs[o]);
  }
}

std::vector<Tensor> RunTimeStages::run(const std::vector<Tensor>& inputs) const {
  const std::vector<GraphNode>& nodes = graph_.nodes();
  std::vector<bool> done = done_at_start();
  Values values;
  for (size_t k = 0; k < input_nodes_.size(); ++k) values[{input_nodes_[k], 0}] = inputs[k];
  const auto fetched = [&] {
    return std::all_of(fetches_.begin(), fetches_.end(), [&](const NodeOutput& fetch) {
      return done[graph_index(graph_, fetch.node)];
    });
  };
  for (size_t index = 0; !fetched(); ++index) {
    const StagePlan stage = plan_stage(done);
    const bool has_part = stage.has_part();
    if (!has_part && stage.eager.empty()) {
      throw Error(StatusCode::kInternal, "a graph run in stages made no progress at stage " +
                                             std::to_string(index));
    }
    if (has_part) {
      std::vector<TensorMeta> metas;
      std::vector<Tensor> reads;
      for (const NodeOutput& read : stage.reads) {
        reads.push_back(value_of(values, read));
        metas.push_back({reads.back().dtype(), reads.back().shape()});
      }
      const std::shared_ptr<const ExecutableImpl> exe = part_for(index, stage, metas);
      // The part's inputs are the reads its fetches need, in the order they were read.
      std::vector<Tensor> feeds;
      const std::vector<std::string> names = input_names(stage);
      std::map<std::string, Tensor> by_name;
      for (size_t i = 0; i < stage.reads.size(); ++i) by_name[names[i]] = reads[i];
      for (const std::string& input : exe->inputs) feeds.push_back(by_name.at(input));
      std::vector<Tensor> computed = run_executable(*exe, feeds);
      for (size_t i = 0; i < nodes.size(); ++i) done[i] = done[i] || stage.part[i];
      for (size_t k = 0; k < stage.computes.size(); ++k) {
        values[{graph_index(graph_, stage.computes[k].node), stage.computes[k].index}] =
            std::move(computed[k]);
      }
    }
    for (size_t node : stage.eager) {
      run_eagerly(node, values);
      done[node] = true;
    }
  }
  std::vector<Tensor> out;
  for (const NodeOutput& fetch : fetches_) out.push_back(value_of(values, fetch));
  return out;
}

}  // namespace hxrt::detail
