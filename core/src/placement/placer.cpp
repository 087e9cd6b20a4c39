#include "placement/placer.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "base/device_name.hpp"
#include "placement/binding_limit.hpp"
#include "hxrt/error.hpp"
#include "base/status.hpp"

namespace hxrt::detail {
namespace {

// Where a placement class goes in the default order (plugin_api.h, hx_placement_class):
// discrete accelerators, then the CPU, then accelerators that share the host's processors.
// The enum's values are identifiers, not this order.
int default_rank(int placement_class) {
  switch (placement_class) {
    case HX_PLACEMENT_DISCRETE_ACCELERATOR: return 0;
    case HX_PLACEMENT_CPU: return 1;
    default: return 2;  // HX_PLACEMENT_HOST_ACCELERATOR: the loader admits no other value
  }
}

// The best rank among each type's devices.
std::map<std::string, int> best_ranks(const DeviceManager& devices) {
  std::map<std::string, int> best;
  for (const auto& device : devices.all()) {
    const int rank = default_rank(device->physical().placement_class());
    auto found = best.find(device->type());
    if (found == best.end() || rank < found->second) best[device->type()] = rank;
  }
  return best;
}

std::vector<std::string> order_types(const DeviceManager& devices,
                                     const std::vector<std::string>& preferred) {
  const std::map<std::string, int> best = best_ranks(devices);
  std::vector<std::string> order;
  for (const std::string& type : preferred) {
    if (best.count(type) && std::find(order.begin(), order.end(), type) == order.end()) {
      order.push_back(type);
    }
  }
  std::vector<std::pair<int, std::string>> rest;
  for (const auto& item : best) {
    if (std::find(order.begin(), order.end(), item.first) == order.end()) {
      rest.emplace_back(item.second, item.first);
    }
  }
  std::sort(rest.begin(), rest.end());  // by rank, then name
  for (const auto& item : rest) order.push_back(item.second);
  return order;
}

}  // namespace

size_t Placer::Key::hash() const {
  size_t h = std::hash<const void*>()(op);
  for (uint64_t part : {static_cast<uint64_t>(t), static_cast<uint64_t>(output),
                        static_cast<uint64_t>(mode), inputs[0], inputs[1],
                        static_cast<uint64_t>(num_inputs)}) {
    h = h * 1099511628211ull ^ part;
  }
  return requested.empty() ? h : h ^ std::hash<std::string_view>()(requested);
}

Placer::Decision::Decision(const Key& key, Route route)
    : requested_(key.requested), key_(key), hash_(key.hash()), route_(std::move(route)) {
  key_.requested = requested_;
}

Placer::Placer(const DeviceManager& devices, const KernelRegistry& kernels,
               const std::vector<std::string>& priority)
    : devices_(devices), kernels_(kernels), type_priority_(order_types(devices, priority)) {
  for (const auto& device : devices_.all()) {
    instances_[device.get()] = std::make_unique<KernelInstances>(*device);
  }
}

Placer::~Placer() = default;  // each KernelInstances waits for its device first

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

const Placer::Route& Placer::route(const PlacementRequest& request,
                                   std::optional<Route>& uncached) {
  Key key;
  if (!make_key(request, key)) return uncached.emplace(decide(request));
  const size_t hash = key.hash();
  if (const Decision* found = decisions_.find(hash, key)) return found->route();
  if (decisions_.size() >= kMostDecisions) return uncached.emplace(decide(request));
  // Decided outside the table's lock: routes are pure, so two threads racing keep the first.
  return decisions_.insert(std::make_unique<Decision>(key, decide(request)), key).route();
}

Placement Placer::place(const PlacementRequest& request) {
  std::optional<Route> uncached;  // optional: a cached call makes no Route at all
  const Route& chosen = route(request, uncached);
  std::string declines;  // the kernels' own reasons, in the order they declined
  Placement placement;   // the one object returned (no move of its reason per call)
  for (const Candidate& candidate : chosen.candidates) {
    placement.device = candidate.device;
    placement.kernel = candidate.kernel;
    placement.asked_each_call |= candidate.kernel->check_each_call;
    std::string declined;
    if (within_binding_limit(*candidate.device, request, declined) &&
        (!candidate.kernel->may_decline() || accepts(candidate, request, placement, declined))) {
      if (!candidate.reason.empty()) placement.reason = candidate.reason;
      if (!declines.empty()) {
        placement.reason += (placement.reason.empty() ? "" : "; ") + declines;
      }
      return placement;
    }
    placement.instance.reset();  // the next candidate has its own, or none
    declines += (declines.empty() ? "" : "; ") + std::string("the kernel of plugin '") +
                candidate.kernel->plugin + "' on " + candidate.device->name() +
                " declined: " + declined;
  }
  throw Error(chosen.failure_code,
              chosen.failure + (declines.empty() ? "" : "\nDeclined: " + declines));
}

bool Placer::accepts(const Candidate& candidate, const PlacementRequest& request,
                     Placement& placement, std::string& declined) {
  const KernelEntry& kernel = *candidate.kernel;
  if (candidate.instances != nullptr) {
    int32_t dtypes[2 * HX_MAX_RANK];  // the stack for the common few, else the heap
    std::vector<int32_t> many;
    const size_t count = request.num_inputs + request.num_outputs;
    int32_t* all = dtypes;
    if (count > std::size(dtypes)) {
      many.resize(count);
      all = many.data();
    }
    for (size_t i = 0; i < request.num_inputs; ++i) all[i] = request.inputs[i].dtype;
    for (size_t i = 0; i < request.num_outputs; ++i) {
      all[request.num_inputs + i] = request.outputs[i].dtype;
    }
    const InstanceRequest combination{request.attrs, all, request.num_inputs,
                                      all + request.num_inputs, request.num_outputs};
    if (const InstanceLookup* pinned = candidate.pin->find(combination)) {
      if (pinned->declined) {
        declined = pinned->reason;
        return false;
      }
      placement.instance = pinned->instance;
    } else {
      InstanceLookup lookup = candidate.instances->get(combination);
      candidate.pin->pin(combination, lookup);
      if (lookup.declined) {
        declined = std::move(lookup.reason);
        return false;
      }
      placement.instance = std::move(lookup.instance);
    }
  }
  return checks(kernel, *candidate.device, placement.instance.get(), request, declined);
}

bool Placer::checks(const KernelEntry& kernel, const Device& device, hx_kernel_instance* instance,
                    const PlacementRequest& request, std::string& declined) {
  if (kernel.check == nullptr) return true;
  hx_kernel_context_s context{&request.attrs};
  const hx_kernel_args args{HX_KERNEL_ARGS_STRUCT_SIZE, nullptr,          &context,
                            device.handle(),            nullptr,          request.num_inputs,
                            request.inputs,             request.num_outputs, request.outputs,
                            kernel.user_data,           instance,
                            nullptr,                    nullptr};
  hx_status* status = nullptr;
  try {
    status = kernel.check(&args);
  } catch (...) {
    throw Error(StatusCode::kInternal, request.op->name + " on " + device.name() +
                                           ": the kernel of plugin '" + kernel.plugin +
                                           "' threw a C++ exception from check across the C ABI");
  }
  if (status != nullptr && status->code == HX_UNIMPLEMENTED) {
    declined = status->message;
    free_status(status);
    return false;
  }
  if (status != nullptr) {  // the context is built only then: this runs on every call
    throw_if_error(status, request.op->name + " on " + device.name() +
                               ": the check of plugin '" + kernel.plugin + "''s kernel");
  }
  return true;
}

void Placer::add_kernels(Device& device, const std::string& op, DType t, DType output,
                         const std::string& reason, Route& route) {
  for (const KernelEntry* kernel : kernels_.find(op, device.plugin().name(), t, output)) {
    KernelInstances::InstanceSet* instances =
        kernel->create == nullptr ? nullptr : &instances_.at(&device)->set_of(*kernel);
    route.candidates.push_back({&device, kernel, instances,
                                instances == nullptr ? nullptr : std::make_unique<InstancePin>(),
                                reason});
  }
}

void Placer::add_by_priority(const std::string& op, DType t, DType output,
                             const std::string& reason, const std::vector<Device*>& tried,
                             Route& route) {
  for (const std::string& type : type_priority_) {
    for (const auto& device : devices_.all()) {  // ids ascend within a type
      if (device->type() != type ||
          std::find(tried.begin(), tried.end(), device.get()) != tried.end()) {
        continue;
      }
      const std::string chosen = reason.empty() ? reason : reason + device->name();
      add_kernels(*device, op, t, output, chosen, route);
    }
  }
}

std::string Placer::describe_kernels(const std::string& op) const {
  std::set<std::string> present;
  for (const auto& device : devices_.all()) present.insert(device->plugin().name());
  return kernels_.describe_kernels(
      op, [&present](const std::string& plugin) { return present.count(plugin) > 0; });
}

Placer::Route Placer::decide(const PlacementRequest& request) {
  const std::string& op = request.op->name;
  const std::string t_text = dtype_name(request.t);
  Route route;
  route.failure = "No device can run op '" + op + "' with T=" + t_text +
                  ": no loaded plugin registered a kernel for it that accepts the call on a "
                  "device that exists.\nRegistered kernels:\n" + describe_kernels(op) +
                  "\nDevices: " + devices_.describe();
  if (request.requested.empty()) {
    add_by_priority(op, request.t, request.output, {}, {}, route);
    return route;
  }

  const DeviceSpec spec = parse_device_name(request.requested);
  const std::vector<Device*> candidates = devices_.matching(spec);
  if (candidates.empty()) {
    if (request.mode == SoftPlacement::kSoft) {
      add_by_priority(op, request.t, request.output,
                      "requested " + to_string(spec) +
                          ", which does not exist; soft placement chose ",
                      {}, route);
      return route;
    }
    route.failure_code = StatusCode::kInvalidArgument;
    route.failure = to_string(spec) + " unknown device.\nExisting devices: " +
                    devices_.describe_for(spec) +
                    "\nTo place ops on the best existing device instead, set soft placement "
                    "(placement.soft_placement: \"soft\").";
    return route;
  }
  for (Device* device : candidates) add_kernels(*device, op, request.t, request.output, {}, route);
  const std::string type = candidates.front()->type();
  if (request.mode != SoftPlacement::kStrict) {
    // The requested devices' kernels come first; the fallback does not ask them again.
    add_by_priority(op, request.t, request.output,
                    "requested " + to_string(spec) + ", but no supported kernel for " + type +
                        " devices is available for T=" + t_text + "; fell back to ",
                    candidates, route);
    return route;
  }
  route.failure = "Could not satisfy explicit device specification '" + to_string(spec) +
                  "' because no supported kernel for " + type +
                  " devices is available.\nOp: " + op + " with T=" + t_text +
                  "\nRegistered kernels:\n" + describe_kernels(op);
  return route;
}

}  // namespace hxrt::detail
