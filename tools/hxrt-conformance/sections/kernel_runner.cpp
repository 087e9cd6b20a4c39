#include "sections/kernel_runner.hpp"

#include <array>
#include <atomic>
#include <optional>

#include "call_text.hpp"
#include "device_memory.hpp"
#include "device_transfers.hpp"
#include "reference/broadcast.hpp"

namespace hxrt_conformance {
namespace {

size_t byte_size(const TensorSpec& spec) {
  return static_cast<size_t>(element_count(spec.shape)) * hx_dtype_size(spec.dtype);
}

// A view's shape and strides, kept alive for the call (the views borrow them). Fixed arrays,
// as the core uses, so that even a rank-0 view has non-NULL pointers.
struct ViewStorage {
  std::array<int64_t, HX_MAX_RANK> shape{};
  std::array<int64_t, HX_MAX_RANK> strides{};
};

// The view of a tensor of `spec` seen as `shape` with `strides` (its own dense ones, or the
// broadcast ones), at `place` (no buffer for create and check).
hx_tensor_view make_view(const TensorSpec& spec, const Shape& shape, const Shape& strides,
                         DevicePlace place, hx_device* device, ViewStorage& storage) {
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    storage.shape[axis] = shape[axis];
    storage.strides[axis] = strides[axis];
  }
  return hx_tensor_view{HX_TENSOR_VIEW_STRUCT_SIZE,
                        nullptr,
                        place.buffer,
                        place.buffer != nullptr ? place.offset : 0,
                        spec.dtype,
                        static_cast<int32_t>(shape.size()),
                        storage.shape.data(),
                        storage.strides.data(),
                        place.buffer != nullptr ? device : nullptr};
}

// Where each tensor of a call sits in its one buffer: the first at the alignment (a tensor's
// offset is rarely 0 in the core's allocator), each next at the following multiple of it.
struct Layout {
  std::vector<size_t> offsets;
  size_t total = 0;
};

Layout lay_out(const DeviceUnderTest& device, const std::vector<size_t>& sizes) {
  Layout layout;
  size_t end = device.alignment;
  for (const size_t size : sizes) {
    const size_t offset = device.aligned_offset(end);
    layout.offsets.push_back(offset);
    end = offset + size;
  }
  layout.total = end;
  return layout;
}

// The views of one call: inputs broadcast to the first output's shape for the ops that
// broadcast, every other tensor dense.
class CallViews {
 public:
  CallViews(const RegisteredKernel& kernel, const std::vector<TensorSpec>& inputs,
            const std::vector<TensorSpec>& outputs)
      : inputs_(inputs), outputs_(outputs), storage_(inputs.size() + outputs.size()) {
    const hxrt::OpInfo* op = core_op(kernel.op);
    broadcast_ = op != nullptr && op->broadcasts && !outputs.empty();
    if (op != nullptr && op->extents_at_run) {
      extents_.emplace();
      for (const TensorSpec& output : outputs) {
        extents_->insert(extents_->end(), output.shape.begin(), output.shape.end());
      }
    }
  }

  // For an op whose extents are known at run: what compute wrote to output_extents, each
  // output's shape in turn. nullopt for the other ops.
  const std::optional<std::vector<int64_t>>& extents() const { return extents_; }

  // With `places` empty: views without buffers, for create and check.
  void make(hx_device* device, const std::vector<DevicePlace>& places) {
    input_views_.clear();
    output_views_.clear();
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Shape& shape = broadcast_ ? outputs_.front().shape : inputs_[i].shape;
      const Shape strides = broadcast_ ? broadcast_strides(inputs_[i].shape, shape)
                                       : dense_strides(shape);
      input_views_.push_back(make_view(inputs_[i], shape, strides, place(places, i), device,
                                       storage_[i]));
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const size_t index = inputs_.size() + i;
      output_views_.push_back(make_view(outputs_[i], outputs_[i].shape,
                                        dense_strides(outputs_[i].shape), place(places, index),
                                        device, storage_[index]));
    }
  }

  // `compute`: for compute, which receives output_extents (check does not). `constants`:
  // NULL, or an id per input (hx_kernel_args.input_constants).
  hx_kernel_args args(const RegisteredKernel& kernel, const KernelAttrs& attrs, hx_device* device,
                      hx_stream* stream, hx_kernel_instance* instance, bool compute,
                      const uint64_t* constants = nullptr) {
    return hx_kernel_args{HX_KERNEL_ARGS_STRUCT_SIZE,
                          nullptr,
                          kernel_context(attrs),
                          device,
                          stream,
                          input_views_.size(),
                          input_views_.data(),
                          output_views_.size(),
                          output_views_.data(),
                          kernel.user_data,
                          instance,
                          compute && extents_ ? extents_->data() : nullptr,
                          constants};
  }

