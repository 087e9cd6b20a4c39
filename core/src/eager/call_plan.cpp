#include "eager/call_plan.hpp"

#include <functional>

#include "base/attr_identity.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

size_t CallKey::compute_hash() const {
  uint64_t hash = mix_fingerprint(reinterpret_cast<uintptr_t>(&op),
                                  num_inputs << 8 | static_cast<uint64_t>(mode));
  for (size_t i = 0; i < num_inputs; ++i) {
    const TensorImpl& input = *inputs[i]->impl();
    hash = mix_fingerprint(hash, reinterpret_cast<uintptr_t>(input.device.get()));
    hash = mix_fingerprint(hash, static_cast<uint64_t>(input.dtype) << 8 |
                                     static_cast<uint64_t>(input.shape.rank()));
    for (int d = 0; d < input.shape.rank(); ++d) {
      hash = mix_fingerprint(hash, static_cast<uint64_t>(input.shape[d]));
    }
  }
  if (!attrs.empty()) hash = mix_fingerprint(hash, attrs_fingerprint(attrs));
  if (!requested.empty()) hash = mix_fingerprint(hash, std::hash<std::string_view>()(requested));
  return static_cast<size_t>(hash ^ (hash >> 32));
}

CallPlan::CallPlan(const CallKey& key)
    : op_(key.op),
      requested_(key.requested),
      attrs_(key.attrs),
      mode_(key.mode),
      hash_(key.hash()),
      inputs_(key.num_inputs),
      input_devices_(key.num_inputs),
      input_kinds_(key.num_inputs) {
  for (size_t i = 0; i < key.num_inputs; ++i) {
    const TensorImpl& input = *key.inputs[i]->impl();
    inputs_[i].dtype = input.dtype;
    inputs_[i].shape = input.shape;
    inputs_[i].bytes = input.bytes;
    input_devices_[i] = input.device.get();
    input_kinds_[i] = input.kind;
  }
}

bool CallPlan::same_input(const TensorImpl& input, size_t index) const {
  // Kinds are interned per device: two of them differ in device, dtype or shape.
  if (input.kind != nullptr && input_kinds_[index] != nullptr) return false;
  const Shape& shape = inputs_[index].shape;
  if (input.device.get() != input_devices_[index] || input.dtype != inputs_[index].dtype ||
      input.shape.rank() != shape.rank()) {
    return false;
  }
  for (int d = 0; d < shape.rank(); ++d) {
    if (input.shape[d] != shape[d]) return false;
  }
  return true;
}

void CallPlan::decide(Placer& placer) {
  const size_t num_inputs = inputs_.size();
  outputs_.resize(static_cast<size_t>(num_outputs_of(op_, attrs_, num_inputs)));
  num_outputs_ = outputs_.size();
  const InferContext call{op_.name, inputs_.data(), num_inputs, attrs_};
  infer_outputs(op_, call, outputs_.data());
  t_ = type_parameter(op_, call, outputs_.data());

  strides_.resize(num_inputs + outputs_.size());
  views_.resize(num_inputs + outputs_.size());
  for (size_t i = 0; i < num_inputs; ++i) {
    if (op_.broadcasts) {
      fill_broadcast_view(inputs_[i].dtype, inputs_[i].shape, outputs_[0].shape, strides_[i],
                          views_[i]);
    } else {
      fill_dense_view(inputs_[i].dtype, inputs_[i].shape, strides_[i], views_[i]);
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    fill_dense_view(outputs_[i].dtype, outputs_[i].shape, strides_[num_inputs + i],
                    views_[num_inputs + i]);
  }

  placement_ = placer.place(placement_request());
  device_ = placement_.device->shared_from_this();
  output_kinds_.resize(outputs_.size());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    output_kinds_[i] = device_->tensor_kind(outputs_[i].dtype, outputs_[i].shape);
  }
  // An op whose extents are known at run reads them back after its kernel: run_body's way.
  quick_ = !placement_.asked_each_call && !device_->asynchronous() && !op_.extents_at_run &&
           num_inputs + outputs_.size() <= kMostQuickOperands;
  for (size_t i = 0; i < num_inputs; ++i) {
    quick_ = quick_ && input_kinds_[i] != nullptr && input_devices_[i] == device_.get();
  }
}

PlacementRequest CallPlan::placement_request() const {
  return {&op_,
          t_,
          outputs_[0].dtype,
          requested_,
          input_devices_.data(),
          inputs_.size(),
          mode_,
          attrs_,
          input_views(),
          output_views(),
          outputs_.size()};
}

const CallPlan& CallPlans::keep(std::unique_ptr<CallPlan>& plan, const CallKey& key) {
  if (kept_.load(std::memory_order_relaxed) >= kMostPlans) return *plan;
  const CallPlan* made = plan.get();
  const CallPlan& kept = table_.insert(std::move(plan), key);
  if (&kept == made) kept_.fetch_add(1, std::memory_order_relaxed);
  return kept;
}

}  // namespace hxrt::detail
