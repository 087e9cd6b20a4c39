// The eager path of one op: shape inference, placement (cached), input copies, output
// allocation and the kernel call through the ABI. Kept free of heap work beyond the outputs
// for calls of up to kInline inputs and outputs.
#include <cstring>
#include <memory>

#include "execution/transfers.hpp"
#include "runtime/tensor_views.hpp"
#include "ops/broadcast.hpp"
#include "plugins/core_handle.hpp"
#include "runtime/runtime_impl.hpp"
#include "status.hpp"
#include "tensor_impl.hpp"
#include "trace/op_trace.hpp"

namespace hxrt {
namespace {

using detail::fill_broadcast_view;
using detail::fill_dense_view;
using detail::set_memory;
using detail::Strides;

constexpr size_t kInline = 4;  // covers every core op but long AddN lists

// `size` elements on the stack (up to kInline) or the heap, constructed only as many as asked
// for: zero-filling unused slots showed up in profiles of tiny ops.
template <class T>
class InlineArray {
 public:
  explicit InlineArray(size_t size)
      : size_(size),
        data_(size > kInline ? std::allocator<T>().allocate(size)
                             : reinterpret_cast<T*>(inline_)) {
    std::uninitialized_default_construct_n(data_, size_);
  }
  ~InlineArray() {
    std::destroy_n(data_, size_);
    if (size_ > kInline) std::allocator<T>().deallocate(data_, size_);
  }
  InlineArray(const InlineArray&) = delete;
  InlineArray& operator=(const InlineArray&) = delete;

  T* data() { return data_; }
  T& operator[](size_t i) { return data_[i]; }

