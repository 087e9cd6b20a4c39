// The eager path of one op: the call's plan (eager/call_plan.hpp: shape inference,
// placement and the kernel's views, decided once per kind of call), input copies, output
// allocation and the kernel call through the ABI. A call whose plan is kept does no heap work
// beyond its outputs' memory when it has up to kInline inputs and outputs.
#include <cstdlib>
#include <memory>
#include <vector>

#include "tensors/transfers.hpp"
#include "eager/call_plan.hpp"
#include "eager/launch.hpp"
#include "eager/run_time_extents.hpp"
#include "eager/tensor_views.hpp"
#include "plugins/core_handle.hpp"
#include "runtime/runtime_impl.hpp"
#include "base/status.hpp"
#include "tensors/tensor_impl.hpp"
#include "trace/op_trace.hpp"

namespace hxrt {
namespace {

using detail::set_memory;

constexpr size_t kInline = 4;  // covers every core op but long AddN lists

// `size` elements on the stack (up to N) or the heap, constructed only as many as asked for:
// zero-filling unused slots showed up in profiles of tiny ops.
template <class T, size_t N = kInline>
class InlineArray {
 public:
  explicit InlineArray(size_t size)
      : size_(size),
        data_(size > N ? std::allocator<T>().allocate(size) : reinterpret_cast<T*>(inline_)) {
    std::uninitialized_default_construct_n(data_, size_);
  }
  // Each element made from the one of `source` at its index (a TensorArg from a Tensor).
  template <class Source>
  InlineArray(const Source* source, size_t size)
      : size_(size),
        data_(size > N ? std::allocator<T>().allocate(size) : reinterpret_cast<T*>(inline_)) {
    std::uninitialized_copy_n(source, size_, data_);
  }
  ~InlineArray() {
    std::destroy_n(data_, size_);
    if (size_ > N) std::allocator<T>().deallocate(data_, size_);
  }
  InlineArray(const InlineArray&) = delete;
  InlineArray& operator=(const InlineArray&) = delete;

  T* data() { return data_; }
  T& operator[](size_t i) { return data_[i]; }

