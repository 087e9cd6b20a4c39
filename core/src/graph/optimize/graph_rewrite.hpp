// A graph's nodes as compile's passes change them: a node is bypassed (its readers read another
// value), turned into a constant, given new inputs, or erased; build() makes the Graph of what
// is left, in the same order. Who reads what is kept up to date, so that each pass is one walk
// over the nodes however large the graph.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "hxrt/executable.hpp"
#include "hxrt/graph.hpp"

namespace hxrt::detail {

class GraphRewrite {
 public:
  // `options.placement` names nodes whose given-back device must stay theirs: like fetched
  // nodes and nodes others wait for, they are never bypassed, erased or merged away.
  GraphRewrite(const Graph& graph, const std::vector<NodeOutput>& fetches,
               const CompileOptions& options);

  size_t size() const { return nodes_.size(); }
  const GraphNode& node(size_t index) const { return nodes_[index]; }
  bool erased(size_t index) const { return erased_[index]; }
  // The index of the node `output` reads.
  size_t producer(const NodeOutput& output) const;
  // How many inputs and attribute inputs of nodes still in the graph read output `output` of
  // node `index` (fetches not counted).
  size_t reads_of(size_t index, int output) const;
  // The one node that reads node `index` (once, output 0), or kNone when it has no such
  // reader alone.
  size_t sole_reader(size_t index) const;
  static constexpr size_t kNone = SIZE_MAX;
  // The nodes that read any output of node `index`, by an input or an attribute input, each
  // once, in graph order.
  std::vector<size_t> readers(size_t index) const;
  // Whether the node must stay as it is named: fetched, a control input of another node, or
  // given back a device.
  bool kept(size_t index) const;

  // Every reader of node `index`'s output 0 reads `to` instead, and the node goes.
  void bypass(size_t index, const NodeOutput& to);
  // Node `index` (one output) becomes a constant holding `value`.
  void make_constant(size_t index, const Tensor& value);
  // Node `index` becomes a call of `op` on `inputs` with `attrs` (its outputs unchanged).
  void make_op(size_t index, const std::string& op, std::vector<NodeOutput> inputs,
               Attrs attrs);
  // Output `output` of node `index` is of `shape` now (a pass that lays it out otherwise).
  void set_output_shape(size_t index, int output, const Shape& shape);
  // Node `index` has these outputs now: an op of more outputs than the node it replaced
  // (LayerNormalization's statistics), whose readers read output 0 as before.
  void set_outputs(size_t index, std::vector<DType> dtypes, std::vector<Shape> shapes);
  // Node `index`, which nothing reads any more, goes.
  void erase(size_t index);
  // Node `index`, a constant (which reads nothing), comes just before node `before` in the
  // graph build() makes, so that `before` and later nodes may read it.
  void move_constant_before(size_t index, size_t before);

  Graph build() &&;

 private:
  struct Read {
    size_t reader;
    int output;  // of the node read
  };
  void add_reads(size_t reader);
  void drop_reads(size_t reader);

  std::vector<GraphNode> nodes_;
  std::vector<bool> erased_;
  std::vector<std::vector<Read>> readers_;  // per node: who reads which of its outputs
  std::unordered_map<std::string, size_t> index_;
  std::vector<bool> kept_;
  // Per node, where build() puts it: its index, or just before another node's for a moved
  // constant (2 * index + 1, against 2 * index + 2 for node `index` itself).
  std::vector<size_t> position_;
};

}  // namespace hxrt::detail
