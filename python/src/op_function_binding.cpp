// OpFunction: what hxrt.matmul and every other op function is. Its common call, tensors in and
// nothing by keyword, runs the op on the default runtime from here; any other call (NumPy
// arrays or Python values in, attributes, device=, a traced function's values, an op of
// several outputs) goes to the Python function hxrt._ops made, which converts and dispatches.
// The common call then costs about what the operators do, half the Python function's.
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/string.h>

#include "bindings.hpp"

namespace hxpy {
namespace {

// The Python function of the general call is the instance attribute `python_function`, in
// the instance's __dict__, where the garbage collector sees the cycle it closes (the function's
// module holds the instance).
struct OpFunction {
  hxrt::Op op;  // of the default runtime
  bool several_outputs = false;
};

nb::object call(nb::handle self, nb::args args, nb::kwargs keywords) {
  const OpFunction& function = nb::cast<const OpFunction&>(self);
  hxrt::Runtime* runtime = default_runtime();
  if (keywords.size() == 0 && !function.several_outputs && runtime != nullptr) {
    std::vector<hxrt::Tensor> inputs;
    inputs.reserve(args.size());
    bool all_tensors = true;
    for (nb::handle arg : args) {
      if (!nb::isinstance<hxrt::Tensor>(arg)) {
        all_tensors = false;
        break;
      }
      inputs.push_back(nb::cast<const hxrt::Tensor&>(arg));
    }
    if (all_tensors) {
      hxrt::Tensor output;
      {
        const nb::gil_scoped_release unlocked;
        output = runtime->execute(function.op, inputs);
      }
      return nb::cast(std::move(output));
    }
  }
  return self.attr("python_function")(*args, **keywords);
}

}  // namespace

void bind_op_functions(nb::module_& module) {
  nb::class_<OpFunction>(module, "OpFunction", nb::dynamic_attr(),
                         "An op of the runtime as a function (hxrt.matmul, hxrt.add, ...).")
      .def(nb::init<hxrt::Op, bool>(), nb::arg("op"), nb::arg("several_outputs"))
      .def("__call__", &call,
           nb::sig("def __call__(self, *inputs: object, **attrs: object) -> object"),
           "Runs the op: its inputs in order, its attributes and device= by keyword.");
}

}  // namespace hxpy