 private:
  size_t size_;
  T* data_;
  alignas(T) unsigned char inline_[N * sizeof(T)];
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
// on another device with no local copy). When recording fails the stream is waited for, so
// that no queued work outlives what it uses. Kept out of run_body's synchronous path.
// `local_inputs`: the inputs' local copies, or nullptr when the call made none.
void finish_queued(detail::Device& device, const std::string& op, Tensor* outputs,
                   size_t num_outputs, const TensorArg* inputs, const Tensor* local_inputs,
                   size_t num_inputs) {
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
    if (inputs[i]->impl()->device.get() != &device &&
        (local_inputs == nullptr || !local_inputs[i].valid())) {
      inputs[i]->impl()->add_reader(ready);
    }
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
// plugins, the input itself read in place once its work has completed (`local` stays empty).
// Fills `view`'s memory.
void input_from_elsewhere(Runtime::Impl& impl, const Tensor& input, size_t index,
                          const std::string& op, detail::Device& device, bool logging,
                          Tensor& local, hx_tensor_view& view) {
  const detail::TensorImpl& held = *input.impl();
  if (reads_in_place(held, device)) {
    held.wait_ready();  // another plugin's stream cannot wait for the event
    set_memory(held, device.handle(), view);
    if (logging) {
      impl.logger->write(LogLevel::kInfo, "Reading input " + std::to_string(index) + " of " +
                                              op + " in place from " + held.device->name() +
                                              " (host memory)");
    }
    return;
  }
  if (logging) {
    impl.logger->write(LogLevel::kInfo, "Copying input " + std::to_string(index) + " of " + op +
                                            " from " + input.device() + " to " + device.name());
  }
  local = impl.copy_to(input, device);
  set_memory(*local.impl(), device.handle(), view);
}

// The common call, without run_body's bookkeeping for the others: a kept plan that is quick()
// (a synchronous device, placed once, each input's kind known and on that device), each input
// ready. kMatchKinds: whether the inputs' kinds are still to compare with the plan's (the
// op's last plan, of which only CallPlan::matches_call is known). Returns false, having done
// nothing, for any other call. (Run without a trace or the placement log.) Always inline: its
// frame would be a second one on every op's path.
template <bool kMatchKinds>
__attribute__((always_inline)) inline bool run_planned(const detail::CallPlan& plan,
                                                       const TensorArg* inputs,
                                                       size_t num_inputs, const Attrs& attrs,
                                                       Tensor* outputs) {
  const detail::Placement& placement = plan.placement();
  detail::Device& device = *placement.device;
  hx_tensor_view views[detail::CallPlan::kMostQuickOperands];
  for (size_t i = 0; i < num_inputs; ++i) {
    const detail::TensorImpl* held = inputs[i]->impl();
    // A matched kind is not null (quick()), so an empty input (null) never passes.
    if (kMatchKinds && (held == nullptr || held->kind != plan.input_kinds()[i])) return false;
    if (held->ready != nullptr) return false;
    views[i] = plan.input_views()[i];
    set_memory(*held, device.handle(), views[i]);
  }
  detail::launch(plan, placement, views, num_inputs, attrs, outputs, [] {});
  return true;
}

// The one test of whether a call may take the quick way (run_planned, which then checks its
// inputs): its plan allows it (CallPlan::quick) and nothing records the call (the trace, the
// placement log).
__attribute__((always_inline)) inline bool quick_way_open(const Runtime::Impl& impl,
                                                          const detail::CallPlan& plan) {
  return plan.quick() && !detail::tracing() &&
         !impl.log_placement.load(std::memory_order_relaxed);
}

}  // namespace

bool Runtime::Impl::run_quickly(const detail::OpSchema& schema, const TensorArg* inputs,
                                size_t num_inputs, const Attrs& attrs,
                                const std::string& requested, Tensor* outputs) {
  const detail::CallPlan* plan = call_plans.last(schema);
  if (plan == nullptr || !quick_way_open(*this, *plan)) return false;
  // The request run_body would make of an empty one: a scope's (of any runtime, to test one
  // counter) or the placement function's.
  if (requested.empty() &&
      (detail::t_scope_depth != 0 || has_placement_function.load(std::memory_order_relaxed))) {
    return false;
  }
  return plan->matches_call(schema, num_inputs, attrs, requested,
                            soft_placement.load(std::memory_order_relaxed)) &&
         run_planned<true>(*plan, inputs, num_inputs, attrs, outputs);
}

namespace {

// Runtime::Impl::run's body: the quick way, else run_body's. Always inline, so that
// execute_single's call has no frame for run.
__attribute__((always_inline)) inline void run_either_way(Runtime::Impl& impl,
                                                          const detail::OpSchema& schema,
                                                          const TensorArg* inputs,
                                                          size_t num_inputs, const Attrs& attrs,
                                                          const std::string& requested,
                                                          Tensor* outputs) {
  if (!impl.run_quickly(schema, inputs, num_inputs, attrs, requested, outputs)) {
    impl.run_in_full(schema, inputs, num_inputs, attrs, requested, outputs);
  }
}

// Always inline: the execute overloads' one frame is then the quick way's too.
__attribute__((always_inline)) inline Tensor execute_single(Runtime::Impl& impl,
                                                            const detail::OpSchema& schema,
                                                            const TensorArg* inputs,
                                                            size_t num_inputs, const Attrs& attrs,
                                                            const std::string& device) {
  // The test of num_outputs first: an op of one output pays no more on its quick way.
  if (schema.num_outputs != 1) {
    const int count = detail::num_outputs_of(schema, attrs, num_inputs);
    if (count != 1) {
      throw Error(StatusCode::kInvalidArgument,
                  schema.name + " has " + std::to_string(count) +
                      " outputs; call execute_multi to receive them all");
    }
  }
  Tensor output;
  run_either_way(impl, schema, inputs, num_inputs, attrs, device, &output);
  return output;
}

std::vector<Tensor> execute_multi_outputs(Runtime::Impl& impl, const detail::OpSchema& schema,
                                          const std::vector<Tensor>& inputs, const Attrs& attrs,
                                          const std::string& device) {
  std::vector<Tensor> outputs(
      static_cast<size_t>(detail::num_outputs_of(schema, attrs, inputs.size())));
  InlineArray<TensorArg> args(inputs.data(), inputs.size());
  impl.run(schema, args.data(), inputs.size(), attrs, device, outputs.data());
  return outputs;
}

}  // namespace

const detail::CallPlan& Runtime::Impl::find_or_plan(const detail::CallKey& key,
                                                     std::unique_ptr<detail::CallPlan>& unkept,
                                                     bool& placed_now) {
  for (size_t i = 0; i < key.num_inputs; ++i) {
    if (!key.inputs[i]->valid()) {
      throw Error(StatusCode::kInvalidArgument,
                  key.op.name + ": input " + std::to_string(i) + " is an empty Tensor");
    }
  }
  if (const detail::CallPlan* kept = call_plans.find(key)) return *kept;
  unkept = std::make_unique<detail::CallPlan>(key);
  unkept->decide(*placer);
  placed_now = true;
  return call_plans.keep(unkept, key);
}

const detail::OpSchema& Runtime::Impl::schema_of(const std::string& op) const {
  if (const detail::OpSchema* schema = ops.find(op)) return *schema;
  std::string known;
  for (const detail::OpSchema* schema : ops.all()) {
    known += (known.empty() ? "" : ", ") + schema->name;
  }
  throw Error(StatusCode::kNotFound, "unknown op '" + op + "'; known ops: " + known);
}

void Runtime::Impl::run(const detail::OpSchema& schema, const TensorArg* inputs,
                        size_t num_inputs, const Attrs& attrs, const std::string& requested,
                        Tensor* outputs) {
  run_either_way(*this, schema, inputs, num_inputs, attrs, requested, outputs);
}

void Runtime::Impl::run_in_full(const detail::OpSchema& schema, const TensorArg* inputs,
                                size_t num_inputs, const Attrs& attrs,
                                const std::string& requested, Tensor* outputs) {
  if (detail::tracing()) {
    run_body<true>(schema, inputs, num_inputs, attrs, requested, outputs);
  } else {
    run_body<false>(schema, inputs, num_inputs, attrs, requested, outputs);
  }
}

template <bool kTraced>
void Runtime::Impl::run_body(const detail::OpSchema& schema, const TensorArg* inputs,
                             size_t num_inputs, const Attrs& attrs,
                             const std::string& requested, Tensor* outputs) {
  const std::string& op = schema.name;
  detail::OpTrace trace(kTraced);
  ensure_initialized();

  // The request: the call's device, else the innermost scope, else the placement function.
  // (Pointers to the heap here and below, for what few calls need: a string or a Placement
  // made and destroyed on every call costs more than the test of a pointer, and GCC clears
  // an std::optional's storage on every call.)
  const std::string* request = &requested;
  std::unique_ptr<std::string> from_function;
  if (request->empty()) {
    if (const std::string* scoped = innermost_scope()) {
      request = scoped;
    } else if (has_placement_function.load(std::memory_order_relaxed)) {
      from_function =
          std::make_unique<std::string>(ask_placement_function(op, inputs, num_inputs));
      request = from_function.get();
    }
  }

  // A device of another task's runs the op there (a pointer's test outside a cluster).
  detail::RemoteCalls* const remote = cluster_role.remote_calls.get();
  if (remote != nullptr && remote->names_another_task(*request)) {
    remote->run(schema, inputs, num_inputs, attrs, *request, outputs);
    return;
  }

  // The plan of this kind of call: the op's last, found among those kept, or decided now.
  const detail::CallKey key(schema, inputs, num_inputs, attrs, *request,
                            soft_placement.load(std::memory_order_relaxed));
  std::unique_ptr<detail::CallPlan> unkept;
  const detail::CallPlan* plan = call_plans.find_last(key);
  bool placed_now = false;
  if (plan == nullptr) plan = &find_or_plan(key, unkept, placed_now);
  if (!placed_now && quick_way_open(*this, *plan) &&
      run_planned<false>(*plan, inputs, num_inputs, attrs, outputs)) {
    return;
  }
  const detail::TensorMeta* input_meta = plan->inputs();
  const size_t num_outputs = plan->num_outputs();

  // Kernels of plugins older than ABI 2.3 are asked (check) before every call.
  const detail::Placement* chosen = &plan->placement();
  std::unique_ptr<detail::Placement> placed_again;
  if (!placed_now && plan->place_each_call()) {
    placed_again = std::make_unique<detail::Placement>(placer->place(plan->placement_request()));
    chosen = placed_again.get();
  }
  const detail::Placement& placement = *chosen;
  detail::Device& device = *placement.device;
  const bool logging =
      log_placement.load(std::memory_order_relaxed) && !detail::QuietPlacementLog::active();

  // The kernel's views: the plan's, each copied as its memory is set (copied at once, they
  // cost a call to memcpy).
  InlineArray<hx_tensor_view, 2 * kInline> views(num_inputs + num_outputs);
  hx_tensor_view* const input_array = views.data();

  // Inputs that live elsewhere are brought to the op's device (input_from_elsewhere): a local
  // copy, or (no copy) read in place. Inputs on the op's device need no wait: its stream runs
  // in order.
  std::unique_ptr<Tensor[]> local_inputs;  // made when an input lives elsewhere
  for (size_t i = 0; i < num_inputs; ++i) {
    const detail::TensorImpl& held = *inputs[i]->impl();
    detail::check_not_failed(held, op, i);
    input_array[i] = plan->input_views()[i];
    if (held.device.get() == &device) {
      set_memory(held, device.handle(), input_array[i]);
    } else {
      if (!local_inputs) local_inputs = std::make_unique<Tensor[]>(num_inputs);
      input_from_elsewhere(*this, *inputs[i], i, op, device, logging, local_inputs[i],
                           input_array[i]);
    }
  }

  std::unique_ptr<detail::RunTimeExtents> extents;  // for an op whose extents are known at run
  if (schema.extents_at_run) {
    extents = std::make_unique<detail::RunTimeExtents>(plan->outputs(), num_outputs);
  }
  try {
    detail::launch(*plan, placement, views.data(), num_inputs, attrs, outputs,
                   [&trace] { trace.kernel_starts(); }, extents ? extents->data() : nullptr);
  } catch (const Error& error) {
    if (trace.on()) {
      trace.record_failure(op_trace_info(op, input_meta, num_inputs, device, placement,
                                         *request),
                           error.what());
    }
    throw;
  }
  if (device.asynchronous()) {
    finish_queued(device, op, outputs, num_outputs, inputs,
                  local_inputs.get(), num_inputs);
    if (trace.on()) {
      std::shared_ptr<detail::ReadyEvent> ready = outputs[0].impl()->ready;
      trace.record_enqueued(
          op_trace_info(op, input_meta, num_inputs, device, placement, *request), 0,
          [ready] { return ready->done(); });
    }
  } else if (trace.on()) {
    trace.record(op_trace_info(op, input_meta, num_inputs, device, placement, *request));
  }
  if (extents) {
    outputs[0].impl()->wait_ready();  // the extents are written with the outputs
    extents->apply(outputs, num_outputs,
                   op + " on " + device.name() + " (plugin '" + placement.kernel->plugin + "')");
  }
  if (logging) {
    logger->write(LogLevel::kInfo, "Executing op " + op + " in device " + device.name());
    if (!placement.reason.empty()) logger->write(LogLevel::kInfo, "  " + placement.reason);
  }
}

void Runtime::Impl::throw_bad_op(const Op& op) const {
  if (op.schema() == nullptr) {
    throw Error(StatusCode::kInvalidArgument,
                "this Op handle is empty (default-constructed); get one from Runtime::op");
  }
  throw Error(StatusCode::kInvalidArgument,
              "the Op handle '" + op.schema()->name +
                  "' was resolved by another runtime; resolve it with this runtime's op()");
}

const std::string& Op::name() const {
  static const std::string empty;
  return schema_ == nullptr ? empty : schema_->name;
}

Op Runtime::op(const std::string& name) const {
  return Op(impl_, &impl().schema_of(name));
}

Tensor Runtime::execute(const std::string& op, std::initializer_list<TensorArg> inputs,
                        const Attrs& attrs, const std::string& device) {
  Impl& state = impl();
  return execute_single(state, state.schema_of(op), inputs.begin(), inputs.size(), attrs, device);
}

Tensor Runtime::execute(const std::string& op, const std::vector<Tensor>& inputs,
                        const Attrs& attrs, const std::string& device) {
  Impl& state = impl();
  InlineArray<TensorArg> args(inputs.data(), inputs.size());
  return execute_single(state, state.schema_of(op), args.data(), inputs.size(), attrs, device);
}

std::vector<Tensor> Runtime::execute_multi(const std::string& op,
                                           const std::vector<Tensor>& inputs, const Attrs& attrs,
                                           const std::string& device) {
  Impl& state = impl();
  return execute_multi_outputs(state, state.schema_of(op), inputs, attrs, device);
}

Tensor Runtime::execute(const Op& op, std::initializer_list<TensorArg> inputs, const Attrs& attrs,
                        const std::string& device) {
  Impl& state = impl();
  return execute_single(state, state.schema_of(op), inputs.begin(), inputs.size(), attrs, device);
}

Tensor Runtime::execute(const Op& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                        const std::string& device) {
  Impl& state = impl();
  InlineArray<TensorArg> args(inputs.data(), inputs.size());
  return execute_single(state, state.schema_of(op), args.data(), inputs.size(), attrs, device);
}

std::vector<Tensor> Runtime::execute_multi(const Op& op, const std::vector<Tensor>& inputs,
                                           const Attrs& attrs, const std::string& device) {
  Impl& state = impl();
  return execute_multi_outputs(state, state.schema_of(op), inputs, attrs, device);
}

}  // namespace hxrt
