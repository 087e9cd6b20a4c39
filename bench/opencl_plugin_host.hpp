// The OpenCL plugin loaded by path and driven through its function table, with the few core
// services a kernel call needs (statuses, kernel registration; attributes all absent).
#pragma once

#include <hxrt/plugin_api.h>

#include <string>

namespace hxrt_bench {

class OpenClPluginHost {
 public:
  // Loads and inits libhx_opencl.so; throws std::runtime_error saying why it cannot.
  OpenClPluginHost();
  ~OpenClPluginHost();
  OpenClPluginHost(const OpenClPluginHost&) = delete;
  OpenClPluginHost& operator=(const OpenClPluginHost&) = delete;

  const hx_plugin_api& api() const { return *api_; }
  hx_device* device() const { return device_; }
  const hx_kernel_def& matmul() const { return matmul_; }
  // Throws std::runtime_error with the status's message when `status` is not NULL (and frees
  // it).
  static void check(hx_status* status, const char* what);

 private:
  friend struct BenchCore;
  void* library_ = nullptr;
  const hx_plugin_api* api_ = nullptr;
  hx_device* device_ = nullptr;
  hx_kernel_def matmul_{};
};

}  // namespace hxrt_bench
