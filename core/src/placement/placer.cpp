#include "placement/placer.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "device_name.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

size_t Placer::KeyHash::operator()(const Key& key) const {
  size_t h = std::hash<const void*>()(key.op);
  h = h * 31 + static_cast<size_t>(key.t);
  h = h * 31 + static_cast<size_t>(key.output);
  return h * 31 + std::hash<std::string>()(key.requested);
}

Placer::Placer(const DeviceManager& devices, const KernelRegistry& kernels)
    : devices_(devices), kernels_(kernels) {
  std::set<std::string> others;
  bool gpu = false, cpu = false;
  for (const auto& device : devices_.all()) {
    if (device->type() == "GPU") gpu = true;
    else if (device->type() == "CPU") cpu = true;
    else others.insert(device->type());
  }
  if (gpu) type_priority_.push_back("GPU");
  type_priority_.insert(type_priority_.end(), others.begin(), others.end());
  if (cpu) type_priority_.push_back("CPU");
}

Placement Placer::place(const OpSchema& op, DType t, DType output,
                        const std::string& requested) {
  Key key{&op, t, output, requested};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
  }
  // Decided outside the lock: decisions are pure, so two threads racing store the same one.
  Placement placement = decide(op.name, t, output, requested);
  std::lock_guard<std::mutex> lock(mutex_);
  cache_.emplace(std::move(key), placement);
  return placement;
}

Placement Placer::best_by_priority(const std::string& op, DType t, DType output) const {
  for (const std::string& type : type_priority_) {
    const KernelEntry* kernel = kernels_.find(op, type, t, output);
    if (kernel == nullptr) continue;
    for (const auto& device : devices_.all()) {  // ids ascend within a type
      if (device->type() == type) return {device.get(), kernel};
    }
  }
  std::string message = "No device can run op '" + op + "' with T=" + dtype_name(t) +
                        ": no loaded plugin registered a kernel for it on a device that exists.";
  message += "\nRegistered kernels:\n" + kernels_.describe_kernels(op);
  message += "\nDevices: " + devices_.describe();
  throw Error(StatusCode::kNotFound, message);
}

Placement Placer::decide(const std::string& op, DType t, DType output,
                         const std::string& requested) const {
  if (requested.empty()) return best_by_priority(op, t, output);

  DeviceSpec spec = parse_device_name(requested);
  std::vector<Device*> candidates = devices_.matching(spec);
  if (candidates.empty()) {
    throw Error(StatusCode::kInvalidArgument,
                to_string(spec) + " unknown device.\nExisting devices: " + devices_.describe());
  }
  for (Device* device : candidates) {
    if (const KernelEntry* kernel = kernels_.find(op, device->type(), t, output)) {
      return {device, kernel};
    }
  }
  const std::string type = candidates.front()->type();
  throw Error(StatusCode::kNotFound,
              "Could not satisfy explicit device specification '" + to_string(spec) +
                  "' because no supported kernel for " + type +
                  " devices is available.\nOp: " + op + " with T=" + dtype_name(t) +
                  "\nRegistered kernels:\n" + kernels_.describe_kernels(op));
}

}  // namespace hxrt::detail
