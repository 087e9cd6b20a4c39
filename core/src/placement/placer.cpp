#include "placement/placer.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "device_name.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

std::vector<std::string> order_types(const DeviceManager& devices,
                                     const std::vector<std::string>& preferred) {
  std::set<std::string> present;
  for (const auto& device : devices.all()) present.insert(device->type());
  std::vector<std::string> order;
  auto add = [&](const std::string& type) {
    if (present.count(type) && std::find(order.begin(), order.end(), type) == order.end()) {
      order.push_back(type);
    }
  };
  for (const std::string& type : preferred) add(type);
  add("GPU");
  for (const std::string& type : present) {
    if (type != "CPU") add(type);
  }
  add("CPU");
  return order;
}

}  // namespace

bool Placer::Key::operator==(const Key& other) const {
  return op == other.op && t == other.t && output == other.output && mode == other.mode &&
         num_inputs == other.num_inputs && inputs[0] == other.inputs[0] &&
         inputs[1] == other.inputs[1] && requested == other.requested;
}

size_t Placer::KeyHash::operator()(const Key& key) const {
  size_t h = std::hash<const void*>()(key.op);
  for (uint64_t part : {static_cast<uint64_t>(key.t), static_cast<uint64_t>(key.output),
                        static_cast<uint64_t>(key.mode), key.inputs[0], key.inputs[1],
                        static_cast<uint64_t>(key.num_inputs)}) {
    h = h * 1099511628211ull ^ part;
  }
  return key.requested.empty() ? h : h ^ std::hash<std::string>()(key.requested);
}

Placer::Placer(const DeviceManager& devices, const KernelRegistry& kernels,
               const std::vector<std::string>& priority)
    : devices_(devices), kernels_(kernels), type_priority_(order_types(devices, priority)) {}

bool Placer::make_key(const PlacementRequest& request, Key& key) const {
  if (request.num_inputs > kMaxKeyedInputs) return false;
  key.op = request.op;
  key.t = request.t;
  key.output = request.output;
  key.mode = request.mode;
  key.requested = request.requested;
  key.inputs[0] = key.inputs[1] = 0;
  key.num_inputs = request.num_inputs;
  for (size_t i = 0; i < request.num_inputs; ++i) {
    const size_t index = request.input_devices[i]->index();
    if (index > 255) return false;
    key.inputs[i / 8] |= static_cast<uint64_t>(index) << (8 * (i % 8));
  }
  return true;
}

Placement Placer::place(const PlacementRequest& request) {
  Key key;
  if (!make_key(request, key)) return decide(request);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
  }
  // Decided outside the lock: decisions are pure, so two threads racing store the same one.
  Placement placement = decide(request);
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.emplace(std::move(key), std::move(placement)).first->second;
}

Placement Placer::best_by_priority(const std::string& op, DType t, DType output) const {
  for (const std::string& type : type_priority_) {
    const KernelEntry* kernel = kernels_.find(op, type, t, output);
    if (kernel == nullptr) continue;
    for (const auto& device : devices_.all()) {  // ids ascend within a type
      if (device->type() == type) return {device.get(), kernel, {}};
    }
  }
  std::string message = "No device can run op '" + op + "' with T=" + dtype_name(t) +
                        ": no loaded plugin registered a kernel for it on a device that exists.";
  message += "\nRegistered kernels:\n" + kernels_.describe_kernels(op);
  message += "\nDevices: " + devices_.describe();
  throw Error(StatusCode::kNotFound, message);
}

Placement Placer::decide(const PlacementRequest& request) const {
  const std::string& op = request.op->name;
  if (request.requested.empty()) return best_by_priority(op, request.t, request.output);

  const DeviceSpec spec = parse_device_name(request.requested);
  const std::vector<Device*> candidates = devices_.matching(spec);
  if (candidates.empty()) {
    if (request.mode == SoftPlacement::kSoft) {
      Placement placement = best_by_priority(op, request.t, request.output);
      placement.reason = "requested " + to_string(spec) +
                         ", which does not exist; soft placement chose " +
                         placement.device->name();
      return placement;
    }
    throw Error(StatusCode::kInvalidArgument,
                to_string(spec) + " unknown device.\nExisting devices: " + devices_.describe() +
                    "\nTo place ops on the best existing device instead, set soft placement "
                    "(placement.soft_placement: \"soft\").");
  }
  for (Device* device : candidates) {
    if (const KernelEntry* kernel =
            kernels_.find(op, device->type(), request.t, request.output)) {
      return {device, kernel, {}};
    }
  }
  const std::string type = candidates.front()->type();
  if (request.mode != SoftPlacement::kStrict) {
    Placement placement = best_by_priority(op, request.t, request.output);
    placement.reason = "requested " + to_string(spec) + ", but no supported kernel for " + type +
                       " devices is available for T=" + dtype_name(request.t) +
                       "; fell back to " + placement.device->name();
    return placement;
  }
  throw Error(StatusCode::kNotFound,
              "Could not satisfy explicit device specification '" + to_string(spec) +
                  "' because no supported kernel for " + type +
                  " devices is available.\nOp: " + op + " with T=" + dtype_name(request.t) +
                  "\nRegistered kernels:\n" + kernels_.describe_kernels(op));
}

}  // namespace hxrt::detail
