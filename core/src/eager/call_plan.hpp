// What an eager op call decides before its kernel runs — its outputs' dtypes, shapes and sizes,
// the views the kernel receives (without memory), the device, kernel and kernel instance —
// decided once per kind of call and kept, so that a call that repeats one infers nothing,
// places nothing and builds no view again. A kind of call is its op, its inputs' dtypes, shapes
// and devices, its attributes, the device requested and the soft-placement mode: everything
// those decisions read. (TensorFlow's eager runtime keeps its kernels by a fingerprint of much
// the same.) Plans are found without a lock, and kept for the runtime's life: at most
// CallPlans::kMostPlans of them, after which new kinds of call are planned for each call.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device.hpp"
#include "hxrt/attrs.hpp"
#include "hxrt/runtime_options.hpp"
#include "hxrt/tensor.hpp"
#include "ops/op_schema.hpp"
#include "base/attr_identity.hpp"
#include "base/insert_only_table.hpp"
#include "placement/placer.hpp"
#include "eager/tensor_views.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

// One call, as the plans are keyed. Borrowed for the call; its inputs are valid tensors.
struct CallKey {
  CallKey(const OpSchema& op_in, const TensorArg* inputs_in, size_t num_inputs_in,
          const Attrs& attrs_in, std::string_view requested_in, SoftPlacement mode_in)
      : op(op_in),
        inputs(inputs_in),
        num_inputs(num_inputs_in),
        attrs(attrs_in),
        requested(requested_in),
        mode(mode_in) {}

  // Computed at the first need: a call that repeats its op's last kind of call needs none.
  size_t hash() const {
    if (!hashed_) {
      hash_ = compute_hash();
      hashed_ = true;
    }
    return hash_;
  }

  const OpSchema& op;
  const TensorArg* inputs;
  size_t num_inputs;
  const Attrs& attrs;
  std::string_view requested;
  SoftPlacement mode;

 private:
  size_t compute_hash() const;
  mutable size_t hash_ = 0;
  mutable bool hashed_ = false;
};

class CallPlan {
 public:
  // The plan's key, copied from `key`; the decisions are the caller's to fill (decide).
  explicit CallPlan(const CallKey& key);
  CallPlan(const CallPlan&) = delete;
  CallPlan& operator=(const CallPlan&) = delete;

  size_t hash() const { return hash_; }
  // Inline: the eager path asks it on every call. An input of the kind (devices/
  // tensor_kinds.hpp) the plan's was matches at one comparison; an empty one never does.
  bool matches(const CallKey& key) const {
    if (!matches_call(key.op, key.num_inputs, key.attrs, key.requested, key.mode)) return false;
    for (size_t i = 0; i < key.num_inputs; ++i) {
      const TensorImpl* input = key.inputs[i]->impl();
      if (input == nullptr) return false;  // an empty Tensor: the caller's error to report
      if ((input->kind != input_kinds_[i] || input->kind == nullptr) && !same_input(*input, i)) {
        return false;
      }
    }
    return true;
  }
  // matches but for the inputs' kinds, which the caller compares (input_kinds()).
  bool matches_call(const OpSchema& op, size_t num_inputs, const Attrs& attrs,
                    std::string_view requested, SoftPlacement mode) const {
    return &op == &op_ && mode == mode_ && num_inputs == input_kinds_.size() &&
           requested == requested_ &&
           (attrs_.empty() ? attrs.empty() : same_attrs(attrs, attrs_));
  }

  // Shape inference, T, the views and the placement of the call this plan was keyed by.
  void decide(Placer& placer);

