// A map of values made on first use and kept, at most a fixed number of them: what a kernel
// instance keeps per combination of shapes (a oneDNN primitive per shape), where a workload
// whose shapes keep changing (a graph run in stages, one count of NonZero after another) would
// otherwise keep one per shape for as long as the instance lives. When full, the entry used
// least recently goes; a caller still holding it keeps it alive (shared_ptr). Any thread.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace hxplugin {

template <class Key, class Value>
class BoundedCache {
 public:
  explicit BoundedCache(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The value for `key`, made by make() (under the lock) the first time, or again after it
  // was dropped. make() may throw: nothing is kept then.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& key, Make&& make) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto found = entries_.find(key);
    if (found != entries_.end()) {
      order_.splice(order_.begin(), order_, found->second.second);  // now the most recent
      return found->second.first;
    }
    auto value = std::make_shared<const Value>(make());
    order_.push_front(key);
    try {
      entries_.emplace(key, std::make_pair(value, order_.begin()));
    } catch (...) {
      order_.pop_front();
      throw;
    }
    if (entries_.size() > capacity_) {
      entries_.erase(order_.back());
      order_.pop_back();
    }
    return value;
  }

  size_t size() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Key> order_;  // most recently used first
  std::map<Key, std::pair<std::shared_ptr<const Value>, typename std::list<Key>::iterator>>
      entries_;
};

}  // namespace hxplugin
