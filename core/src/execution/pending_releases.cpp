#include "execution/pending_releases.hpp"

namespace hxrt::detail {

bool PendingReleases::all_done(const Events& events) {
  for (const std::shared_ptr<ReadyEvent>& event : events) {
    if (!event->done()) return false;  // a failed read counts as done: it reads no more
  }
  return true;
}

void PendingReleases::add(Events&& events, std::function<void()> release) {
  if (all_done(events)) {
    release();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.reserve(entries_.size() + 1);  // the only step that may throw: nothing moved yet
  entries_.push_back({std::move(events), std::move(release)});
  count_.store(entries_.size(), std::memory_order_release);
}

void PendingReleases::reclaim_some() {
  // Queries and releases run outside the lock: both call the plugin.
  std::vector<Entry> taken;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    taken.swap(entries_);
    count_.store(0, std::memory_order_release);
  }
  std::vector<Entry> waiting;
  for (Entry& entry : taken) {
    if (all_done(entry.events)) {
      entry.release();
    } else {
      waiting.push_back(std::move(entry));
    }
  }
  if (waiting.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (Entry& entry : waiting) entries_.push_back(std::move(entry));
  count_.store(entries_.size(), std::memory_order_release);
}

bool PendingReleases::drain() {
  std::vector<Entry> taken;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    taken.swap(entries_);
    count_.store(0, std::memory_order_release);
  }
  for (Entry& entry : taken) {
    for (const std::shared_ptr<ReadyEvent>& event : entry.events) {
      try {
        event->wait();
      } catch (const Error&) {
        // Kept by the event for whoever waits for its tensor; the read is over either way.
      }
    }
    entry.release();
  }
  return !taken.empty();
}

}  // namespace hxrt::detail
