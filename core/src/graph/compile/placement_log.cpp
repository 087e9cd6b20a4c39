// A compiled graph's placement, logged as TensorFlow logs a session's: the device mapping,
// then one line per node.
#include "graph/compile/compile_phases.hpp"

namespace hxrt::detail {

void log_placement(GraphContext& context, const std::vector<NodePlacement>& placement) {
  if (!context.log_placement.load(std::memory_order_relaxed)) return;
  Logger& logger = context.logger;
  std::string mapping = "Device mapping:";
  for (const std::shared_ptr<Device>& device : context.devices.all()) {
    const DeviceInfo& about = device->physical().descriptive_info();
    mapping += "\n" + device->name() + " -> device: " + std::to_string(device->id()) +
               ", name: " + (about.product.empty() ? device->type() : about.product) +
               ", plugin: " + device->plugin().name();
  }
  logger.write(LogLevel::kInfo, mapping);
  for (const NodePlacement& node : placement) {
    logger.write(LogLevel::kInfo, node.node + ": (" + node.op + "): " + node.device);
    if (!node.reason.empty()) logger.write(LogLevel::kInfo, "  " + node.reason);
  }
}

}  // namespace hxrt::detail
