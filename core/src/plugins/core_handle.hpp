// What the core keeps for one plugin behind the opaque hx_core handle, and the kernel context
// behind hx_kernel_context: the state the core-services functions need.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "hxrt/attrs.hpp"
#include "hxrt/plugin_api.h"
#include "kernel_registry.hpp"
#include "logger.hpp"
#include "ops/op_schema.hpp"

struct hx_core_s {
  // The services are thread-safe by the ABI: a plugin may log and register from threads of
  // its own, while the loader closes registration and renames the plugin. This guards
  // plugin_name, registration_open and the pending registrations.
  std::mutex mutex;
  std::string plugin_name;  // the name from the file until the plugin is accepted
  std::shared_ptr<hxrt::detail::Logger> logger;
  const hxrt::detail::OpRegistry* core_ops = nullptr;  // to check the ops kernels name
  // Registrations are collected during init and take effect only if the plugin is accepted.
  bool registration_open = true;
  hxrt::detail::OpRegistry pending_ops;
  hxrt::detail::KernelRegistry pending_kernels;
};

struct hx_kernel_context_s {
  const hxrt::Attrs* attrs;
};

namespace hxrt::detail {

// The one services table the core hands to every plugin.
const hx_core_services* core_services();

}  // namespace hxrt::detail
