#include "stream_recorder.hpp"

#include <utility>

namespace hxsim {

bool StreamRecorder::begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (recording_) return false;
  recording_ = true;
  items_.clear();
  return true;
}

bool StreamRecorder::recording() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recording_;
}

bool StreamRecorder::record(WorkItem& item) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recording_) return false;
  items_.push_back(std::move(item));
  return true;
}

std::optional<std::vector<WorkItem>> StreamRecorder::end() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recording_) return std::nullopt;
  recording_ = false;
  return std::exchange(items_, {});
}

}  // namespace hxsim
