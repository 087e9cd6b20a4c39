// A log sink may use the runtime it logs for: run an op, compile and run a graph, or wait for
// another thread that does, whose work logs in turn. The runtime holds no lock while the sink
// runs, so none of this deadlocks; the lines logged meanwhile reach the sink after it returns,
// one at a time and in order.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime_fixture.hpp"

using runtime_test::cpu_only_options;

namespace {

// Runs `body` on a thread of its own and says whether it finished within `seconds`; a body
// that deadlocks is left behind, so that the test fails instead of hanging.
bool finishes_within(int seconds, std::function<void()> body) {
  struct Shared {
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
  };
  auto shared = std::make_shared<Shared>();
  std::thread([shared, body = std::move(body)] {
    body();
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->finished = true;
    shared->done.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(shared->mutex);
  return shared->done.wait_for(lock, std::chrono::seconds(seconds),
                               [&] { return shared->finished; });
}

// Lines the sink saw, and how deep in the sink each arrived (0: not inside it).
struct SinkRecord {
  std::mutex mutex;
  std::vector<std::string> lines;
  int depth = 0;
  int deepest = 0;

  // Keeps `message`, counting the sink entered; true for the first line.
  bool enter(std::string_view message) {
    std::lock_guard<std::mutex> lock(mutex);
    lines.emplace_back(message);
    ++depth;
    deepest = std::max(deepest, depth);
    return lines.size() == 1;
  }
  void leave() {
    std::lock_guard<std::mutex> lock(mutex);
    --depth;
  }
};

const std::string kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";

}  // namespace

TEST_CASE("A log sink that runs an op itself does not deadlock, and sees the op's line after "
          "its own", "[runtime][log]") {
  auto record = std::make_shared<SinkRecord>();
  const bool finished = finishes_within(30, [record] {
    hxrt::RuntimeOptions options = cpu_only_options();
    options.log_device_placement = true;
    hxrt::Runtime* runtime = nullptr;
    options.log_sink = [record, &runtime](hxrt::LogLevel, std::string_view message) {
      if (record->enter(message) && runtime != nullptr) {
        // An op inside the sink: its placement line is logged while the sink runs.
        const hxrt::Tensor x = runtime->tensor<float>({2}, {-1, 2});
        runtime->execute("Relu", {x});
      }
      record->leave();
    };
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    runtime = &rt;
    const hxrt::Tensor a = rt.tensor<float>({2}, {1, 2});
    rt.execute("Add", {a, a});
  });
  REQUIRE(finished);
  std::lock_guard<std::mutex> lock(record->mutex);
  CHECK(record->lines == std::vector<std::string>{"Executing op Add in device " + kCpu,
                                                  "Executing op Relu in device " + kCpu});
  CHECK(record->deepest == 1);  // the second line came after the sink returned
}

TEST_CASE("A log sink that compiles and runs a graph, and waits for a thread that logs, does "
          "not deadlock", "[runtime][log]") {
  auto record = std::make_shared<SinkRecord>();
  const bool finished = finishes_within(30, [record] {
    hxrt::RuntimeOptions options = cpu_only_options();
    options.log_device_placement = true;
    hxrt::Runtime* runtime = nullptr;
    options.log_sink = [record, &runtime](hxrt::LogLevel, std::string_view message) {
      const bool first = record->enter(message);
      record->leave();
      if (!first || runtime == nullptr) return;
      hxrt::GraphBuilder builder(*runtime);
      const hxrt::NodeOutput y =
          builder.add("y", "Relu", {builder.input("x", hxrt::DType::kF32, {2})});
      const hxrt::Executable exe = runtime->compile(builder.graph(), {y});
      exe.run({{"x", runtime->tensor<float>({2}, {-3, 3})}});
      // Another thread's line while this one is in the sink: queued, not waited for.
      std::thread other([runtime] {
        const hxrt::Tensor x = runtime->tensor<float>({2}, {1, 1});
        runtime->execute("Mul", {x, x});
      });
      other.join();
    };
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    runtime = &rt;
    const hxrt::Tensor a = rt.tensor<float>({2}, {1, 2});
    rt.execute("Add", {a, a});
  });
  REQUIRE(finished);
  std::lock_guard<std::mutex> lock(record->mutex);
  INFO([&] {
    std::string all;
    for (const std::string& line : record->lines) all += line + "\n";
    return all;
  }());
  REQUIRE(record->lines.size() >= 3);
  CHECK(record->lines.front() == "Executing op Add in device " + kCpu);
  CHECK(std::count(record->lines.begin(), record->lines.end(),
                   "Executing op Mul in device " + kCpu) == 1);
  // The graph's placement lines came in between.
  CHECK(std::any_of(record->lines.begin(), record->lines.end(), [](const std::string& line) {
    return line.find("y: (Relu): " + kCpu) != std::string::npos;
  }));
}