 private:
  static DevicePlace place(const std::vector<DevicePlace>& places, size_t index) {
    return places.empty() ? DevicePlace{} : places[index];
  }

  const std::vector<TensorSpec>& inputs_;
  const std::vector<TensorSpec>& outputs_;
  bool broadcast_ = false;
  std::vector<ViewStorage> storage_;
  std::vector<hx_tensor_view> input_views_;
  std::vector<hx_tensor_view> output_views_;
  std::optional<std::vector<int64_t>> extents_;
};

// The extents compute reported for `outputs` (allocated with their most), or a contract
// failure naming the first beyond its bound.
std::string read_extents(const std::vector<int64_t>& extents, std::vector<TensorSpec>& outputs) {
  size_t at = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Shape reported(extents.begin() + static_cast<std::ptrdiff_t>(at),
                   extents.begin() + static_cast<std::ptrdiff_t>(at + outputs[i].shape.size()));
    for (size_t d = 0; d < reported.size(); ++d) {
      if (reported[d] < 0 || reported[d] > outputs[i].shape[d]) {
        return "compute reported output " + std::to_string(i) + "'s extents as " +
               shape_text(reported) + ", beyond the most it may have, " +
               shape_text(outputs[i].shape) +
               "; hx_kernel_args.output_extents holds extents no larger than the views'";
      }
    }
    at += reported.size();
    outputs[i].shape = std::move(reported);
  }
  return "";
}

// A declining status must carry the reason the core logs.
std::string decline_failure(const char* step, const Outcome& outcome) {
  if (!outcome.message.empty()) return {};
  return std::string(step) +
         " declined with UNIMPLEMENTED and an empty message; the core logs the message as the "
         "reason it placed the op elsewhere, so say what is not supported";
}

// Ids for a call's inputs as constants: unique in the kit's process, as the core's are.
std::vector<uint64_t> new_constant_ids(size_t count) {
  static std::atomic<uint64_t> last{0};
  std::vector<uint64_t> ids(count);
  for (uint64_t& id : ids) id = last.fetch_add(1, std::memory_order_relaxed) + 1;
  return ids;
}

std::vector<TensorSpec> specs_of(const std::vector<TensorBytes>& tensors) {
  std::vector<TensorSpec> specs;
  for (const TensorBytes& tensor : tensors) specs.push_back(tensor.spec);
  return specs;
}

}  // namespace

std::vector<hx_dtype> dtypes_of(const std::vector<TensorSpec>& tensors) {
  std::vector<hx_dtype> dtypes;
  for (const TensorSpec& tensor : tensors) dtypes.push_back(tensor.dtype);
  return dtypes;
}

KernelInstance::KernelInstance(const RegisteredKernel& kernel, const DeviceUnderTest& device,
                               const KernelAttrs& attrs,
                               const std::vector<hx_dtype>& input_dtypes,
                               const std::vector<hx_dtype>& output_dtypes)
    : kernel_(kernel) {
  if (kernel.create == nullptr) return;
  const std::vector<int32_t> inputs(input_dtypes.begin(), input_dtypes.end());
  const std::vector<int32_t> outputs(output_dtypes.begin(), output_dtypes.end());
  const hx_kernel_create_args args{HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
                                   nullptr,
                                   kernel_context(attrs),
                                   device.device,
                                   inputs.size(),
                                   inputs.data(),
                                   outputs.size(),
                                   outputs.data(),
                                   kernel.user_data};
  outcome_ = KitCore::take(kernel.create(&args, &instance_));
  if (!outcome_.ok()) instance_ = nullptr;
}

KernelInstance::~KernelInstance() {
  if (kernel_.create != nullptr && outcome_.ok()) kernel_.destroy(instance_, kernel_.user_data);
}

