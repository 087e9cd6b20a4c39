// What the layers above the eager path ask of it: a graph's compile (the placement function, the
// innermost scope, where a feed's tensor goes) and its runs (copies of feeds and fetches), and
// the dynamic placer's calibration (ops run to be timed). The runtime implements it
// (runtime/runtime_impl.hpp); an interface, so that those layers depend on what the eager path
// promises and not on the runtime's state.
#pragma once

#include <cstddef>
#include <string>

#include "hxrt/attrs.hpp"
#include "hxrt/runtime_options.hpp"
#include "hxrt/tensor.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

class Device;

class EagerOps {
 public:
  // Creates the logical devices and the placer once; later calls return at once.
  virtual void ensure_initialized() = 0;
  // The schema of `op`, or Error(kNotFound) listing the ops that exist.
  virtual const OpSchema& schema_of(const std::string& op) const = 0;
  // Runs one op as Runtime::execute does: shape inference, placement, input copies, output
  // allocation, the kernel. Writes num_outputs_of(schema, attrs) tensors to `outputs`.
  virtual void run(const OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
                   const Attrs& attrs, const std::string& requested, Tensor* outputs) = 0;
  // A copy of `tensor` on `device` (the same handle when it is there already); not logged.
  virtual Tensor copy_to(const Tensor& tensor, Device& device) = 0;
  // Where a new tensor goes: the device `spec` names, else the innermost scope's, else the
  // configured tensor device, else default_tensor_device().
  virtual Device& data_device(const std::string& spec) = 0;
  // Where TensorFlow puts a tensor made with no device: the first device of the preferred type.
  virtual Device& default_tensor_device() = 0;
  // The device spec of this thread's innermost scope on this runtime; nullptr outside scopes.
  virtual const std::string* innermost_scope() const = 0;
  // The placement function's answer for an op described by `info` ("" when none is set).
  virtual std::string ask_placement_function(const OpPlacementInfo& info) = 0;

 protected:
  ~EagerOps() = default;  // not owned through this interface
};

}  // namespace hxrt::detail
