// What queued work reports when it fails as it runs (plugin_api.h, "Errors of queued work"),
// and the failures of one stream between two clears. Failures are kept as code and text, not
// as hx_status objects: each synchronize and query that reports one makes its own status, and
// the core destroys each.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hxsim {

struct SimPlugin;

struct WorkFailure {
  hx_status_code code = HX_INTERNAL;
  std::string message;
};

// The outcome of one item of work: empty when it succeeded.
using WorkResult = std::optional<WorkFailure>;

// A new status carrying `failure` (NULL when there is none).
hx_status* to_status(const SimPlugin& plugin, const WorkResult& failure);

// The failures of the work enqueued on one stream since the stream was last cleared (by stream
// synchronize), each with the position of the work in the stream (its CompletionLine). An
// event keeps the epoch it was recorded in, so it reports that epoch's failures up to its
// position for as long as it lives, whatever clears come after; work enqueued after a clear
// fails into the next epoch. Thread-safe.
class FailureEpoch {
 public:
  FailureEpoch() = default;
  // The epoch after a clear: the failures of `previous` at positions after `position`, which
  // belong to work enqueued after the point that was cleared.
  FailureEpoch(const FailureEpoch& previous, uint64_t position);
  FailureEpoch& operator=(const FailureEpoch&) = delete;

  // Positions are added in increasing order: a stream runs its work in order.
  void add(uint64_t position, WorkFailure failure);
  // The first failure at a position up to `position`.
  WorkResult first_through(uint64_t position) const;
  // Every failure, in order.
  std::vector<WorkFailure> all() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<uint64_t, WorkFailure>> failures_;
};

}  // namespace hxsim
