#include "lost_contexts.hpp"

#include <atomic>
#include <map>
#include <mutex>

namespace hxcuda {
namespace {

struct LostContexts {
  // Read without the lock first: every event query and synchronize asks, and while no device
  // is lost (always, outside tests of fault_ops) the answer must cost one load.
  std::atomic<bool> any{false};
  std::mutex mutex;
  std::map<int, std::string> why;  // by CUDA ordinal
};

// Never destroyed: a late free or destroy at process exit may still ask.
LostContexts& lost() {
  static LostContexts* contexts = new LostContexts;
  return *contexts;
}

}  // namespace

void note_lost_context(int cuda_ordinal, const std::string& description) {
  LostContexts& contexts = lost();
  std::lock_guard<std::mutex> lock(contexts.mutex);
  contexts.why.emplace(cuda_ordinal, description);
  contexts.any.store(true, std::memory_order_release);
}

std::string lost_context(int cuda_ordinal) {
  LostContexts& contexts = lost();
  if (!contexts.any.load(std::memory_order_acquire)) return {};
  std::lock_guard<std::mutex> lock(contexts.mutex);
  const auto found = contexts.why.find(cuda_ordinal);
  return found == contexts.why.end() ? std::string() : found->second;
}

}  // namespace hxcuda
