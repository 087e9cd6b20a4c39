// A queue through which one thread hands tensors to another, so that a tensor made on one
// thread is read and dropped on another (its memory goes back to the allocator from there).
#pragma once

#include <deque>
#include <mutex>
#include <utility>
#include <vector>

#include "hxrt/tensor.hpp"

namespace stress_test {

// A tensor and the values it must hold.
struct Parcel {
  hxrt::Tensor tensor;
  std::vector<float> expected;
};

class Mailbox {
 public:
  void post(Parcel parcel) {
    std::lock_guard<std::mutex> lock(mutex_);
    parcels_.push_back(std::move(parcel));
  }
  // Everything posted so far, in order; the mailbox is left empty.
  std::deque<Parcel> take_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(parcels_, {});
  }

 private:
  std::mutex mutex_;
  std::deque<Parcel> parcels_;
};

}  // namespace stress_test
