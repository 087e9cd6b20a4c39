// The last few measurements of one cost, and their median: one slow sample (a page fault, a
// descheduled thread) moves a median of nine not at all, where it would move a mean, and a
// changed cost takes over once it is most of the window.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace hxrt::detail {

class SampleWindow {
 public:
  static constexpr size_t kSize = 9;

  void add(double seconds) {
    samples_[next_] = seconds;
    next_ = (next_ + 1) % kSize;
    if (count_ < kSize) ++count_;
  }
  size_t count() const { return count_; }
  // The samples kept, oldest first.
  std::vector<double> values() const {
    std::vector<double> out;
    for (size_t i = 0; i < count_; ++i) {
      out.push_back(samples_[(next_ + kSize - count_ + i) % kSize]);
    }
    return out;
  }
  // The median of the samples kept; 0 when there are none.
  double median() const {
    if (count_ == 0) return 0;
    std::array<double, kSize> sorted = samples_;
    std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(count_));
    return count_ % 2 == 1 ? sorted[count_ / 2]
                           : (sorted[count_ / 2 - 1] + sorted[count_ / 2]) / 2;
  }

 private:
  std::array<double, kSize> samples_{};
  size_t next_ = 0;
  size_t count_ = 0;
};

}  // namespace hxrt::detail
