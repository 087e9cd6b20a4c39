#include "cluster/part_description.hpp"

#include <algorithm>

#include "hxrt/error.hpp"

namespace hxrt {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceEstimate, device, allowed, kernel_ms, finish_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NodePlacement, node, op, device, requested, request_source,
                                   reason, estimates)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceMemoryPlan, device, arena_bytes, unshared_bytes,
                                   widest_bytes, separate_bytes, peak_bytes, constant_bytes)

namespace detail {

nlohmann::json describe_parts(const std::vector<std::shared_ptr<const ExecutableImpl>>& parts) {
  nlohmann::json placement = nlohmann::json::array();
  nlohmann::json memory_plan = nlohmann::json::array();
  nlohmann::json transfers = nlohmann::json::array();
  for (const auto& part : parts) {
    if (part == nullptr) continue;  // a collective's step
    for (const NodePlacement& node : part->placement) placement.push_back(node);
    for (const DeviceMemoryPlan& device : part->memory_plan) memory_plan.push_back(device);
    for (const std::string& transfer : part->transfers) transfers.push_back(transfer);
  }
  return {{"placement", std::move(placement)},
          {"memory_plan", std::move(memory_plan)},
          {"transfers", std::move(transfers)}};
}

void add_description(const nlohmann::json& description,
                     const std::set<std::string>& graph_inputs, ExecutableImpl& whole) {
  try {
    for (NodePlacement node : description.at("placement").get<std::vector<NodePlacement>>()) {
      if (node.op == "Placeholder") {
        const bool listed = std::any_of(whole.placement.begin(), whole.placement.end(),
                                        [&](const NodePlacement& n) {
                                          return n.node == node.node;
                                        });
        if (graph_inputs.count(node.node) == 0 || listed) continue;
      }
      whole.placement.push_back(std::move(node));
    }
    for (DeviceMemoryPlan& device :
         description.at("memory_plan").get<std::vector<DeviceMemoryPlan>>()) {
      whole.memory_plan.push_back(std::move(device));
    }
    for (std::string& transfer : description.at("transfers").get<std::vector<std::string>>()) {
      whole.transfers.push_back(std::move(transfer));
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(StatusCode::kInternal, std::string("a task's description of its parts: ") +
                                           e.what());
  }
}

}  // namespace detail
}  // namespace hxrt
