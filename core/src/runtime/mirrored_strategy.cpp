// MirroredStrategy: the replicas' devices found among every task's, and the replicated graph.
#include "hxrt/mirrored_strategy.hpp"

#include "base/device_name.hpp"
#include "hxrt/runtime.hpp"

namespace hxrt {
namespace {

// The canonical name of the device `name` names: with a job or task, any task's; without,
// this task's.
std::string device_named(const std::vector<DeviceInfo>& devices, const std::string& name) {
  const detail::DeviceSpec spec = detail::parse_device_name(name);
  const bool any_task = !spec.job.empty() || spec.task >= 0;
  for (const DeviceInfo& device : devices) {
    if (!any_task && !device.local) continue;
    const detail::DeviceSpec has = detail::parse_device_name(device.name);
    if ((spec.job.empty() || spec.job == has.job) && (spec.task < 0 || spec.task == has.task) &&
        spec.type == has.type && spec.index == has.index) {
      return device.name;
    }
  }
  throw Error(StatusCode::kInvalidArgument,
              "MirroredStrategy: no device is named '" + name +
                  "'; name one of Runtime::devices() (\"GPU:1\" for this task's, "
                  "\"/job:worker/task:1/device:GPU:0\" for another task's)");
}

}  // namespace

MirroredStrategy::MirroredStrategy(Runtime& runtime, std::vector<std::string> devices)
    : runtime_(runtime) {
  const std::vector<DeviceInfo> all = runtime.devices();
  for (const std::string& name : devices) devices_.push_back(device_named(all, name));
  if (!devices.empty()) return;
  for (const DeviceInfo& device : all) {
    if (device.type == "GPU") devices_.push_back(device.name);
  }
  if (!devices_.empty()) return;
  for (const DeviceInfo& device : all) {
    if (device.type != "CPU" || device.id != 0) continue;
    devices_.push_back(device.name);
  }
  if (devices_.empty()) {
    throw Error(StatusCode::kInvalidArgument,
                "MirroredStrategy: no GPU and no CPU:0 among the runtime's devices to replicate "
                "on; name the devices");
  }
}

std::vector<NodeOutput> MirroredStrategy::reduce(GraphBuilder& builder,
                                                 const ReplicaFunction& function,
                                                 const std::string& reduction,
                                                 const std::string& name) const {
  std::vector<std::vector<NodeOutput>> results;  // per replica
  for (size_t index = 0; index < devices_.size(); ++index) {
    Replica replica;
    replica.index = static_cast<int>(index);
    replica.device = devices_[index];
    replica.prefix = "replica_" + std::to_string(index) + "/";
    // As TensorFlow's strategy.run: the replica's nodes go to its device, unless they ask for
    // another.
    const DeviceScope scope = runtime_.device(replica.device);
    results.push_back(function(builder, replica));
    if (results.back().size() != results.front().size()) {
      throw Error(StatusCode::kInvalidArgument,
                  "MirroredStrategy: replica " + std::to_string(index) + " returned " +
                      std::to_string(results.back().size()) + " results and replica 0 " +
                      std::to_string(results.front().size()) + "; every replica returns as many");
    }
  }
  std::vector<NodeOutput> reduced;
  for (size_t k = 0; k < results.front().size(); ++k) {
    std::vector<NodeOutput> replicas;
    for (const std::vector<NodeOutput>& replica : results) replicas.push_back(replica[k]);
    const std::string node = k == 0 ? name : name + "_" + std::to_string(k);
    reduced.push_back(builder.add(node, "AllReduce", replicas, {{"reduction", reduction}}));
  }
  return reduced;
}

}  // namespace hxrt
