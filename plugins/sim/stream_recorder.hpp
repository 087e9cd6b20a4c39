// What one stream records between the recording group's begin and end (plugin_api.h, "Recorded
// work"): the items its calls would have queued, kept instead of run. Each item keeps the
// buffers it names pinned (device_memory.hpp) for as long as the recording that takes it lives,
// so a replay finds them where they were when it was recorded.
#pragma once

#include <mutex>
#include <optional>
#include <vector>

#include "work_queue.hpp"

namespace hxsim {

class StreamRecorder {
 public:
  // Starts recording; false when the stream records already.
  bool begin();
  bool recording() const;
  // What became of an item offered to record.
  enum class Offer { kNotRecording, kRecorded, kRefused };
  // Keeps `item` when the stream records and it is `recordable`; refuses one that is not; and
  // leaves it untouched when the stream does not record. One lock either way.
  Offer record(WorkItem& item, bool recordable);
  // Stops recording and gives what was recorded; nullopt when the stream was not recording.
  std::optional<std::vector<WorkItem>> end();

 private:
  mutable std::mutex mutex_;
  bool recording_ = false;
  std::vector<WorkItem> items_;
};

}  // namespace hxsim
