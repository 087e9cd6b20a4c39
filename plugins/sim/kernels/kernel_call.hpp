// One sim kernel invocation: the shared accessor (hxplugin::KernelCall) plus the checks a
// device would make on its operands.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>

#include <cstddef>
#include <cstdint>

namespace hxsim {

struct SimPlugin;
struct SimDevice;

using hxplugin::element_count;
using hxplugin::input_data;
using hxplugin::output_data;

class KernelCall : public hxplugin::KernelCall {
 public:
  // `args->user_data` is the SimPlugin that registered the kernel.
  explicit KernelCall(const hx_kernel_args* args);

  // What a device would refuse: a device handle that is not this plugin's, a stream that is
  // not the device's, an operand that is not float32, lives on another device, or whose data
  // is not inside the device's memory. INVALID_ARGUMENT naming `op` and the operand.
  hx_status* check_operands(const char* op) const;
  // INVALID_ARGUMENT unless every input and output has `count` elements.
  hx_status* expect_elements(const char* op, int64_t count) const;

 private:
  hx_status* check_view(const char* op, const SimDevice& device, const char* role, size_t index,
                        const hx_tensor_view& view) const;

  const SimPlugin& plugin_;
};

}  // namespace hxsim
