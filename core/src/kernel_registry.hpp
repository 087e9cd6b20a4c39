// Every kernel of every loaded plugin, looked up by (op, device type, T, output dtype).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/plugin_api.h"

namespace hxrt::detail {

struct KernelEntry {
  std::string op;
  std::string device_type;
  std::vector<DType> dtypes;         // accepted values of the type parameter T
  std::vector<DType> output_dtypes;  // empty: any output dtype
  int priority = 0;
  hx_kernel_fn compute = nullptr;
  void* user_data = nullptr;
  std::string plugin;  // name of the plugin that registered it

  bool accepts(DType t, DType output) const;
};

class KernelRegistry {
 public:
  // Throws Error(kAlreadyExists) when a kernel for the same op, device type and one of the same
  // dtypes has the same priority; the message names both plugins.
  void add(KernelEntry entry);
  // Throws what add() would throw for `entry`, without adding it.
  void check_no_tie(const KernelEntry& entry) const;

  // The highest-priority kernel for the call, or nullptr.
  const KernelEntry* find(const std::string& op, const std::string& device_type, DType t,
                          DType output) const;
  // Whether any kernel of the op runs on the device type (whatever its dtypes).
  bool has_kernels_for(const std::string& op, const std::string& device_type) const;

  // TensorFlow's listing: "  device='CPU'; T in [float32, float64]", one line per kernel.
  std::string describe_kernels(const std::string& op) const;
  // All kernels, ordered by op, device type, priority (highest first).
  std::vector<const KernelEntry*> all() const;
  size_t size() const { return size_; }

 private:
  // Node-based, so that adding is O(log n) however many kernels an op has (a plugin may
  // register many) and the entries never move. Equal priorities keep registration order.
  using ByPriority = std::multimap<int, KernelEntry, std::greater<int>>;
  // (op, device type, priority, T) of every registered kernel, and the plugin that registered
  // it: a tie is found in O(log n).
  using TieKey = std::tuple<std::string, std::string, int, DType>;

  std::map<std::string, ByPriority> by_op_;
  std::map<TieKey, std::string> ties_;
  size_t size_ = 0;
};

}  // namespace hxrt::detail
