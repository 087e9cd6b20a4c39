// A graph of ops, built once and compiled (later) into an executable that runs many times
// (docs/graphs.md). GraphBuilder checks every node as it is added, naming it: its op
// exists, its inputs are outputs of nodes already in the graph, and shape inference accepts
// their dtypes and shapes; so every graph it builds is acyclic and fully typed. Device scopes
// and the placement function of the runtime apply while the graph is built, as TensorFlow's
// `with tf.device(...)` blocks do: the request recorded for a node is the one in force when it
// was added.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/export.hpp"
#include "hxrt/shape.hpp"
#include "hxrt/tensor.hpp"

namespace hxrt {

class Runtime;

// Output `index` of the node named `node`.
struct NodeOutput {
  std::string node;
  int index = 0;
};

// What the device request of a node came from, as TensorFlow's placer tells them apart.
enum class RequestSource {
  kNone,               // nothing was requested: the placer chooses
  kNode,               // the device argument of GraphBuilder::add or input
  kScope,              // the innermost device scope of the building thread
  kPlacementFunction,  // Runtime::set_placement_function's answer for the node
};

// An attribute of a node that the graph computes, as ONNX passes some attributes as tensors
// (Reshape's shape, TopK's k): when a run has computed `value`, the node's attribute `attr`
// is set from its elements (an int or a float from a tensor of one element, a list from one
// of rank 0 or 1; integers for int attributes), and the node runs with it.
struct AttrInput {
  std::string attr;
  NodeOutput value;
};

struct GraphNode {
  enum class Kind { kInput, kConstant, kOp };
  Kind kind = Kind::kOp;
  std::string name;
  std::string op;  // "" for an input or a constant
  std::vector<NodeOutput> inputs;
  std::vector<std::string> control_inputs;  // nodes that must run before this one
  Attrs attrs;
  // Attributes the graph computes, set on `attrs` when a run has computed them; the node's
  // shapes are then known only at run (shapes_at_run).
  std::vector<AttrInput> attr_inputs;
  std::string requested_device;  // as written, "" when none
  RequestSource request_source = RequestSource::kNone;
  // A constant's value, as given to GraphBuilder::constant; empty for other nodes.
  Tensor value;
  // From shape inference when the node was added (an input's: as declared; a constant's:
  // its value's).
  std::vector<DType> output_dtypes;
  std::vector<Shape> output_shapes;
  // Whether the node's output shapes are known only when a run computes them: it is an op
  // whose extents depend on values (OpInfo::extents_at_run, NonZero), or has attr_inputs, or
  // reads the output of such a node, directly or through other nodes. Its output_shapes are
  // then provisional (the most NonZero's extents may have; where shape inference cannot tell,
  // of rank 0), and compile leaves them to the runs, which infer them again (docs/graphs.md).
  bool shapes_at_run = false;
};

namespace detail {
class GraphParts;    // graph/staged: the parts of a graph compiled when a run reaches them
class GraphRewrite;  // graph/optimize: the graph compile's passes make
}

class HXRT_API Graph {
 public:
  // In the order they were added, which is an order of execution: every node comes after its
  // inputs and control inputs.
  const std::vector<GraphNode>& nodes() const { return nodes_; }
  // nullptr when there is no node of that name.
  const GraphNode* find(const std::string& name) const;
  // The names of the graph's inputs, in the order they were declared.
  std::vector<std::string> inputs() const;

 private:
  friend class GraphBuilder;
  friend class detail::GraphParts;
  friend class detail::GraphRewrite;
  std::vector<GraphNode> nodes_;
  std::unordered_map<std::string, size_t> index_;
};

// Builds a Graph against a runtime, which it borrows: the runtime must outlive the builder.
// Every method throws Error(kInvalidArgument) naming the node ("graph node 'mm': ...") for a
// name that is empty or taken, an unknown op, an input or control input that names no node
// already in the graph or an output it does not have, a malformed device name, or inputs
// that shape inference refuses; the graph is then left as it was.
class HXRT_API GraphBuilder {
 public:
  explicit GraphBuilder(Runtime& runtime);

  // A graph input of `dtype` and `shape`, fed when the graph runs. `device`: where the fed
  // tensor should live ("" : as the scope or placement function says, else the placer).
  NodeOutput input(const std::string& name, DType dtype, const Shape& shape,
                   const std::string& device = {});
  // A constant: `value` (on any device), which compile copies once to each device where a
  // consumer of it runs and every run of the executable reads (a model's weights).
  // `device`: where it should live, as for an input; "" : with its first consumer. The
  // constant shares `value`'s memory until then: the caller must not write to it.
  NodeOutput constant(const std::string& name, const Tensor& value,
                      const std::string& device = {});
  // A node running `op` on `inputs` with `attrs`; returns its output 0 (NodeOutput{name, i}
  // names the others). `device` requests a device for it; "" leaves it to the innermost
  // device scope of this thread, else the placement function, else the placer.
  // `control_inputs` name nodes that must run before it. `attr_inputs` name attributes the
  // graph computes (AttrInput): each of the op's attributes, not also in `attrs`, from an
  // output of a node already in the graph, of an integer dtype (a floating one for a float
  // attribute). Such a node, and every node that reads it, has shapes known only at run.
  NodeOutput add(const std::string& name, const std::string& op,
                 const std::vector<NodeOutput>& inputs, const Attrs& attrs = {},
                 const std::string& device = {},
                 const std::vector<std::string>& control_inputs = {},
                 const std::vector<AttrInput>& attr_inputs = {});

  const Graph& graph() const { return graph_; }
  // A copy of the graph built so far; the builder may go on.
  Graph build() const { return graph_; }

 private:
  // Records `node` after its checks: fills its request, then adds it.
  NodeOutput append(GraphNode node, const std::string& device);
  Runtime& runtime_;
  Graph graph_;
};

}  // namespace hxrt
