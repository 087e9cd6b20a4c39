// A plugin loaded by path and driven through its function table by a small fake core
// (fake_core.hpp): its statuses, its log lines at warning level or above, the kernels it
// registers and the attributes a kernel reads. For tests and benchmarks that call a plugin
// the way the core would, without the core; it throws std::runtime_error rather than failing
// a test, so that code outside Catch2 (bench/opencl_plugin_host.cpp) can use it too.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fake_core.hpp"

namespace hxrt_test {

// The attributes of a direct kernel call: pass context() to create (or check and compute),
// and the fake core's getters answer from here (an attribute not set is absent; so is every
// attribute of a NULL context).
struct Attributes {
  std::map<std::string, bool> bools;
  std::map<std::string, double> floats;
  std::map<std::string, std::vector<int64_t>> int_lists;
  hx_kernel_context* context() const {
    return reinterpret_cast<hx_kernel_context*>(const_cast<Attributes*>(this));
  }
};

// A kernel as the plugin registered it; `def`'s dtype pointers were borrowed for the call, so
// the dtypes are kept apart (its other pointers are the plugin's, valid while it is loaded).
struct RegisteredKernel {
  std::string op;
  std::vector<int32_t> dtypes;
  std::vector<int32_t> output_dtypes;
  hx_kernel_def def{};
};

class PluginHost {
 public:
  // Loads the plugin at `path` (its own reference) and inits it with `options` as a core of
  // ABI `core_major`.`core_minor` would. When init fails, init_outcome() says why and api()
  // must not be used. Throws when the library cannot be loaded or exports no hx_plugin_init.
  explicit PluginHost(const std::string& path, const std::string& options = "{}",
                      uint32_t core_major = HX_ABI_VERSION_MAJOR,
                      uint32_t core_minor = HX_ABI_VERSION_MINOR);
  // Shuts the plugin down (after a successful init) and drops the library reference.
  ~PluginHost();
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  const Outcome& init_outcome() const { return init_outcome_; }
  const hx_plugin_api& api() const { return *api_; }
  // device_count's answer: the count, and its status (UNAVAILABLE with the reason, or OK).
  int32_t device_count(Outcome* outcome) const;
  // Throws when device_get fails.
  hx_device* device(int32_t ordinal = 0) const;
  // A symbol the library exports; throws when there is none.
  void* symbol(const char* name) const;

  const std::vector<RegisteredKernel>& kernels() const { return kernels_; }
  // The first kernel registered for `op`; throws when there is none.
  const RegisteredKernel& kernel(const std::string& op) const;
  // Lines the plugin logged at warning level or above.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Takes ownership of `status` and frees it.
  static Outcome outcome(hx_status* status) { return take_outcome(status); }
  // Throws std::runtime_error "<what>: <message>" when `status` is not NULL (and frees it).
  static void check(hx_status* status, const std::string& what);
  // The fake core's services, for testing a plugin's own parts without loading it. Their log
  // and registration functions need a PluginHost as the core handle.
  static const hx_core_services& services();

 private:
  friend struct FakeCore;
  std::string path_;
  void* library_ = nullptr;
  const hx_plugin_api* api_ = nullptr;
  Outcome init_outcome_;
  std::vector<RegisteredKernel> kernels_;
  std::vector<std::string> warnings_;
};

}  // namespace hxrt_test
