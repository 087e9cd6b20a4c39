// The sim plugin driven through its function table by a small fake core, for what the public
// API never does on purpose: handles that were never created, pointers that are not device
// memory, kernels given operands on the host.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/sim_counters.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fake_core.hpp"

namespace sim_direct {

using hxrt_test::Outcome;

struct RegisteredKernel {
  std::string op;
  std::string device_type;
  std::vector<hx_dtype> dtypes;
  int32_t priority = 0;
  hx_kernel_fn compute = nullptr;
  void* user_data = nullptr;
};

class DirectPlugin {
 public:
  // Loads libhx_sim.so (its own reference) and inits it with `options` as a core of ABI major
  // `core_major` would. When init fails, init_outcome() says why and api() must not be used.
  explicit DirectPlugin(const std::string& options, uint32_t core_major = HX_ABI_VERSION_MAJOR);
  // Shuts the plugin down (after a successful init) and drops the library reference.
  ~DirectPlugin();
  DirectPlugin(const DirectPlugin&) = delete;
  DirectPlugin& operator=(const DirectPlugin&) = delete;

  const Outcome& init_outcome() const { return init_outcome_; }
  const hx_plugin_api& api() const { return *api_; }
  hx_device* device(int32_t ordinal) const;
  // Takes ownership of `status` and frees it.
  static Outcome outcome(hx_status* status);

  const std::vector<RegisteredKernel>& kernels() const { return kernels_; }
  const RegisteredKernel& kernel(const std::string& op) const;
  // Lines the plugin logged at warning level.
  const std::vector<std::string>& warnings() const { return warnings_; }

  hx_sim_transfer_counts_t counts(int32_t ordinal) const;
  void reset_counts() const;

 private:
  friend struct FakeCore;
  void* library_ = nullptr;
  const hx_plugin_api* api_ = nullptr;
  Outcome init_outcome_;
  std::vector<RegisteredKernel> kernels_;
  std::vector<std::string> warnings_;
};

}  // namespace sim_direct
