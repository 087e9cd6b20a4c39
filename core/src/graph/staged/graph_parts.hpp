// A part of a graph as a graph of its own, for the graphs whose shapes are known only at run
// (GraphNode::shapes_at_run): what a run has computed so far is fed to the part as inputs,
// with the shapes it has, and the part's nodes are inferred again from them.
#pragma once

#include <string>
#include <vector>

#include "hxrt/graph.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// One value the part reads that it does not compute: `source` in the whole graph, an input
// named `name` in the part.
struct PartInput {
  NodeOutput source;
  std::string name;
  DType dtype = DType::kF32;
  Shape shape;
};

class GraphParts {
 public:
  // The nodes of `graph` marked in `members` (op and constant nodes), in graph order, after
  // `inputs`: their reads of nodes outside the part go to those inputs (every such read has
  // one), their control inputs outside the part are dropped (those nodes have run), and each
  // op node's output shapes are inferred again. Error(kInvalidArgument) naming the node, as
  // GraphBuilder::add gives it, when its op refuses the shapes the run computed.
  static Graph part(const Graph& graph, const std::vector<bool>& members,
                    const std::vector<PartInput>& inputs, const OpRegistry& ops);

  // A graph of `nodes` made by another process (a task's part of a graph, cluster/
  // graph_wire.hpp), checked as GraphBuilder checks what it adds: a name of its own, a known
  // op, inputs and control inputs of earlier nodes, the outputs its op infers (which replace
  // those given). Error(kInvalidArgument) naming the node. Nodes with attribute inputs are
  // refused: their shapes wait for runs that parts do not have.
  static Graph assemble(std::vector<GraphNode> nodes, const OpRegistry& ops);
};

}  // namespace hxrt::detail
