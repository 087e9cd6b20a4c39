#include "sections/stream_calls.hpp"

#include <thread>

#include "call_text.hpp"

namespace hxrt_conformance::stream_section {

std::string failed_call(const std::string& call, hx_status* status) {
  const Outcome outcome = KitCore::take(status);
  return outcome.ok() ? std::string() : call_failed(call, outcome);
}

std::string first_failure(std::initializer_list<std::string> failures) {
  for (const std::string& failure : failures) {
    if (!failure.empty()) return failure;
  }
  return {};
}

PollResult poll_until_done(const std::function<hx_status*(bool* out_done)>& query) {
  const auto deadline = std::chrono::steady_clock::now() + kQueryLimit;
  PollResult result;
  for (;;) {
    bool done = false;
    result.outcome = KitCore::take(query(&done));
    if (!result.outcome.ok() || done) {
      result.done = done && result.outcome.ok();
      return result;
    }
    if (std::chrono::steady_clock::now() > deadline) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace hxrt_conformance::stream_section
