#include "graph/optimize/kernel_coverage.hpp"

#include "base/device_name.hpp"

namespace hxrt::detail {

bool KernelCoverage::fusable(const std::vector<std::string>& parts, const std::string& fused,
                             DType t, const std::string& requested) {
  if (kernels_.empty()) read_kernels();
  const bool anywhere = dynamic_ && requested.empty();
  const std::string type = anywhere ? "" : device_type_of(parts[0], t, requested);
  if (!anywhere && type.empty()) return false;
  std::string key = fused + "/" + dtype_name(t) + "/" + type;
  for (const std::string& part : parts) key += "/" + part;
  auto known = answers_.find(key);
  if (known != answers_.end()) return known->second;
  const std::set<std::string> fusing = plugins_with(fused, t, type);
  std::set<std::string> running = plugins_with(parts[0], t, type);
  for (size_t p = 1; p < parts.size(); ++p) {
    std::set<std::string> also;
    for (const std::string& plugin : plugins_with(parts[p], t, type)) {
      if (running.count(plugin) != 0) also.insert(plugin);
    }
    running = std::move(also);
  }
  bool keeps = !fusing.empty();
  for (const std::string& plugin : running) keeps = keeps && fusing.count(plugin) != 0;
  answers_.emplace(key, keeps);
  return keeps;
}

std::string KernelCoverage::device_type_of(const std::string& op, DType t,
                                           const std::string& requested) {
  if (!requested.empty()) {
    try {
      const std::string type = parse_device_name(requested).type;
      if (!type.empty()) return type;
    } catch (const Error&) {
      return "";  // the builder refuses malformed names; the placer would, in any case
    }
  }
  for (const std::string& type : context_.placer->type_priority()) {
    if (!plugins_with(op, t, type).empty()) return type;
  }
  return "";
}

std::set<std::string> KernelCoverage::plugins_with(const std::string& op, DType t,
                                                   const std::string& type) const {
  std::set<std::string> plugins;
  for (const KernelEntry* kernel : kernels_) {
    if (kernel->op == op && kernel->accepts(t, t) &&
        (type.empty() || kernel->device_type == type)) {
      plugins.insert(kernel->plugin);
    }
  }
  return plugins;
}

void KernelCoverage::read_kernels() {
  std::set<std::string> with_devices;
  for (const auto& device : context_.devices.all()) with_devices.insert(device->plugin().name());
  for (const KernelEntry* kernel : context_.kernels.all()) {
    if (with_devices.count(kernel->plugin) != 0) kernels_.push_back(kernel);
  }
}

}  // namespace hxrt::detail
