// Every kernel of every loaded plugin, looked up by (op, plugin, T, output dtype). A kernel runs
// only on the devices of the plugin that registered it (ABI 2.0), so two plugins of one device
// type never compete for a kernel slot.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/plugin_api.h"

namespace hxrt::detail {

struct KernelEntry {
  std::string op;
  std::string plugin;       // name of the plugin that registered it
  std::string device_type;  // that plugin's device type, for listings
  std::vector<DType> dtypes;         // accepted values of the type parameter T
  std::vector<DType> output_dtypes;  // empty: any output dtype
  int priority = 0;
  hx_kernel_fn compute = nullptr;
  hx_kernel_create_fn create = nullptr;  // NULL: no instances
  hx_kernel_check_fn check = nullptr;    // NULL: accepts every call of its dtypes
  hx_kernel_destroy_fn destroy = nullptr;
  // NULL: keeps nothing under the ids of graph constants (hx_kernel_args.input_constants).
  hx_kernel_forget_constants_fn forget_constants = nullptr;
  void* user_data = nullptr;
  // A plugin of ABI 2.0 to 2.2 has its check asked before every call; from 2.3 a check's
  // answer holds for every call of the same kind (plugin_api.h, hx_kernel_check_fn).
  bool check_each_call = false;

  bool accepts(DType t, DType output) const;
  // Whether it may decline a call (create or check): its placements are not final until asked.
  bool may_decline() const { return create != nullptr || check != nullptr; }
};

class KernelRegistry {
 public:
  // Throws Error(kAlreadyExists) when the same plugin registered a kernel for the same op, one
  // of the same dtypes and the same priority; the message says to change a priority.
  void add(KernelEntry entry);

  // The plugin's kernels for the call, highest priority first (the order they are tried in).
  std::vector<const KernelEntry*> find(const std::string& op, const std::string& plugin, DType t,
                                       DType output) const;

  // TensorFlow's listing: "  device='CPU'; T in [float32, float64]", one line per kernel of a
  // plugin `listed` accepts.
  std::string describe_kernels(const std::string& op,
                               const std::function<bool(const std::string& plugin)>& listed) const;
  // All kernels, ordered by op, device type, plugin, priority (highest first).
  std::vector<const KernelEntry*> all() const;
  size_t size() const { return size_; }

 private:
  // Node-based, so that adding is O(log n) however many kernels an op has (a plugin may
  // register many) and the entries never move. Equal priorities keep registration order.
  using ByPriority = std::multimap<int, KernelEntry, std::greater<int>>;
  // (op, plugin, priority, T) of every registered kernel: a tie is found in O(log n).
  using TieKey = std::tuple<std::string, std::string, int, DType>;

  std::map<std::string, ByPriority> by_op_;
  std::set<TieKey> ties_;
  size_t size_ = 0;
};

}  // namespace hxrt::detail
