// A model in ONNX's format, imported as a Graph (docs/models.md): Runtime::load_onnx reads it
// through ONNX's own protobuf messages, and builds the graph with GraphBuilder, so that
// placement, memory planning, the executor and traces treat it as any other graph.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hxrt/graph.hpp"
#include "hxrt/shape.hpp"

namespace hxrt {

struct OnnxLoadOptions {
  // Extents of the dimensions a model leaves open, by the name ONNX gives them
  // (dim_param: "batch" -> 8). A dimension with neither an extent nor a name needs
  // input_shapes.
  std::map<std::string, int64_t> dims;
  // Whole shapes of graph inputs, by input name; they must agree with every extent the model
  // fixes. They win over `dims`.
  std::map<std::string, Shape> input_shapes;
  // Values of graph inputs known when the model is loaded, by input name: where a node takes
  // such an input as an attribute (Reshape's shape, a reduction's axes, Slice's starts), it
  // reads this value, and a run must feed the input this same value. Elsewhere the input stays
  // an input of the graph. (ONNX's node tests feed such values as inputs; exported models
  // mostly hold them as initializers.)
  std::map<std::string, Tensor> input_values;
  // Where the files of tensors stored as external data are, for a model loaded from bytes;
  // a model loaded from a file finds them beside it.
  std::string external_data_dir;
};

struct OnnxModel {
  Graph graph;
  // The graph inputs a run feeds (the ONNX graph's inputs that are not initializers), by
  // their ONNX names, in the model's order, with the shapes they were bound to.
  std::vector<std::string> inputs;
  // The model's outputs, by their ONNX names, and the node output that computes each: the
  // fetches to compile.
  std::vector<std::string> output_names;
  std::vector<NodeOutput> outputs;
  // The opset of ONNX's default domain that the model imports.
  int64_t opset = 0;
  // What the model says made it ("pytorch 2.3.0"), for messages.
  std::string producer;
  // ONNX nodes computed at load because every input they read was known then (the shape
  // arithmetic exporters emit, Constant nodes): they are constants of the graph, not nodes.
  size_t folded_nodes = 0;
};

}  // namespace hxrt
