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

StreamRecorder::Offer StreamRecorder::record(WorkItem& item, bool recordable) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recording_) return Offer::kNotRecording;
  if (!recordable) return Offer::kRefused;
  items_.push_back(std::move(item));
  return Offer::kRecorded;
}

std::optional<std::vector<WorkItem>> StreamRecorder::end() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recording_) return std::nullopt;
  recording_ = false;
  return std::exchange(items_, {});
}

}  // namespace hxsim
