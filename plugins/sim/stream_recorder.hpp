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
  // Keeps `item` when the stream records, and says so; false (the item untouched) when not.
  bool record(WorkItem& item);
  // Stops recording and gives what was recorded; nullopt when the stream was not recording.
  std::optional<std::vector<WorkItem>> end();

 private:
  mutable std::mutex mutex_;
  bool recording_ = false;
  std::vector<WorkItem> items_;
};

}  // namespace hxsim
