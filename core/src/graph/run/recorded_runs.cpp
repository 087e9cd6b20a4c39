#include "graph/run/recorded_runs.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "eager/kernel_call.hpp"
#include "graph/executable_impl.hpp"
#include "tensors/transfers.hpp"
#include "base/logger.hpp"
#include "base/status.hpp"
#include "tensors/tensor_impl.hpp"
#include "trace/trace_switch.hpp"

namespace hxrt::detail {

std::unique_ptr<RecordedRuns> RecordedRuns::for_executable(const ExecutableImpl& exe) {
  if (exe.measures) return nullptr;
  Device* device = nullptr;
  for (const StepInfo& step : exe.steps) {
    if (step.kind == StepInfo::Kind::kTransfer) return nullptr;
    if (step.kind == StepInfo::Kind::kFeed || step.kind == StepInfo::Kind::kConstant) continue;
    if (device != nullptr && step.device != device) return nullptr;
    device = step.device;
  }
  if (device == nullptr || device->plugin().recording() == nullptr) return nullptr;
  for (const StepInfo& step : exe.steps) {
    if (step.kind != StepInfo::Kind::kOp && step.device != device) return nullptr;
  }
  return std::make_unique<RecordedRuns>(exe, *device);
}

RecordedRuns::RecordedRuns(const ExecutableImpl& exe, Device& device)
    : exe_(exe), device_(device.shared_from_this()) {}

RecordedRuns::~RecordedRuns() { release(); }

void RecordedRuns::release() noexcept {
  work_.reset();  // the recording first: the plugin may hold on to the buffers it names
  views_.reset();
  for (const Device::Block& block : arenas_) device_->deallocate(block.block);
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    if (!constant_slots_[slot]) device_->deallocate(slots_[slot].block);
  }
  arenas_.clear();
  slots_.clear();
  constant_slots_.clear();
}

std::optional<std::vector<Tensor>> RecordedRuns::run(const std::vector<Tensor>& feeds) {
  if (refused_.load(std::memory_order_relaxed) || tracing()) return std::nullopt;
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;
  if (!first_run_done_) {
    first_run_done_ = true;
    return std::nullopt;
  }
  if (work_ == nullptr && !record()) return std::nullopt;
  try {
    return replay(feeds);
  } catch (const Error&) {
    // A replay's failure cannot say which of its kernels failed: the run goes again kernel by
    // kernel, whose failure names the node (and which succeeds if the fault was passing).
    return std::nullopt;
  }
}

bool RecordedRuns::record() {
  try {
    for (const ExecutableImpl::Arena& arena : exe_.arenas) {
      arenas_.push_back(device_->allocate(arena.bytes));
    }
    slots_.resize(exe_.own_tensors);
    constant_slots_.assign(exe_.own_tensors, false);
    // A constant's slot is its memory: replays read it where compile put it.
    for (const StepInfo& step : exe_.steps) {
      if (step.kind != StepInfo::Kind::kConstant) continue;
      const size_t slot = exe_.values[step.outputs[0]].tensor;
      slots_[slot] = exe_.constants[step.feed].impl()->memory;
      constant_slots_[slot] = true;
    }
    for (const ValueInfo& value : exe_.values) {
      if (value.arena != ValueInfo::kOwnMemory || constant_slots_[value.tensor]) continue;
      // A block for an empty tensor too: a view names a buffer whatever its size.
      slots_[value.tensor] = device_->allocate(std::max<size_t>(value.bytes, 1));
    }
    views_ = std::make_unique<BoundViews>(exe_);
    views_->bind_arenas(exe_, arenas_);
    work_ = std::make_unique<RecordedWork>(device_);
    record_steps();
    return true;
  } catch (const Error& error) {
    release();
    refused_.store(true, std::memory_order_relaxed);
    exe_.context->logger.write(
        LogLevel::kInfo, "a graph on " + device_->name() + " is run kernel by kernel, not " +
                             "replayed: recording its work failed: " + error.what());
    return false;
  }
}

void RecordedRuns::record_steps() {
  hx_device* const handle = device_->handle();
  work_->begin();
  try {
    for (size_t index = 0; index < exe_.steps.size(); ++index) {
      const StepInfo& step = exe_.steps[index];
      if (step.kind != StepInfo::Kind::kOp) continue;
      hx_tensor_view* views = views_->operands(step.first_operand);
      const ExecutableImpl::OwnRange& own = exe_.own_ranges[index];
      for (size_t k = own.begin; k < own.end; ++k) {
        const uint32_t operand = exe_.own_operands[k];
        const Device::Block& slot = slots_[exe_.operand_tensors[step.first_operand + operand]];
        views[operand].device = handle;
        views[operand].buffer = slot.buffer;
        views[operand].byte_offset = slot.offset;
      }
      hx_kernel_args args = views_->kernel_args(index);
      args.stream = work_->recording_stream();
      throw_if_error(call_kernel(*step.kernel, args),
                     label_of(step) + " (plugin '" + step.kernel->plugin + "')");
    }
  } catch (...) {
    work_->abandon();
    throw;
  }
  work_->end();
}

std::vector<Tensor> RecordedRuns::replay(const std::vector<Tensor>& feeds) {
  Device& device = *device_;
  // Kept until the run has waited: a copy made to this device reads from it until then.
  std::vector<Tensor> local_feeds;
  local_feeds.reserve(feeds.size());
  for (const StepInfo& step : exe_.steps) {
    if (step.kind != StepInfo::Kind::kFeed) continue;
    const Tensor& fed = feeds[step.feed];
    // Written by work that failed: the run goes kernel by kernel, whose error names the node.
    check_not_failed(*fed.impl(), "", 0);
    local_feeds.push_back(fed.impl()->device.get() == &device
                              ? fed
                              : exe_.context->eager.copy_to(fed, device));
    const ValueInfo& value = exe_.values[step.outputs[0]];
    device.copy_from(device, slots_[value.tensor], local_feeds.back().impl()->memory,
                     value.bytes);
  }
  work_->replay();
  std::map<size_t, Tensor> fetched_values;  // one tensor per value, fetched however often
  std::vector<Tensor> fetched;
  fetched.reserve(exe_.fetch_values.size());
  for (size_t value_index : exe_.fetch_values) {
    auto [at, added] = fetched_values.try_emplace(value_index);
    if (added) {
      const ValueInfo& value = exe_.values[value_index];
      at->second = make_tensor(device_, value.dtype, value.shape, value.bytes, value.kind);
      device.copy_from(device, at->second.impl()->memory, slots_[value.tensor], value.bytes);
    }
    fetched.push_back(at->second);
  }
  std::shared_ptr<ReadyEvent> ready = device.record("a replay of a recorded graph");
  for (auto& [value, tensor] : fetched_values) tensor.impl()->ready = ready;
  ready->wait();
  return fetched;
}

}  // namespace hxrt::detail
