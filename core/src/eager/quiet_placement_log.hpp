// While one lives on a thread, the placement log leaves out the ops that thread runs: work the
// runtime does for itself (the dynamic placer's calibration), which the user did not ask for.
#pragma once

namespace hxrt::detail {

class QuietPlacementLog {
 public:
  QuietPlacementLog() : previous_(quiet_) { quiet_ = true; }
  ~QuietPlacementLog() { quiet_ = previous_; }
  QuietPlacementLog(const QuietPlacementLog&) = delete;
  QuietPlacementLog& operator=(const QuietPlacementLog&) = delete;
  static bool active() { return quiet_; }

 private:
  static thread_local bool quiet_;
  bool previous_;
};

}  // namespace hxrt::detail
