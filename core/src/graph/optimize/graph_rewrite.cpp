#include "graph/optimize/graph_rewrite.hpp"

#include <algorithm>
#include <utility>

namespace hxrt::detail {

GraphRewrite::GraphRewrite(const Graph& graph, const std::vector<NodeOutput>& fetches,
                           const CompileOptions& options)
    : nodes_(graph.nodes()),
      erased_(nodes_.size(), false),
      readers_(nodes_.size()),
      kept_(nodes_.size(), false),
      position_(nodes_.size()) {
  for (size_t i = 0; i < nodes_.size(); ++i) position_[i] = 2 * i + 2;
  index_.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) index_.emplace(nodes_[i].name, i);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    add_reads(i);
    for (const std::string& control : nodes_[i].control_inputs) kept_[index_.at(control)] = true;
  }
  // Fetches were checked against the graph already; a name compile refuses later is no
  // reason to refuse here.
  for (const NodeOutput& fetch : fetches) {
    auto found = index_.find(fetch.node);
    if (found != index_.end()) kept_[found->second] = true;
  }
  for (const auto& [name, device] : options.placement) {
    auto found = index_.find(name);
    if (found != index_.end()) kept_[found->second] = true;
  }
}

size_t GraphRewrite::producer(const NodeOutput& output) const { return index_.at(output.node); }

size_t GraphRewrite::reads_of(size_t index, int output) const {
  const std::vector<Read>& reads = readers_[index];
  return static_cast<size_t>(std::count_if(
      reads.begin(), reads.end(), [&](const Read& read) { return read.output == output; }));
}

size_t GraphRewrite::sole_reader(size_t index) const {
  const std::vector<Read>& reads = readers_[index];
  if (reads.size() != 1 || reads[0].output != 0) return kNone;
  return reads[0].reader;
}

std::vector<size_t> GraphRewrite::readers(size_t index) const {
  std::vector<size_t> nodes;
  for (const Read& read : readers_[index]) nodes.push_back(read.reader);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

void GraphRewrite::set_output_shape(size_t index, int output, const Shape& shape) {
  nodes_[index].output_shapes[static_cast<size_t>(output)] = shape;
}

void GraphRewrite::set_outputs(size_t index, std::vector<DType> dtypes,
                               std::vector<Shape> shapes) {
  nodes_[index].output_dtypes = std::move(dtypes);
  nodes_[index].output_shapes = std::move(shapes);
}

bool GraphRewrite::kept(size_t index) const {
  return kept_[index] || !nodes_[index].control_inputs.empty();
}

void GraphRewrite::add_reads(size_t reader) {
  const GraphNode& node = nodes_[reader];
  for (const NodeOutput& input : node.inputs) {
    readers_[producer(input)].push_back({reader, input.index});
  }
  for (const AttrInput& attr_input : node.attr_inputs) {
    readers_[producer(attr_input.value)].push_back({reader, attr_input.value.index});
  }
}

void GraphRewrite::drop_reads(size_t reader) {
  const GraphNode& node = nodes_[reader];
  auto drop_from = [&](const NodeOutput& read) {
    std::vector<Read>& list = readers_[producer(read)];
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const Read& r) { return r.reader == reader; }),
               list.end());
  };
  for (const NodeOutput& input : node.inputs) drop_from(input);
  for (const AttrInput& attr_input : node.attr_inputs) drop_from(attr_input.value);
}

void GraphRewrite::bypass(size_t index, const NodeOutput& to) {
  const std::string& name = nodes_[index].name;
  std::vector<Read> readers = std::move(readers_[index]);
  readers_[index].clear();
  for (const Read& read : readers) {
    GraphNode& reader = nodes_[read.reader];
    for (NodeOutput& input : reader.inputs) {
      if (input.node == name && input.index == 0) input = to;
    }
    for (AttrInput& attr_input : reader.attr_inputs) {
      if (attr_input.value.node == name && attr_input.value.index == 0) attr_input.value = to;
    }
  }
  // Each reader once, however many of its inputs read the node.
  std::sort(readers.begin(), readers.end(),
            [](const Read& a, const Read& b) { return a.reader < b.reader; });
  for (size_t r = 0; r < readers.size(); ++r) {
    if (r > 0 && readers[r].reader == readers[r - 1].reader) continue;
    drop_reads(readers[r].reader);
    add_reads(readers[r].reader);
  }
  erase(index);
}

void GraphRewrite::make_constant(size_t index, const Tensor& value) {
  drop_reads(index);
  GraphNode& node = nodes_[index];
  node.kind = GraphNode::Kind::kConstant;
  node.op.clear();
  node.inputs.clear();
  node.attrs = Attrs();
  node.value = value;
}

void GraphRewrite::make_op(size_t index, const std::string& op, std::vector<NodeOutput> inputs,
                           Attrs attrs) {
  drop_reads(index);
  GraphNode& node = nodes_[index];
  node.op = op;
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  add_reads(index);
}

void GraphRewrite::erase(size_t index) {
  drop_reads(index);
  erased_[index] = true;
}

void GraphRewrite::move_constant_before(size_t index, size_t before) {
  position_[index] = std::min(position_[index], 2 * before + 1);
}

Graph GraphRewrite::build() && {
  std::vector<size_t> order;
  order.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!erased_[i]) order.push_back(i);
  }
  // Stable: constants moved before one node keep their own order.
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return position_[a] < position_[b]; });
  Graph graph;
  for (size_t i : order) {
    graph.index_.emplace(nodes_[i].name, graph.nodes_.size());
    graph.nodes_.push_back(std::move(nodes_[i]));
  }
  return graph;
}

}  // namespace hxrt::detail
