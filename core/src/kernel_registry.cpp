#include "kernel_registry.hpp"

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

void KernelRegistry::check_no_tie(const KernelEntry& entry) const {
  for (DType t : entry.dtypes) {
    auto tie = ties_.find(TieKey{entry.op, entry.device_type, entry.priority, t});
    if (tie == ties_.end()) continue;
    throw Error(StatusCode::kAlreadyExists,
                "kernel for op '" + entry.op + "' on " + entry.device_type + " with T=" +
                    dtype_name(t) + " and priority " + std::to_string(entry.priority) +
                    " from plugin '" + entry.plugin +
                    "' ties with the kernel already registered by plugin '" + tie->second +
                    "'; give one of them another priority");
  }
}

void KernelRegistry::add(KernelEntry entry) {
  check_no_tie(entry);
  for (DType t : entry.dtypes) {
    ties_.emplace(TieKey{entry.op, entry.device_type, entry.priority, t}, entry.plugin);
  }
  const int priority = entry.priority;
  by_op_[entry.op].emplace(priority, std::move(entry));
  ++size_;
}

const KernelEntry* KernelRegistry::find(const std::string& op, const std::string& device_type,
                                        DType t, DType output) const {
  auto it = by_op_.find(op);
  if (it == by_op_.end()) return nullptr;
  for (const auto& [priority, entry] : it->second) {
    if (entry.device_type == device_type && entry.accepts(t, output)) return &entry;
  }
  return nullptr;
}

bool KernelRegistry::has_kernels_for(const std::string& op,
                                     const std::string& device_type) const {
  auto it = by_op_.find(op);
  if (it == by_op_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const auto& item) {
    return item.second.device_type == device_type;
  });
}

std::string KernelRegistry::describe_kernels(const std::string& op) const {
  auto it = by_op_.find(op);
  if (it == by_op_.end() || it->second.empty()) return "  <no registered kernels>";
  std::string text;
  for (const auto& [priority, entry] : it->second) {
    if (!text.empty()) text += "\n";
    text += "  device='" + entry.device_type + "'; T in " + dtype_list(entry.dtypes);
    if (!entry.output_dtypes.empty()) text += "; output in " + dtype_list(entry.output_dtypes);
    text += "; priority " + std::to_string(entry.priority) + " (plugin '" + entry.plugin + "')";
  }
  return text;
}

std::vector<const KernelEntry*> KernelRegistry::all() const {
  std::vector<const KernelEntry*> entries;
  entries.reserve(size_);
  for (const auto& [op, list] : by_op_) {
    for (const auto& [priority, entry] : list) entries.push_back(&entry);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const KernelEntry* a, const KernelEntry* b) {
                     if (a->op != b->op) return a->op < b->op;
                     return a->device_type < b->device_type;
                   });
  return entries;
}

}  // namespace hxrt::detail
