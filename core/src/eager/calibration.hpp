// What the cost model assumes before a graph has run: each device's speed and each link's,
// measured once per runtime with a few small ops and copies (a 256x256 MatMul, an Add of 1 MiB,
// a one-element Relu; copies of 16 bytes and 1 MiB), timed on the host to completion. An op a
// device has no kernel for leaves that figure to the model's default.
#pragma once

#include <vector>

#include "cost/cost_model.hpp"
#include "eager/eager_ops.hpp"

namespace hxrt::detail {

// Calibrates the devices in `devices` and the links between them that `model` has no figures
// for yet. Runs on the calling thread, out of the placement log.
void calibrate(EagerOps& eager, CostModel& model, const std::vector<Device*>& devices);

}  // namespace hxrt::detail
