#include "op_model_options.hpp"

#include <hxplugin/status.hpp>

#include "kernels/kernel_registry.hpp"

namespace hxsim {
namespace {

hx_status* bad_op_model(const hx_core_services& services, const std::string& option,
               const std::string& what) {
  return hxplugin::make_status(services, HX_INVALID_ARGUMENT, "sim plugin option '%s': %s",
                               option.c_str(), what.c_str());
}

hx_status* read_figures(const hx_core_services& services, const std::string& option,
                        const nlohmann::json& entry, OpFigures* out) {
  if (!entry.is_object()) {
    return bad_op_model(services, option,
               "expected an object of figures (gflops, gbps, launch_latency_us), got " +
                   entry.dump().substr(0, 60));
  }
  OpFigures figures;
  for (const auto& [key, value] : entry.items()) {
    double* field = key == "gflops"              ? &figures.gflops
                    : key == "gbps"              ? &figures.gbps
                    : key == "launch_latency_us" ? &figures.launch_latency_us
                                                 : nullptr;
    if (field == nullptr) {
      return bad_op_model(services, option + "." + key,
                 "unknown figure; an op's figures are gflops (products), gbps (the other "
                 "kernels) and launch_latency_us");
    }
    const double limit = key == "launch_latency_us" ? kMaxMicroseconds : kMaxRate;
    if (!value.is_number() || !(value.get<double>() >= 0) || value.get<double>() > limit) {
      return bad_op_model(services, option + "." + key,
                 "expected a number from 0 (none) to " + std::to_string(limit) + ", got " +
                     value.dump().substr(0, 60));
    }
    *field = value.get<double>();
  }
  *out = figures;
  return nullptr;
}

}  // namespace

hx_status* read_op_models(const hx_core_services& services, const std::string& option,
                          const nlohmann::json& value, std::map<std::string, OpFigures>& ops) {
  if (!value.is_object()) {
    return bad_op_model(services, option,
               "expected an object of ops, each with its figures ({\"Gemm\": {\"gflops\": "
               "50}}), got " + value.dump().substr(0, 60));
  }
  for (const auto& [op, entry] : value.items()) {
    if (!implements_op(op)) {
      return bad_op_model(services, option + "." + op,
                 "the sim has no kernel for '" + op + "'; it has " + implemented_op_list());
    }
    OpFigures figures;
    if (hx_status* status = read_figures(services, option + "." + op, entry, &figures)) {
      return status;
    }
    ops[op] = figures;
  }
  return nullptr;
}

}  // namespace hxsim