  const OpSchema& op() const { return op_; }
  const std::string& requested() const { return requested_; }
  const Attrs& attrs() const { return attrs_; }
  SoftPlacement mode() const { return mode_; }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return num_outputs_; }  // outputs_.size(), kept: no division
  const TensorMeta* inputs() const { return inputs_.data(); }
  Device* const* input_devices() const { return input_devices_.data(); }
  const TensorMeta* outputs() const { return outputs_.data(); }
  DType t() const { return t_; }
  // The kernel's views, without memory (buffer NULL): the inputs', then the outputs', copied
  // per call, which then sets it.
  const hx_tensor_view* views() const { return views_.data(); }
  const hx_tensor_view* input_views() const { return views_.data(); }
  const hx_tensor_view* output_views() const { return views_.data() + inputs_.size(); }
  // The outputs' kinds on the plan's device (nullptr where it keeps no more).
  const TensorKind* const* output_kinds() const { return output_kinds_.data(); }
  const Placement& placement() const { return placement_; }
  const std::shared_ptr<Device>& device() const { return device_; }
  // Whether each call is placed again: a kernel the placer tried asks its check before every
  // call (KernelEntry::check_each_call).
  bool place_each_call() const { return placement_.asked_each_call; }
  // Whether a call of this plan may run the quick way (runtime/execute.cpp, run_planned): on a
  // synchronous device, placed once, with every input's kind known and on that device, and at
  // most kMostQuickOperands operands. Its caller still checks that each input is ready.
  bool quick() const { return quick_; }
  static constexpr size_t kMostQuickOperands = 8;
  const TensorKind* const* input_kinds() const { return input_kinds_.data(); }
  // The placer's request for this call, with the plan's views.
  PlacementRequest placement_request() const;

 private:
  // Whether `input` is of the dtype, shape and device of the plan's input `index`, when
  // their kinds alone cannot tell.
  bool same_input(const TensorImpl& input, size_t index) const;

  const OpSchema& op_;
  std::string requested_;
  Attrs attrs_;
  SoftPlacement mode_;
  size_t hash_;
  std::vector<TensorMeta> inputs_;
  std::vector<Device*> input_devices_;
  std::vector<const TensorKind*> input_kinds_;

  std::vector<TensorMeta> outputs_;
  size_t num_outputs_ = 0;
  DType t_ = DType::kF32;
  std::vector<Strides> strides_;  // the inputs', then the outputs'; the views point into it
  std::vector<hx_tensor_view> views_;
  std::vector<const TensorKind*> output_kinds_;
  Placement placement_;
  std::shared_ptr<Device> device_;
  bool quick_ = false;
};

class CallPlans {
 public:
  static constexpr size_t kMostPlans = 4096;

  // The plan the op's last call used when `key` is of its kind, else nullptr: a loop that runs
  // one kind of call, the common case, then hashes nothing. Lock-free; `key` may have empty
  // inputs (it then matches no plan).
  const CallPlan* find_last(const CallKey& key) const {
    const CallPlan* plan = last(key.op);
    return plan != nullptr && plan->matches(key) ? plan : nullptr;
  }
  // The plan `op`'s last call used (or another op's, which shares its slot), or nullptr.
  const CallPlan* last(const OpSchema& op) const {
    return last_plan(op).load(std::memory_order_acquire);
  }
  // The plan of `key`'s kind of call among all kept, or nullptr, which the op's next call
  // tries first (find_last). Lock-free; `key`'s inputs must be valid tensors.
  const CallPlan* find(const CallKey& key) const {
    const CallPlan* plan = table_.find(key.hash(), key);
    if (plan != nullptr) last_plan(key.op).store(plan, std::memory_order_release);
    return plan;
  }
  // Keeps `plan` (decided) and returns the plan kept for its kind, which may be another
  // thread's; once kMostPlans are kept, leaves `plan` with the caller and returns it.
  const CallPlan& keep(std::unique_ptr<CallPlan>& plan, const CallKey& key);
  size_t size() const { return kept_.load(std::memory_order_relaxed); }

 private:
  // Each op's last plan, in a slot chosen by the op's address (ops that share a slot take turns
  // in it). Only kept plans are stored there: they live as long as the table.
  static constexpr size_t kLastPlanSlots = 256;
  std::atomic<const CallPlan*>& last_plan(const OpSchema& op) const {
    const uint64_t bits = reinterpret_cast<uintptr_t>(&op) * 0x9E3779B97F4A7C15ull;
    return last_plans_[bits >> 56];
  }

  InsertOnlyTable<CallPlan> table_;
  std::atomic<size_t> kept_{0};
  mutable std::array<std::atomic<const CallPlan*>, kLastPlanSlots> last_plans_{};
};

}  // namespace hxrt::detail
