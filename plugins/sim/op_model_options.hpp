// The option "op_models": figures of the performance model for single ops, at the plugin level
// and in a device's entry of "devices", so that a simulated device can be fast at some ops and
// slow at others and a placer must tell which to give it.
#pragma once

#include <hxrt/plugin_api.h>

#include <map>
#include <string>
#include <nlohmann/json.hpp>

#include "perf_model.hpp"

namespace hxsim {

// `value` ({"Gemm": {"gflops": 50, "launch_latency_us": 2}, "Relu": {"gbps": 4}}), named
// `option` in messages, merged into `ops`: an op's entry replaces the one it had. Each key is
// an op the sim implements; each entry's keys are gflops, gbps and launch_latency_us, numbers
// from 0 (no modelled time) up. INVALID_ARGUMENT naming the option and what was wrong.
hx_status* read_op_models(const hx_core_services& services, const std::string& option,
                          const nlohmann::json& value, std::map<std::string, OpFigures>& ops);

}  // namespace hxsim
