// Traces started and stopped while other threads run ops: each written trace is whole, and
// under ThreadSanitizer (label `threads`) the recording hooks race no start or stop.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "temp_dir.hpp"
#include "trace_reading.hpp"

TEST_CASE("traces started and stopped while two threads run ops are each written whole") {
  hxrt_test::TempDir dir("hxrt_trace_restart");
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  std::atomic<bool> done{false};
  std::atomic<int> ops{0};
  auto run_ops = [&] {
    while (!done.load()) {
      rt.execute("Add", {a, a}, {}, "CPU:0");
      ops.fetch_add(1);
    }
  };
  std::thread first(run_ops);
  std::thread second(run_ops);
  for (int i = 0; i < 20; ++i) {
    const std::string path = (dir.path() / ("trace" + std::to_string(i) + ".json")).string();
    const int before = ops.load();
    rt.start_trace(path);
    while (ops.load() < before + 4) std::this_thread::yield();  // ops ran while it recorded
    CHECK(rt.stop_trace() == path);
    const trace_test::json trace = trace_test::read_trace(path);
    CHECK(trace.at("otherData").at("dropped_events") == 0);
  }
  done.store(true);
  first.join();
  second.join();
}
