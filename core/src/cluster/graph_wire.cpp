#include "cluster/graph_wire.hpp"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cluster/host_tensors.hpp"
#include "graph/staged/graph_parts.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

json attr_to_wire(const AttrValue& value) {
  json wire = json::array({value.index()});
  std::visit(
      [&wire](const auto& held) {
        using Held = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<Held, DType>) {
          wire.push_back(static_cast<int32_t>(held));
        } else {
          wire.push_back(held);
        }
      },
      value);
  return wire;
}

AttrValue attr_from_wire(const json& wire) {
  const json& held = wire.at(1);
  switch (wire.at(0).get<size_t>()) {
    case 0: return held.get<bool>();
    case 1: return held.get<int64_t>();
    case 2: return held.get<double>();
    case 3: return held.get<std::string>();
    case 4: return static_cast<DType>(held.get<int32_t>());
    case 5: return held.get<std::vector<int64_t>>();
    case 6: return held.get<std::vector<double>>();
    default: throw Error(StatusCode::kInvalidArgument, "an attribute of no known type");
  }
}

json node_to_wire(const GraphNode& node) {
  json inputs = json::array();
  for (const NodeOutput& input : node.inputs) inputs.push_back({input.node, input.index});
  json attrs = json::array();
  for (const auto& [name, value] : node.attrs.items()) {
    attrs.push_back({name, attr_to_wire(value)});
  }
  json dtypes = json::array();
  for (DType dtype : node.output_dtypes) dtypes.push_back(static_cast<int32_t>(dtype));
  json shapes = json::array();
  for (const Shape& shape : node.output_shapes) shapes.push_back(shape.to_vector());
  json wire = {{"kind", static_cast<int>(node.kind)},
               {"name", node.name},
               {"op", node.op},
               {"inputs", std::move(inputs)},
               {"controls", node.control_inputs},
               {"attrs", std::move(attrs)},
               {"device", node.requested_device},
               {"source", static_cast<int>(node.request_source)},
               {"dtypes", std::move(dtypes)},
               {"shapes", std::move(shapes)}};
  if (node.kind == GraphNode::Kind::kConstant) {
    std::vector<uint8_t> elements(node.value.byte_size());
    node.value.copy_to_host(elements.data(), elements.size());
    wire["value"] = json::binary(std::move(elements));
  }
  return wire;
}

DType dtype_from_wire(const json& wire) {
  const auto dtype = static_cast<DType>(wire.get<int32_t>());
  if (dtype_size(dtype) == 0) throw Error(StatusCode::kInvalidArgument, "an unknown dtype");
  return dtype;
}

GraphNode node_from_wire(const json& wire, Device& host) {
  GraphNode node;
  const int kind = wire.at("kind").get<int>();
  if (kind < 0 || kind > static_cast<int>(GraphNode::Kind::kOp)) {
    throw Error(StatusCode::kInvalidArgument, "a node of no known kind");
  }
  node.kind = static_cast<GraphNode::Kind>(kind);
  node.name = wire.at("name").get<std::string>();
  node.op = wire.at("op").get<std::string>();
  for (const json& input : wire.at("inputs")) {
    node.inputs.push_back({input.at(0).get<std::string>(), input.at(1).get<int>()});
  }
  node.control_inputs = wire.at("controls").get<std::vector<std::string>>();
  for (const json& attr : wire.at("attrs")) {
    node.attrs.set(attr.at(0).get<std::string>(), attr_from_wire(attr.at(1)));
  }
  node.requested_device = wire.at("device").get<std::string>();
  const int source = wire.at("source").get<int>();
  if (source < 0 || source > static_cast<int>(RequestSource::kPlacementFunction)) {
    throw Error(StatusCode::kInvalidArgument, "a request of no known source");
  }
  node.request_source = static_cast<RequestSource>(source);
  for (const json& dtype : wire.at("dtypes")) node.output_dtypes.push_back(dtype_from_wire(dtype));
  for (const json& shape : wire.at("shapes")) {
    node.output_shapes.emplace_back(shape.get<std::vector<int64_t>>());
  }
  if (node.kind == GraphNode::Kind::kConstant && node.output_dtypes.size() == 1 &&
      node.output_shapes.size() == 1) {
    const std::vector<uint8_t>& elements = wire.at("value").get_binary();
    node.value = new_host_tensor(host, node.output_dtypes[0], node.output_shapes[0]);
    if (elements.size() != node.value.byte_size()) {
      throw Error(StatusCode::kInvalidArgument,
                  "constant '" + node.name + "' has " + std::to_string(elements.size()) +
                      " bytes of elements for " + std::to_string(node.value.byte_size()));
    }
    if (!elements.empty()) std::memcpy(host_bytes(node.value), elements.data(), elements.size());
  }
  return node;
}

}  // namespace

nlohmann::json graph_to_wire(const Graph& graph) {
  json nodes = json::array();
  for (const GraphNode& node : graph.nodes()) nodes.push_back(node_to_wire(node));
  return nodes;
}

Graph graph_from_wire(const nlohmann::json& wire, const OpRegistry& ops, Device& host) {
  std::vector<GraphNode> nodes;
  try {
    for (const json& node : wire) nodes.push_back(node_from_wire(node, host));
  } catch (const json::exception& e) {
    throw Error(StatusCode::kInvalidArgument, std::string("a graph's message: ") + e.what());
  }
  return GraphParts::assemble(std::move(nodes), ops);
}

}  // namespace hxrt::detail
