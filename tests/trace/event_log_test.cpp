// The event log driven directly: the cap of the trace an event lands in, and appends that race
// a reset (a thread that saw tracing on just before a stop appends while the next trace
// starts); under ThreadSanitizer (label `threads`) such an append must race nothing.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "trace/event_log.hpp"

using hxrt::detail::DrainedEvents;
using hxrt::detail::EventLog;
using hxrt::detail::TraceEvent;

namespace {

void append_one(EventLog& log) {
  TraceEvent event;
  event.kind = TraceEvent::Kind::kFree;
  log.append(std::move(event));
}

}  // namespace

TEST_CASE("an event log keeps at most its cap and counts the rest as dropped") {
  EventLog log;
  log.reset(3);
  for (int i = 0; i < 10; ++i) append_one(log);
  const DrainedEvents drained = log.drain();
  CHECK(drained.events.size() == 3);
  CHECK(drained.dropped == 7);
}

TEST_CASE("appends racing resets of the cap keep the cap of the last reset") {
  EventLog log;
  log.reset(1000);
  std::atomic<bool> done{false};
  std::atomic<int> appended{0};
  std::thread appender([&] {
    while (!done.load(std::memory_order_relaxed)) {
      append_one(log);
      appended.fetch_add(1, std::memory_order_relaxed);
    }
  });
  while (appended.load() == 0) std::this_thread::yield();
  for (int i = 0; i < 2000; ++i) log.reset(i % 2 == 0 ? 10 : 1000);
  done.store(true);
  appender.join();

  log.reset(5);
  for (int i = 0; i < 8; ++i) append_one(log);
  const DrainedEvents drained = log.drain();
  CHECK(drained.events.size() == 5);
  CHECK(drained.dropped == 3);
}
