// The core's own ops in a registry built once, for what needs them without a runtime
// (hxrt::core_ops(), hxrt::reference_cases). A runtime builds its own, to which plugins add
// their custom ops.
#pragma once

#include "ops/op_schema.hpp"

namespace hxrt::detail {

const OpRegistry& builtin_registry();

}  // namespace hxrt::detail
