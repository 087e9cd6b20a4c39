#include "kernels/kernel_call.hpp"

#include <hxrt/plugin_vocabulary.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "memory.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"
#include "submit.hpp"
#include "work_failure.hpp"

namespace hxsim {
namespace {

// Bytes from element [0, ..., 0] to the end of the last element, following the strides, in
// *bytes; false when that overflows (the core never passes such a view).
bool strided_span(const hx_tensor_view& view, size_t element_size, uint64_t* bytes) {
  uint64_t last = 0;
  for (int32_t axis = 0; axis < view.rank; ++axis) {
    uint64_t reach = 0;
    if (view.strides[axis] < 0 ||
        __builtin_mul_overflow(static_cast<uint64_t>(view.shape[axis] - 1),
                               static_cast<uint64_t>(view.strides[axis]), &reach) ||
        __builtin_add_overflow(last, reach, &last)) {
      return false;
    }
  }
  return !__builtin_add_overflow(last, uint64_t{1}, &last) &&
         !__builtin_mul_overflow(last, static_cast<uint64_t>(element_size), bytes);
}

// What a kernel of an op in fault_ops reports when its work runs: a GPU kernel that faults
// after its launch returned (an illegal address, say) is reported the same way, late.
WorkFailure simulated_fault(const char* op, const SimDevice& device) {
  return WorkFailure{HX_INTERNAL, std::string(op) + " on " + device.name +
                                      " failed while it ran: simulated fault (option fault_ops)"};
}

}  // namespace

KernelCall::KernelCall(const hx_kernel_args* args)
    : hxplugin::KernelCall(*args, *static_cast<const SimPlugin*>(args->user_data)->services),
      plugin_(*static_cast<const SimPlugin*>(args->user_data)) {}

hx_status* KernelCall::check_operands(const char* op, Inputs inputs) {
  const SimDevice* device = plugin_.find_device(args().device);
  if (device == nullptr) {
    return error(HX_INVALID_ARGUMENT, "%s: device handle %p is not a device of the sim plugin", op,
                 static_cast<const void*>(args().device));
  }
  if (hx_status* status = check_stream(*device, args().stream)) return status;
  device_ = device;
  op_ = op;
  inputs_.assign(num_inputs(), nullptr);
  outputs_.assign(num_outputs(), nullptr);
  for (size_t i = 0; i < num_inputs(); ++i) {
    float* data = nullptr;
    if (hx_status* status = check_view(op, *device, "input", i, input(i),
                                       inputs == Inputs::kBroadcast, &data)) {
      return status;
    }
    inputs_[i] = data;
  }
  for (size_t i = 0; i < num_outputs(); ++i) {
    if (hx_status* status = check_view(op, *device, "output", i, output(i), false, &outputs_[i])) {
      return status;
    }
  }
  return nullptr;
}

hx_status* KernelCall::check_view(const char* op, const SimDevice& device, const char* role,
                                  size_t index, const hx_tensor_view& view, bool may_broadcast,
                                  float** out) const {
  if (view.dtype != HX_DTYPE_F32) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu is %s; the sim kernels take float32", op, role,
                 index, hx_dtype_name(view.dtype));
  }
  if (view.device != args().device) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu lives on device %p, not on %s", op, role, index,
                 static_cast<const void*>(view.device), device.label.c_str());
  }
  const int64_t count = element_count(view);
  if (count < 0) {
    return error(HX_INVALID_ARGUMENT,
                 "%s: %s %zu has a negative extent, or more elements than fit in 64 bits", op,
                 role, index);
  }
  if (count == 0) return nullptr;
  if (!may_broadcast && !hxplugin::is_dense(view)) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu is not dense row-major", op, role, index);
  }
  if (view.byte_offset % device.plugin.options.alignment != 0) {
    return error(HX_INVALID_ARGUMENT,
                 "%s: %s %zu starts at byte_offset %llu, not a multiple of the %llu-byte "
                 "alignment %s declares",
                 op, role, index, static_cast<unsigned long long>(view.byte_offset),
                 static_cast<unsigned long long>(device.plugin.options.alignment),
                 device.label.c_str());
  }
  uint64_t bytes = 0;
  if (!strided_span(view, sizeof(float), &bytes)) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu's strides reach past 2^64 bytes", op, role,
                 index);
  }
  const uint64_t max_binding = device.plugin.options.max_binding;
  if (max_binding != 0 && bytes > max_binding) {
    return error(HX_INVALID_ARGUMENT,
                 "%s: %s %zu spans %llu bytes, more than the %llu bytes one kernel of %s may "
                 "bind (max_binding)",
                 op, role, index, static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(max_binding), device.label.c_str());
  }
  char what[160];
  std::snprintf(what, sizeof what, "%s: %s %zu's elements", op, role, index);
  char* data = nullptr;
  if (hx_status* status =
          resolve_range(device, view.buffer, view.byte_offset, bytes, what, &data)) {
    return status;
  }
  *out = reinterpret_cast<float*>(data);
  return nullptr;
}

hx_status* KernelCall::launch(std::chrono::nanoseconds duration,
                              std::function<void()> body) const {
  auto pins = std::make_unique<BufferPins>();
  const auto pin_all = [&](size_t count, const hx_tensor_view* views, const char* role) {
    for (size_t i = 0; i < count; ++i) {
      if (views[i].buffer == nullptr) continue;  // no elements
      if (hx_status* status = pin_buffer(*device_, views[i].buffer, role, *pins)) return status;
    }
    return static_cast<hx_status*>(nullptr);
  };
  if (hx_status* status = pin_all(num_inputs(), args().inputs, "kernel input")) return status;
  if (hx_status* status = pin_all(num_outputs(), args().outputs, "kernel output")) return status;
  WorkItem item{nullptr, duration};
  if (plugin_.faults(op_)) {
    item.body = [failure = simulated_fault(op_, *device_)]() -> WorkResult { return failure; };
  } else {
    item.body = [body = std::move(body)]() -> WorkResult {
      body();
      return std::nullopt;
    };
  }
  return submit(*device_, args().stream, WorkKind::kKernel, std::move(item),
                std::move(pins));
}

std::chrono::nanoseconds KernelCall::modelled_time(double flops) const {
  uint64_t elements = 0;
  for (size_t i = 0; i < num_inputs(); ++i) elements += element_count(input(i));
  for (size_t i = 0; i < num_outputs(); ++i) elements += element_count(output(i));
  return model().kernel(op_, flops, elements * sizeof(float));
}

const PerfModel& KernelCall::model() const { return device_->model; }

hx_status* KernelCall::expect_elements(const char* op, int64_t count) const {
  for (size_t i = 0; i < num_inputs(); ++i) {
    if (element_count(input(i)) != count) {
      return error(HX_INVALID_ARGUMENT, "%s: input %zu has %lld elements, expected %lld", op, i,
                   static_cast<long long>(element_count(input(i))), static_cast<long long>(count));
    }
  }
  for (size_t i = 0; i < num_outputs(); ++i) {
    if (element_count(output(i)) != count) {
      return error(HX_INVALID_ARGUMENT, "%s: output %zu has %lld elements, expected %lld", op, i,
                   static_cast<long long>(element_count(output(i))), static_cast<long long>(count));
    }
  }
  return nullptr;
}

}  // namespace hxsim
