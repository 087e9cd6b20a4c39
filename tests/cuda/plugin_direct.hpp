// The CUDA plugin driven through its function table by a small fake core, for what the public
// API never does on purpose (handles that were never created, foreign devices, odd
// alignments) and for copies, streams and events called one by one.
#pragma once

#include <hxrt/plugin_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fake_core.hpp"

namespace cuda_direct {

using hxrt_test::Outcome;

// A kernel as the plugin registered it; `def`'s dtype pointers were borrowed for the call, so
// the dtypes are kept apart.
struct RegisteredKernel {
  std::string op;
  std::vector<int32_t> dtypes;
  hx_kernel_def def{};
};

// The attributes of a direct kernel call: pass context() to create (or check and compute),
// and the fake core's getters answer from here (an attribute not set is absent).
struct Attributes {
  std::map<std::string, bool> bools;
  std::map<std::string, double> floats;
  std::map<std::string, std::vector<int64_t>> int_lists;
  hx_kernel_context* context() const {
    return reinterpret_cast<hx_kernel_context*>(const_cast<Attributes*>(this));
  }
};

class DirectPlugin {
 public:
  // Loads libhx_cuda.so (its own reference) and inits it with `options` as a core of ABI
  // major `core_major` would. When init fails, init_outcome() says why and api() must not be
  // used.
  explicit DirectPlugin(const std::string& options = "{}",
                        uint32_t core_major = HX_ABI_VERSION_MAJOR);
  // Shuts the plugin down (after a successful init) and drops the library reference.
  ~DirectPlugin();
  DirectPlugin(const DirectPlugin&) = delete;
  DirectPlugin& operator=(const DirectPlugin&) = delete;

  const Outcome& init_outcome() const { return init_outcome_; }
  const hx_plugin_api& api() const { return *api_; }
  // device_count's answer: the count, and its status (UNAVAILABLE with the reason, or OK).
  int32_t device_count(Outcome* outcome) const;
  hx_device* device(int32_t ordinal) const;
  // Takes ownership of `status` and frees it.
  static Outcome outcome(hx_status* status);

  const std::vector<RegisteredKernel>& kernels() const { return kernels_; }
  // The one kernel registered for `op`; fails the test when there is none.
  const RegisteredKernel& kernel(const std::string& op) const;
  // Lines the plugin logged at warning level or above.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  friend struct FakeCore;
  void* library_ = nullptr;
  const hx_plugin_api* api_ = nullptr;
  Outcome init_outcome_;
  std::vector<RegisteredKernel> kernels_;
  std::vector<std::string> warnings_;
};

// Requires `outcome` to be a success, printing its message when it is not.
void require_ok(const Outcome& outcome);

// The fake core's services, for testing the plugin's own parts without loading it. Their log
// and registration functions need a DirectPlugin as the core handle.
const hx_core_services& fake_services();

}  // namespace cuda_direct

// Makes the calling test case return early, with a warning CTest reports as a skip, when the
// plugin has no device.
#define CUDA_DIRECT_REQUIRE_GPU(plugin)                                  \
  do {                                                                   \
    ::cuda_direct::Outcome count_outcome;                                \
    if ((plugin).device_count(&count_outcome) == 0) {                    \
      WARN("skipped: no CUDA device (" << count_outcome.message << ")"); \
      return;                                                            \
    }                                                                    \
  } while (false)
