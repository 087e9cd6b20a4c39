// One CPU kernel invocation: the shared accessor (hxplugin::KernelCall) plus the CPU kernels'
// operand check.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>

#include <cstdint>

#include "plugin_state.hpp"

namespace hxcpu {

using hxplugin::element_count;
using hxplugin::input_data;
using hxplugin::output_data;

class KernelCall : public hxplugin::KernelCall {
 public:
  // `args->user_data` is the CpuPlugin that registered the kernel. Inline: every kernel call
  // makes one.
  explicit KernelCall(const hx_kernel_args* args)
      : hxplugin::KernelCall(*args, *static_cast<const CpuPlugin*>(args->user_data)->services),
        plugin_(*static_cast<const CpuPlugin*>(args->user_data)) {}

  const CpuPlugin& plugin() const { return plugin_; }

  // INVALID_ARGUMENT unless every input and output has `count` elements and `dtype` (the
  // core's shape inference guarantees both; checking costs nothing and keeps a core bug from
  // becoming an out-of-bounds access); also for a count < 0, element_count's answer for a
  // view the core never passes.
  hx_status* expect_elements(const char* op, int64_t count, int32_t dtype) const;

 private:
  const CpuPlugin& plugin_;
};

}  // namespace hxcpu
