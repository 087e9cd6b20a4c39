#include "sections/kernel_runner.hpp"

#include <array>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_transfers.hpp"

namespace hxrt_conformance {
namespace {

size_t byte_size(const TensorSpec& spec) {
  return static_cast<size_t>(element_count(spec.shape)) * dtype_size(spec.dtype);
}

// A view's shape and strides, kept alive for the call (the views borrow them). Fixed arrays,
// as the core uses, so that even a rank-0 view has non-NULL pointers.
struct ViewStorage {
  std::array<int64_t, HX_MAX_RANK> shape{};
  std::array<int64_t, HX_MAX_RANK> strides{};
};

hx_tensor_view make_view(const TensorSpec& spec, void* data, hx_device* device,
                         ViewStorage& storage) {
  const Shape strides = dense_strides(spec.shape);
  for (size_t axis = 0; axis < spec.shape.size(); ++axis) {
    storage.shape[axis] = spec.shape[axis];
    storage.strides[axis] = strides[axis];
  }
  return hx_tensor_view{HX_TENSOR_VIEW_STRUCT_SIZE,
                        nullptr,
                        data,
                        spec.dtype,
                        static_cast<int32_t>(spec.shape.size()),
                        storage.shape.data(),
                        storage.strides.data(),
                        device};
}

}  // namespace

KernelRun KernelRunner::run(const RegisteredKernel& kernel, const std::vector<TensorBytes>& inputs,
                            const std::vector<TensorSpec>& outputs,
                            const KernelAttrs& attrs) const {
  KernelRun run;
  std::vector<DeviceAllocation> memory;
  std::vector<ViewStorage> storage(inputs.size() + outputs.size());
  std::vector<hx_tensor_view> input_views;
  std::vector<hx_tensor_view> output_views;
  // A new allocation holding `bytes`, copied without a stream, so that it is in place before
  // the kernel is enqueued; false, with run.setup_failure saying why, when a call fails.
  const auto place = [&](const std::vector<uint8_t>& bytes) {
    memory.emplace_back(device_, bytes.size());
    run.setup_failure = memory.back().failure();
    if (run.setup_failure.empty() && !bytes.empty()) {
      const Outcome copied =
          copy_to_device(device_, nullptr, memory.back().ptr(), bytes.data(), bytes.size());
      if (!copied.ok()) {
        run.setup_failure =
            call_failed("copy_host_to_device of " + byte_count(bytes.size()), copied);
      }
    }
    return run.setup_failure.empty();
  };
  for (const TensorBytes& input : inputs) {
    if (!place(input.bytes)) return run;
    input_views.push_back(
        make_view(input.spec, memory.back().ptr(), device_.device, storage[input_views.size()]));
  }
  for (const TensorSpec& output : outputs) {
    if (!place(std::vector<uint8_t>(byte_size(output), 0xFF))) return run;
    output_views.push_back(make_view(output, memory.back().ptr(), device_.device,
                                     storage[inputs.size() + output_views.size()]));
  }

  const hx_kernel_args args{HX_KERNEL_ARGS_STRUCT_SIZE,
                            nullptr,
                            kernel_context(attrs),
                            device_.device,
                            stream_,
                            input_views.size(),
                            input_views.data(),
                            output_views.size(),
                            output_views.data(),
                            kernel.user_data};
  run.status = KitCore::take(kernel.compute(&args));
  // Even after a failed call: nothing may be in flight when the memory is freed.
  if (stream_ != nullptr) {
    const Outcome synced = KitCore::take(device_.api->stream_synchronize(device_.device, stream_));
    if (!synced.ok()) {
      run.setup_failure = "stream_synchronize after the kernel failed: " + describe(synced);
      return run;
    }
  }
  if (!run.status.ok()) return run;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorBytes output{outputs[i], std::vector<uint8_t>(byte_size(outputs[i]))};
    if (!output.bytes.empty()) {
      const Outcome copied = copy_to_host(device_, nullptr, output.bytes.data(),
                                          output_views[i].data, output.bytes.size());
      if (!copied.ok()) {
        run.setup_failure =
            call_failed("copy_device_to_host of " + byte_count(output.bytes.size()), copied);
        return run;
      }
    }
    run.outputs.push_back(std::move(output));
  }
  return run;
}

}  // namespace hxrt_conformance
