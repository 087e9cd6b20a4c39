// The ops the core defines (core/src/ops): a plugin may register kernels for these without
// register_op, must not register an op under one of these names, and the kernels section has
// a reference for each.
#pragma once

#include <string>
#include <vector>

namespace hxrt_conformance {

inline const std::vector<std::string>& core_ops() {
  static const std::vector<std::string> ops = {"MatMul", "Add",  "Sub",  "Mul",
                                               "Div",    "AddN", "Relu", "Sum",
                                               "Cast",   "Fill", "Identity"};
  return ops;
}

}  // namespace hxrt_conformance
