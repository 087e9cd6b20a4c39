// One sim kernel invocation: the shared accessor (hxplugin::KernelCall) plus the checks a
// device would make on its operands, and the operands' storage. The sim's buffer handles are
// ids, not addresses, so its kernels never use hxplugin::input_data: check_operands resolves
// each (buffer, byte_offset) through the device's memory and keeps what it found.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace hxsim {

struct SimPlugin;
struct SimDevice;
class PerfModel;

using hxplugin::element_count;

class KernelCall : public hxplugin::KernelCall {
 public:
  // `args->user_data` is the SimPlugin that registered the kernel.
  explicit KernelCall(const hx_kernel_args* args);

  // Which inputs may arrive with stride 0 where they repeat (hx_tensor_view.strides).
  enum class Inputs { kDense, kBroadcast };
  // What a device would refuse: a device handle that is not this plugin's, a stream that is
  // not the device's, an operand that is not float32, lives on another device, is not dense
  // (but for broadcast inputs), starts at a byte_offset that is not a multiple of the device's
  // alignment, spans more bytes than the option max_binding lets one kernel bind, or whose
  // elements do not lie inside a live buffer of the device.
  // INVALID_ARGUMENT naming `op` and the operand. On success in() and out() are valid.
  hx_status* check_operands(const char* op, Inputs inputs = Inputs::kDense);
  // INVALID_ARGUMENT unless every input and output has `count` elements.
  hx_status* expect_elements(const char* op, int64_t count) const;

  // Runs `body` on the call's stream (at once when it is NULL), taking `duration`, with every
  // operand's buffer pinned until it has run. `body` runs after compute returned, so it must
  // capture by value what it uses: the args and their views are borrowed for the call only.
  // After check_operands succeeded. When the option fault_ops lists the op, the work fails
  // instead of running `body` (simulated_fault).
  hx_status* launch(std::chrono::nanoseconds duration, std::function<void()> body) const;
  // The time the device's model gives this call of the op check_operands was given: by its
  // `flops` where there are any (a product's), else by every operand's bytes. After
  // check_operands succeeded, as model() is.
  std::chrono::nanoseconds modelled_time(double flops = 0) const;
  // The model of the call's device.
  const PerfModel& model() const;

  // Element [0, ..., 0] of an operand (nullptr for one without elements).
  const float* in(size_t index) const { return inputs_[index]; }
  float* out(size_t index) const { return outputs_[index]; }

 private:
  hx_status* check_view(const char* op, const SimDevice& device, const char* role, size_t index,
                        const hx_tensor_view& view, bool may_broadcast, float** out) const;

  const SimPlugin& plugin_;
  const SimDevice* device_ = nullptr;  // set by check_operands
  const char* op_ = nullptr;           // set by check_operands
  std::vector<const float*> inputs_;
  std::vector<float*> outputs_;
};

}  // namespace hxsim