 private:
  size_t size_;
  T* data_;
  alignas(T) unsigned char inline_[kInline * sizeof(T)];
};

// Whether `device` reads `input` (on another device) in place: both memories are host memory
// (plugin_api.h, HX_MEMORY_HOST), and of different plugins (one plugin copies between its own
// devices itself).
bool reads_in_place(const detail::TensorImpl& input, const detail::Device& device) {
  return device.host_addressable() && input.device->host_addressable() &&
         &input.device->plugin() != &device.plugin();
}

// After an op was queued on an asynchronous device: its outputs are ready with one event,
// which also holds back the reuse of the memory it reads in place on other devices (inputs
// whose entry in `input_devices` was cleared). When recording fails the stream is waited for,
// so that no queued work outlives what it uses. Kept out of run_body's synchronous path.
void finish_queued(detail::Device& device, const std::string& op, Tensor* outputs,
                   size_t num_outputs, const Tensor* inputs,
                   detail::Device* const* input_devices, size_t num_inputs) {
  std::shared_ptr<detail::ReadyEvent> ready;
  try {
    ready = device.record(op);
  } catch (...) {
    device.clear_stream_failure();
    for (size_t i = 0; i < num_outputs; ++i) outputs[i] = Tensor();
    throw;
  }
  for (size_t i = 0; i < num_outputs; ++i) outputs[i].impl()->ready = ready;
  for (size_t i = 0; i < num_inputs; ++i) {
    if (input_devices[i] == nullptr) inputs[i].impl()->add_reader(ready);
  }
}

// What the trace records of one op.
detail::OpTraceInfo op_trace_info(const std::string& op, const detail::TensorMeta* inputs,
                                  size_t num_inputs, const detail::Device& device,
                                  const detail::Placement& placement,
                                  const std::string& request) {
  return {op, inputs, num_inputs, device.name(), placement.kernel->plugin, request,
          placement.reason};
}

// Brings input `index` of `op`, which lives on another device, to `device`: a copy made
// there (`local`, which dies with the call), or, between host-memory devices of different
// plugins, the input itself read in place once its work has completed. Fills `view`'s memory;
// returns whether the input is read in place.
bool input_from_elsewhere(Runtime::Impl& impl, const Tensor& input, size_t index,
                          const std::string& op, detail::Device& device, bool logging,
                          Tensor& local, hx_tensor_view& view) {
  const detail::TensorImpl& held = *input.impl();
  if (reads_in_place(held, device)) {
    held.wait_ready();  // another plugin's stream cannot wait for the event
    set_memory(held, view);
    view.device = device.handle();
    if (logging) {
      impl.logger->write(LogLevel::kInfo, "Reading input " + std::to_string(index) + " of " +
                                              op + " in place from " + held.device->name() +
                                              " (host memory)");
    }
    return true;
  }
  if (logging) {
    impl.logger->write(LogLevel::kInfo, "Copying input " + std::to_string(index) + " of " + op +
                                            " from " + input.device() + " to " + device.name());
  }
  local = impl.copy_to(input, device);
  set_memory(*local.impl(), view);
  return false;
}

Tensor execute_single(Runtime::Impl& impl, const std::string& op, const Tensor* inputs,
                      size_t num_inputs, const Attrs& attrs, const std::string& device) {
  const detail::OpSchema& schema = impl.schema_of(op);
  if (schema.num_outputs != 1) {
    throw Error(StatusCode::kInvalidArgument,
                op + " has " + std::to_string(schema.num_outputs) +
                    " outputs; call execute_multi to receive them all");
  }
  Tensor output;
  impl.run(schema, inputs, num_inputs, attrs, device, &output);
  return output;
}

}  // namespace

const detail::OpSchema& Runtime::Impl::schema_of(const std::string& op) const {
  if (const detail::OpSchema* schema = ops.find(op)) return *schema;
  std::string known;
  for (const detail::OpSchema* schema : ops.all()) {
    known += (known.empty() ? "" : ", ") + schema->name;
  }
  throw Error(StatusCode::kNotFound, "unknown op '" + op + "'; known ops: " + known);
}

void Runtime::Impl::run(const detail::OpSchema& schema, const Tensor* inputs,
                        size_t num_inputs, const Attrs& attrs, const std::string& requested,
                        Tensor* outputs) {
  if (detail::tracing()) {
    run_body<true>(schema, inputs, num_inputs, attrs, requested, outputs);
  } else {
    run_body<false>(schema, inputs, num_inputs, attrs, requested, outputs);
  }
}

template <bool kTraced>
void Runtime::Impl::run_body(const detail::OpSchema& schema, const Tensor* inputs,
                             size_t num_inputs, const Attrs& attrs,
                             const std::string& requested, Tensor* outputs) {
  const std::string& op = schema.name;
  detail::OpTrace trace(kTraced);
  ensure_initialized();

  InlineArray<detail::TensorMeta> input_meta(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    if (!inputs[i].valid()) {
      throw Error(StatusCode::kInvalidArgument,
                  op + ": input " + std::to_string(i) + " is an empty Tensor");
    }
    const detail::TensorImpl& impl = *inputs[i].impl();
    input_meta[i].dtype = impl.dtype;
    input_meta[i].shape = impl.shape;
  }
  const size_t num_outputs = static_cast<size_t>(schema.num_outputs);
  InlineArray<detail::TensorMeta> output_meta(num_outputs);
  detail::infer_outputs(schema, {op, input_meta.data(), num_inputs, attrs},
                        output_meta.data());

  // The request: the call's device, else the innermost scope, else the placement function.
  const std::string* request = &requested;
  std::string from_function;
  if (request->empty()) {
    if (const std::string* scoped = innermost_scope()) {
      request = scoped;
    } else if (has_placement_function.load(std::memory_order_relaxed)) {
      from_function = ask_placement_function(op, inputs, num_inputs);
      request = &from_function;
    }
  }
  InlineArray<Strides> input_strides(num_inputs);
  InlineArray<hx_tensor_view> input_array(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    if (schema.broadcasts) {
      fill_broadcast_view(input_meta[i].dtype, input_meta[i].shape, output_meta[0].shape,
                          input_strides[i], input_array[i]);
    } else {
      fill_dense_view(input_meta[i].dtype, input_meta[i].shape, input_strides[i],
                      input_array[i]);
    }
  }
  InlineArray<Strides> output_strides(num_outputs);
  InlineArray<hx_tensor_view> output_array(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) {
    fill_dense_view(output_meta[i].dtype, output_meta[i].shape, output_strides[i],
                    output_array[i]);
  }

  InlineArray<detail::Device*> input_devices(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) input_devices[i] = inputs[i].impl()->device.get();
  const DType t = detail::type_parameter(
      schema, {op, input_meta.data(), num_inputs, attrs}, output_meta.data());
  const detail::Placement placement = placer->place(
      {&schema, t, output_meta[0].dtype, *request, input_devices.data(), num_inputs,
       soft_placement.load(std::memory_order_relaxed), attrs, input_array.data(),
       output_array.data(), num_outputs});
  detail::Device& device = *placement.device;
  const bool logging =
      log_placement.load(std::memory_order_relaxed) && !detail::QuietPlacementLog::active();

  // Inputs that live elsewhere are brought to the op's device (input_from_elsewhere); those
  // read in place have their device cleared in input_devices, for finish_queued. Inputs on
  // the op's device need no wait: its stream runs in order.
  InlineArray<Tensor> local_inputs(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    const detail::TensorImpl& held = *inputs[i].impl();
    detail::check_not_failed(held, op, i);
    if (held.device.get() == &device) {
      set_memory(held, input_array[i]);
    } else if (input_from_elsewhere(*this, inputs[i], i, op, device, logging,
                                    local_inputs[i], input_array[i])) {
      input_devices[i] = nullptr;
    }
  }

  std::shared_ptr<detail::Device> device_ref = device.shared_from_this();
  for (size_t i = 0; i < num_outputs; ++i) {
    auto impl = std::make_shared<detail::TensorImpl>(device_ref, output_meta[i].dtype,
                                                     output_meta[i].shape, output_meta[i].bytes);
    set_memory(*impl, output_array[i]);
    outputs[i] = Tensor(std::move(impl));
  }

  hx_kernel_context_s context{&attrs};
  const hx_kernel_args args{HX_KERNEL_ARGS_STRUCT_SIZE,
                            nullptr,
                            &context,
                            device.handle(),
                            device.stream(),
                            num_inputs,
                            input_array.data(),
                            num_outputs,
                            output_array.data(),
                            placement.kernel->user_data,
                            placement.instance.get()};
  hx_status* status = nullptr;
  trace.kernel_starts();
  try {
    status = placement.kernel->compute(&args);
  } catch (...) {
    for (size_t i = 0; i < num_outputs; ++i) outputs[i] = Tensor();
    const Error error(StatusCode::kInternal,
                      op + " on " + device.name() + ": the kernel of plugin '" +
                          placement.kernel->plugin + "' threw a C++ exception across the C ABI");
    if (trace.on()) {
      trace.record_failure(op_trace_info(op, input_meta.data(), num_inputs, device, placement,
                                         *request),
                           error.what());
    }
    throw error;
  }
  if (status != nullptr) {
    for (size_t i = 0; i < num_outputs; ++i) outputs[i] = Tensor();
    try {
      detail::throw_if_error(status, op + " on " + device.name() + " (plugin '" +
                                         placement.kernel->plugin + "')");
    } catch (const Error& error) {
      if (trace.on()) {
        trace.record_failure(op_trace_info(op, input_meta.data(), num_inputs, device,
                                           placement, *request),
                             error.what());
      }
      throw;
    }
  }
  if (device.asynchronous()) {
    finish_queued(device, op, outputs, num_outputs, inputs, input_devices.data(), num_inputs);
    if (trace.on()) {
      std::shared_ptr<detail::ReadyEvent> ready = outputs[0].impl()->ready;
      trace.record_enqueued(
          op_trace_info(op, input_meta.data(), num_inputs, device, placement, *request), 0,
          [ready] { return ready->done(); });
    }
  } else if (trace.on()) {
    trace.record(op_trace_info(op, input_meta.data(), num_inputs, device, placement, *request));
  }
  if (logging) {
    logger->write(LogLevel::kInfo, "Executing op " + op + " in device " + device.name());
    if (!placement.reason.empty()) logger->write(LogLevel::kInfo, "  " + placement.reason);
  }
}

Tensor Runtime::execute(const std::string& op, std::initializer_list<Tensor> inputs,
                        const Attrs& attrs, const std::string& device) {
  return execute_single(impl(), op, inputs.begin(), inputs.size(), attrs, device);
}

Tensor Runtime::execute(const std::string& op, const std::vector<Tensor>& inputs,
                        const Attrs& attrs, const std::string& device) {
  return execute_single(impl(), op, inputs.data(), inputs.size(), attrs, device);
}

std::vector<Tensor> Runtime::execute_multi(const std::string& op,
                                           const std::vector<Tensor>& inputs, const Attrs& attrs,
                                           const std::string& device) {
  const detail::OpSchema& schema = impl().schema_of(op);
  std::vector<Tensor> outputs(static_cast<size_t>(schema.num_outputs));
  impl().run(schema, inputs.data(), inputs.size(), attrs, device, outputs.data());
  return outputs;
}

}  // namespace hxrt
