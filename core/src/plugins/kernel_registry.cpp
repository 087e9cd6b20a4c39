#include "plugins/kernel_registry.hpp"

#include <algorithm>

#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

bool contains(const std::vector<DType>& list, DType value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string dtype_list(const std::vector<DType>& list) {
  std::string text = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) text += ", ";
    text += dtype_name(list[i]);
  }
  return text + "]";
}

}  // namespace

bool KernelEntry::accepts(DType t, DType output) const {
  return contains(dtypes, t) && (output_dtypes.empty() || contains(output_dtypes, output));
}

void KernelRegistry::add(KernelEntry entry) {
  for (DType t : entry.dtypes) {
    if (ties_.count(TieKey{entry.op, entry.plugin, entry.priority, t}) == 0) continue;
    throw Error(StatusCode::kAlreadyExists,
                "plugin '" + entry.plugin + "' registered two kernels for op '" + entry.op +
                    "' with T=" + dtype_name(t) + " and priority " +
                    std::to_string(entry.priority) +
                    "; give one of them another priority (the higher is tried first)");
  }
  for (DType t : entry.dtypes) {
    ties_.insert(TieKey{entry.op, entry.plugin, entry.priority, t});
  }
  const int priority = entry.priority;
  by_op_[entry.op].emplace(priority, std::move(entry));
  ++size_;
}

std::vector<const KernelEntry*> KernelRegistry::find(const std::string& op,
                                                     const std::string& plugin, DType t,
                                                     DType output) const {
  std::vector<const KernelEntry*> found;
  auto it = by_op_.find(op);
  if (it == by_op_.end()) return found;
  for (const auto& item : it->second) {
    if (item.second.plugin == plugin && item.second.accepts(t, output)) {
      found.push_back(&item.second);
    }
  }
  return found;
}

std::string KernelRegistry::describe_kernels(
    const std::string& op, const std::function<bool(const std::string& plugin)>& listed) const {
  std::string text;
  auto it = by_op_.find(op);
  if (it != by_op_.end()) {
    for (const auto& item : it->second) {
      const KernelEntry& entry = item.second;
      if (!listed(entry.plugin)) continue;
      if (!text.empty()) text += "\n";
      text += "  device='" + entry.device_type + "'; T in " + dtype_list(entry.dtypes);
      if (!entry.output_dtypes.empty()) text += "; output in " + dtype_list(entry.output_dtypes);
      text += "; priority " + std::to_string(entry.priority) + " (plugin '" + entry.plugin + "')";
    }
  }
  return text.empty() ? "  <no registered kernels>" : text;
}

std::vector<const KernelEntry*> KernelRegistry::all() const {
  std::vector<const KernelEntry*> entries;
  entries.reserve(size_);
  for (const auto& ops : by_op_) {
    for (const auto& item : ops.second) entries.push_back(&item.second);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const KernelEntry* a, const KernelEntry* b) {
                     return std::tie(a->op, a->device_type, a->plugin) <
                            std::tie(b->op, b->device_type, b->plugin);
                   });
  return entries;
}

}  // namespace hxrt::detail
