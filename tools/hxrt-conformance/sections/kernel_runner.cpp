#include "sections/kernel_runner.hpp"

#include <array>

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

std::string call_failure(const std::string& call, size_t size, const Outcome& outcome) {
  return call + " of " + std::to_string(size) + " bytes failed: " + describe(outcome);
}

DeviceAllocation::DeviceAllocation(const hx_plugin_api& api, hx_device* device, size_t size)
    : api_(&api), device_(device), size_(size) {
  const Outcome outcome = KitCore::take(api.allocate(device, size, kKernelAlignment, &ptr_));
  if (!outcome.ok()) {
    ptr_ = nullptr;
    failure_ = "allocate(" + std::to_string(size) + " bytes, alignment " +
               std::to_string(kKernelAlignment) + ") failed: " + describe(outcome);
  } else if (ptr_ == nullptr && size != 0) {
    failure_ = "allocate(" + std::to_string(size) + " bytes) returned success and NULL";
  }
}

DeviceAllocation::DeviceAllocation(DeviceAllocation&& other) noexcept
    : api_(other.api_),
      device_(other.device_),
      size_(other.size_),
      ptr_(other.ptr_),
      failure_(std::move(other.failure_)) {
  other.api_ = nullptr;  // the memory is this object's to free now
}

DeviceAllocation::~DeviceAllocation() {
  if (api_ != nullptr && failure_.empty()) api_->deallocate(device_, ptr_, size_);
}

DeviceStream::DeviceStream(const PluginSession& session, hx_device* device)
    : api_(&session.api()), device_(device) {
  if (!session.has_streams()) return;
  const Outcome outcome = KitCore::take(api_->stream_create(device, &stream_));
  if (!outcome.ok()) {
    stream_ = nullptr;
    failure_ = "stream_create failed: " + describe(outcome);
  }
}

DeviceStream::~DeviceStream() {
  if (stream_ != nullptr) api_->stream_destroy(device_, stream_);
}

KernelRun KernelRunner::run(const RegisteredKernel& kernel, const std::vector<TensorBytes>& inputs,
                            const std::vector<TensorSpec>& outputs,
                            const KernelAttrs& attrs) const {
  KernelRun run;
  std::vector<DeviceAllocation> memory;
  std::vector<ViewStorage> storage(inputs.size() + outputs.size());
  std::vector<hx_tensor_view> input_views;
  std::vector<hx_tensor_view> output_views;
  // Copies without a stream complete before they return, so the inputs are in place before
  // the kernel is enqueued.
  const auto copy_in = [&](void* dst, const void* src, size_t size) {
    if (size == 0) return true;
    const Outcome copied =
        KitCore::take(api_->copy_host_to_device(device_, nullptr, dst, src, size));
    if (!copied.ok()) run.setup_failure = call_failure("copy_host_to_device", size, copied);
    return copied.ok();
  };
  for (const TensorBytes& input : inputs) {
    memory.emplace_back(*api_, device_, input.bytes.size());
    if (!memory.back().failure().empty()) {
      run.setup_failure = memory.back().failure();
      return run;
    }
    if (!copy_in(memory.back().ptr(), input.bytes.data(), input.bytes.size())) return run;
    input_views.push_back(
        make_view(input.spec, memory.back().ptr(), device_, storage[input_views.size()]));
  }
  for (const TensorSpec& output : outputs) {
    memory.emplace_back(*api_, device_, byte_size(output));
    if (!memory.back().failure().empty()) {
      run.setup_failure = memory.back().failure();
      return run;
    }
    const std::vector<uint8_t> poison(byte_size(output), 0xFF);
    if (!copy_in(memory.back().ptr(), poison.data(), poison.size())) return run;
    output_views.push_back(make_view(output, memory.back().ptr(), device_,
                                     storage[inputs.size() + output_views.size()]));
  }

  const hx_kernel_args args{HX_KERNEL_ARGS_STRUCT_SIZE,
                            nullptr,
                            kernel_context(attrs),
                            device_,
                            stream_,
                            input_views.size(),
                            input_views.data(),
                            output_views.size(),
                            output_views.data(),
                            kernel.user_data};
  run.status = KitCore::take(kernel.compute(&args));
  // Even after a failed call: nothing may be in flight when the memory is freed.
  if (stream_ != nullptr) {
    const Outcome synced = KitCore::take(api_->stream_synchronize(device_, stream_));
    if (!synced.ok()) {
      run.setup_failure = "stream_synchronize after the kernel failed: " + describe(synced);
      return run;
    }
  }
  if (!run.status.ok()) return run;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorBytes output{outputs[i], std::vector<uint8_t>(byte_size(outputs[i]))};
    if (!output.bytes.empty()) {
      const Outcome copied = KitCore::take(api_->copy_device_to_host(
          device_, nullptr, output.bytes.data(), output_views[i].data, output.bytes.size()));
      if (!copied.ok()) {
        run.setup_failure = call_failure("copy_device_to_host", output.bytes.size(), copied);
        return run;
      }
    }
    run.outputs.push_back(std::move(output));
  }
  return run;
}

}  // namespace hxrt_conformance
