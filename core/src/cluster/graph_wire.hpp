// A task's part of a graph as the message that carries it to the task, and back into a Graph
// there: nlohmann's JSON, sent as MessagePack, with the constants' elements as binary.
#pragma once

#include <nlohmann/json.hpp>

#include "devices/device.hpp"
#include "hxrt/graph.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// Every node of `graph`: kind, name, op, inputs, control inputs, attributes, device request
// and its source, declared dtypes and shapes, a constant's elements (read to the host).
nlohmann::json graph_to_wire(const Graph& graph);

// The graph `wire` describes, checked as GraphParts::assemble checks it; its constants on
// `host`. Error(kInvalidArgument) for a message that describes no graph, saying what in it
// is wrong.
Graph graph_from_wire(const nlohmann::json& wire, const OpRegistry& ops, Device& host);

}  // namespace hxrt::detail