KernelRun KernelRunner::run(const RegisteredKernel& kernel, const std::vector<TensorBytes>& inputs,
                            const std::vector<TensorSpec>& outputs, const KernelAttrs& attrs,
                            const KernelInstance* shared, bool inputs_constant) const {
  KernelRun run;
  const std::vector<TensorSpec> input_specs = specs_of(inputs);
  std::optional<KernelInstance> own;
  if (shared == nullptr) {
    own.emplace(kernel, device_, attrs, dtypes_of(input_specs), dtypes_of(outputs));
    shared = &*own;
  }
  CallViews views(kernel, input_specs, outputs);
  const auto stop = [&run](const char* step, const Outcome& outcome) {
    if (outcome.code == HX_UNIMPLEMENTED) {
      run.declined = outcome.message;
      run.contract_failure = decline_failure(step, outcome);
    } else {
      run.status = outcome;
      run.failed_step = step;
    }
  };
  if (!shared->outcome().ok()) {
    stop("create", shared->outcome());
    return run;
  }
  if (kernel.check != nullptr) {
    views.make(device_.device, {});
    const hx_kernel_args args =
        views.args(kernel, attrs, device_.device, nullptr, shared->get(), false);
    const Outcome checked = KitCore::take(kernel.check(&args));
    // Asked again: the core keeps a check's first answer for every later call like this one
    // (plugin_api.h, hx_kernel_check_fn), so the answer must not change.
    const Outcome again = KitCore::take(kernel.check(&args));
    if (again.code != checked.code) {
      run.contract_failure = "check answered " + describe(checked) + ", then " +
                             describe(again) +
                             " for the same call; a check must answer from its arguments "
                             "alone, as the core keeps its first answer (ABI 2.3)";
      return run;
    }
    if (!checked.ok()) {
      stop("check", checked);
      return run;
    }
  }

  std::vector<size_t> sizes;
  for (const TensorBytes& input : inputs) sizes.push_back(input.bytes.size());
  for (const TensorSpec& output : outputs) sizes.push_back(byte_size(output));
  const Layout layout = lay_out(device_, sizes);
  const DeviceAllocation memory(device_, layout.total);
  run.setup_failure = memory.failure();
  if (!run.setup_failure.empty()) return run;
  std::vector<DevicePlace> places;
  for (size_t i = 0; i < sizes.size(); ++i) places.push_back({memory.buffer(), layout.offsets[i]});
  // Without a stream, so that each tensor is in place before the kernel is enqueued.
  const auto fill = [&](size_t first) {
    for (size_t i = first; i < sizes.size(); ++i) {
      const std::vector<uint8_t> bytes =
          i < inputs.size() ? inputs[i].bytes : std::vector<uint8_t>(sizes[i], 0xFF);
      if (bytes.empty()) continue;
      const Outcome copied = copy_to_device(device_, nullptr, places[i], bytes.data(),
                                            bytes.size());
      if (!copied.ok()) {
        return call_failed("copy_host_to_device of " + byte_count(bytes.size()) +
                               " to offset " + std::to_string(places[i].offset),
                           copied);
      }
    }
    return std::string();
  };
  const auto synchronize = [&] {
    if (stream_ == nullptr) return std::string();
    const Outcome synced =
        KitCore::take(device_.api->streams->synchronize(device_.device, stream_));
    return synced.ok() ? std::string()
                       : "streams.synchronize after the kernel failed: " + describe(synced);
  };
  run.setup_failure = fill(0);
  if (!run.setup_failure.empty()) return run;
  views.make(device_.device, places);
  const std::vector<uint64_t> ids = inputs_constant ? new_constant_ids(inputs.size())
                                                    : std::vector<uint64_t>();
  const hx_kernel_args args = views.args(kernel, attrs, device_.device, stream_, shared->get(),
                                         true, inputs_constant ? ids.data() : nullptr);
  run.status = KitCore::take(kernel.compute(&args));
  if (inputs_constant && run.status.ok()) {
    // Again with the same ids, into outputs filled anew: what the kernel kept of its inputs
    // under their ids at the first call must give what they gave.
    run.setup_failure = synchronize();
    if (run.setup_failure.empty()) run.setup_failure = fill(inputs.size());
    if (!run.setup_failure.empty()) return run;
    run.status = KitCore::take(kernel.compute(&args));
  }
  if (!run.status.ok()) run.failed_step = "compute";
  if (run.status.code == HX_UNIMPLEMENTED) {
    run.contract_failure =
        "compute returned UNIMPLEMENTED (" + run.status.message + ") for a call " +
        (kernel.create || kernel.check ? "that create and check accepted"
                                       : "of dtypes it registered, with no create or check") +
        "; UNIMPLEMENTED from compute fails the op and is never a fallback: decline the call "
        "in create or check instead";
  }
  // Even after a failed call: nothing may be in flight when the memory is freed, nor when
  // the ids are forgotten.
  run.setup_failure = synchronize();
  if (inputs_constant) {
    kernel.forget_constants(shared->get(), ids.data(), ids.size(), kernel.user_data);
  }
  if (!run.setup_failure.empty()) return run;
  if (!run.status.ok()) return run;
  // The elements are dense for the extents reported, from the start of each output.
  std::vector<TensorSpec> written = outputs;
  if (views.extents()) {
    run.contract_failure = read_extents(*views.extents(), written);
    if (!run.contract_failure.empty()) return run;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorBytes output{written[i], std::vector<uint8_t>(byte_size(written[i]))};
    if (!output.bytes.empty()) {
      const Outcome copied = copy_to_host(device_, nullptr, output.bytes.data(),
                                          places[inputs.size() + i], output.bytes.size());
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
