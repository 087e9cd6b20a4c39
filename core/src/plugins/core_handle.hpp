// What the core keeps for one plugin behind the opaque hx_core handle, and the kernel context
// behind hx_kernel_context: the state the core-services functions need.
//
// A plugin may call the services from threads of its own, and one that breaches the ABI keeps
// calling after its shutdown returned. So the loader's handles are never freed: when the
// plugin goes, its handle is retired instead (make_core_handle), keeping only the mutex, the
// plugin's name and the retired mark, so that a late call finds the handle retired and is
// refused or dropped rather than touching freed memory. That costs about 100 bytes per plugin
// load for the life of the process.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "hxrt/attrs.hpp"
#include "hxrt/plugin_api.h"
#include "plugins/kernel_registry.hpp"
#include "base/logger.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// What a plugin registers during init; takes effect only if the plugin is accepted.
struct PendingRegistrations {
  OpRegistry ops;
  KernelRegistry kernels;
};

}  // namespace hxrt::detail

struct hx_core_s {
  // The services are thread-safe by the ABI: a plugin may log and register from threads of
  // its own, while the loader closes registration and renames the plugin. This guards every
  // field but core_ops, which is set before init and never changes.
  std::mutex mutex;
  std::string plugin_name;  // the name from the file until the plugin is accepted
  std::shared_ptr<hxrt::detail::Logger> logger;  // NULL once retired
  const hxrt::detail::OpRegistry* core_ops = nullptr;  // to check the ops kernels name
  bool registration_open = true;
  // The plugin's options object, which the option getters read while registration is open
  // (plugins/plugin_options.hpp); emptied when it closes.
  nlohmann::json options = nlohmann::json::object();
  std::string options_problem;  // why the options text is no object; "" when it is one
  bool retired = false;  // the plugin has been shut down or refused: every call is late
  std::unique_ptr<hxrt::detail::PendingRegistrations> pending =
      std::make_unique<hxrt::detail::PendingRegistrations>();
  hx_core_s* next_retired = nullptr;  // the list that keeps retired handles reachable
};

struct hx_kernel_context_s {
  const hxrt::Attrs* attrs;
};

namespace hxrt::detail {

// Retires a handle instead of freeing it: see the top of this file.
struct RetireCoreHandle {
  void operator()(hx_core_s* core) const;
};
using CoreHandle = std::unique_ptr<hx_core_s, RetireCoreHandle>;

// A new handle for one plugin load, which goes to the retired list when released.
CoreHandle make_core_handle();

// The one services table the core hands to every plugin.
const hx_core_services* core_services();

}  // namespace hxrt::detail
