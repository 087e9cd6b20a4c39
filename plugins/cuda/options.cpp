#include "options.hpp"

#include <hxplugin/options_object.hpp>
#include <hxplugin/status.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kernel_env.hpp"

namespace hxcuda {
namespace {

using nlohmann::json;

hx_status* read_fault_ops(const hx_core_services& services, const json& value,
                          CudaOptions& options) {
  if (!value.is_array()) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "cuda plugin option 'fault_ops': expected a list of op names, "
                                 "got %s",
                                 value.type_name());
  }
  std::vector<std::string> ops;
  for (const json& item : value) {
    if (!item.is_string() || !has_kernel_for(item.get<std::string>())) {
      // Built here rather than by make_status, whose fixed buffer would cut the list short.
      const std::string message = "cuda plugin option 'fault_ops': " + item.dump() +
                                  " is not an op the cuda plugin has kernels for (" +
                                  kernel_op_list() + ")";
      return services.status_create(HX_INVALID_ARGUMENT, message.c_str());
    }
    if (std::find(ops.begin(), ops.end(), item.get<std::string>()) == ops.end()) {
      ops.push_back(item.get<std::string>());
    }
  }
  options.fault_ops = std::move(ops);
  return nullptr;
}

}  // namespace

hx_status* parse_options(const hx_core_services& services, const char* text, size_t length,
                         CudaOptions* out) {
  CudaOptions options;
  json parsed;
  if (hx_status* status =
          hxplugin::parse_options_object(services, "cuda", text, length, &parsed)) {
    return status;
  }
  for (auto item = parsed.begin(); item != parsed.end(); ++item) {
    if (item.key() != "fault_ops") {
      return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                   "cuda plugin options: unknown option '%s' (the only option "
                                   "is fault_ops, a testing aid)",
                                   item.key().c_str());
    }
    if (hx_status* status = read_fault_ops(services, item.value(), options)) return status;
  }
  *out = std::move(options);
  return nullptr;
}

}  // namespace hxcuda
