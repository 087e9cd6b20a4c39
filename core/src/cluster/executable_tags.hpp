// The MPI tags of the messages of one executable across tasks, the same on every task: the
// client gives each executable a range of its own, so that no message of one is taken for
// another's (messages are matched by source and tag).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hxrt::detail {

// Tags below this are the cluster's own: the device tables, the services' requests.
constexpr int kFirstExecutableTag = 16;

struct ExecutableTags {
  int64_t first = kFirstExecutableTag;  // of its range
  int64_t stride = 1;                   // the number of tasks: each client's tags apart

  int reply() const { return at(0); }    // a task's answer to the compile
  int failure() const { return at(1); }  // a task's part failed
  int value(size_t index) const { return at(2 + index); }
  // How many slots an executable of `values` values takes.
  static size_t slots(size_t values) { return values + 2; }

 private:
  int at(size_t slot) const {
    return static_cast<int>(first + static_cast<int64_t>(slot) * stride);
  }
};

}  // namespace hxrt::detail
