#include "work_failure.hpp"

#include <hxplugin/status.hpp>

#include "plugin_state.hpp"

namespace hxsim {

hx_status* to_status(const SimPlugin& plugin, const WorkResult& failure) {
  if (!failure) return nullptr;
  return hxplugin::make_status(*plugin.services, failure->code, "%s", failure->message.c_str());
}

FailureEpoch::FailureEpoch(const FailureEpoch& previous, uint64_t position) {
  std::lock_guard<std::mutex> lock(previous.mutex_);
  for (const auto& failure : previous.failures_) {
    if (failure.first > position) failures_.push_back(failure);
  }
}

void FailureEpoch::add(uint64_t position, WorkFailure failure) {
  std::lock_guard<std::mutex> lock(mutex_);
  failures_.emplace_back(position, std::move(failure));
}

WorkResult FailureEpoch::first_through(uint64_t position) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // In position order: only the first can be at or before `position` if any is.
  if (failures_.empty() || failures_.front().first > position) return std::nullopt;
  return failures_.front().second;
}

std::vector<WorkFailure> FailureEpoch::all() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<WorkFailure> failures;
  for (const auto& failure : failures_) failures.push_back(failure.second);
  return failures;
}

}  // namespace hxsim
