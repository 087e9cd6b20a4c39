#include "bindings.hpp"

NB_MODULE(_hxrt, module) {
  module.doc() = "hxrt's C++ API as the Python package hxrt uses it (import hxrt, not this).";
  hxpy::bind_errors(module);
  hxpy::bind_tensor(module);
  hxpy::bind_runtime(module);
  hxpy::bind_graphs(module);
  hxpy::bind_dlpack(module);
  hxpy::bind_op_functions(module);
}
