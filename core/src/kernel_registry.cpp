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
  auto found = by_op_.find(entry.op);
  if (found == by_op_.end()) return;
  for (const KernelEntry& other : found->second) {
    if (other.device_type != entry.device_type || other.priority != entry.priority) continue;
    for (DType t : entry.dtypes) {
      if (!contains(other.dtypes, t)) continue;
      throw Error(StatusCode::kAlreadyExists,
                  "kernel for op '" + entry.op + "' on " + entry.device_type + " with T=" +
                      dtype_name(t) + " and priority " + std::to_string(entry.priority) +
                      " from plugin '" + entry.plugin +
                      "' ties with the kernel already registered by plugin '" + other.plugin +
                      "'; give one of them another priority");
    }
  }
}

void KernelRegistry::add(KernelEntry entry) {
  check_no_tie(entry);
  std::vector<KernelEntry>& list = by_op_[entry.op];
  auto position = std::find_if(list.begin(), list.end(), [&](const KernelEntry& other) {
    return other.priority < entry.priority;
  });
  list.insert(position, std::move(entry));
}

const KernelEntry* KernelRegistry::find(const std::string& op, const std::string& device_type,
                                        DType t, DType output) const {
  auto it = by_op_.find(op);
  if (it == by_op_.end()) return nullptr;
  for (const KernelEntry& entry : it->second) {
    if (entry.device_type == device_type && entry.accepts(t, output)) return &entry;
  }
  return nullptr;
}

bool KernelRegistry::has_kernels_for(const std::string& op,
                                     const std::string& device_type) const {
  auto it = by_op_.find(op);
  if (it == by_op_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const KernelEntry& e) { return e.device_type == device_type; });
}

std::string KernelRegistry::describe_kernels(const std::string& op) const {
  auto it = by_op_.find(op);
  if (it == by_op_.end() || it->second.empty()) return "  <no registered kernels>";
  std::string text;
  for (const KernelEntry& entry : it->second) {
    if (!text.empty()) text += "\n";
    text += "  device='" + entry.device_type + "'; T in " + dtype_list(entry.dtypes);
    if (!entry.output_dtypes.empty()) text += "; output in " + dtype_list(entry.output_dtypes);
    text += "; priority " + std::to_string(entry.priority) + " (plugin '" + entry.plugin + "')";
  }
  return text;
}

std::vector<const KernelEntry*> KernelRegistry::all() const {
  std::vector<const KernelEntry*> entries;
  for (const auto& [op, list] : by_op_) {
    for (const KernelEntry& entry : list) entries.push_back(&entry);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const KernelEntry* a, const KernelEntry* b) {
                     if (a->op != b->op) return a->op < b->op;
                     return a->device_type < b->device_type;
                   });
  return entries;
}

}  // namespace hxrt::detail
