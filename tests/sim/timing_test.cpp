// The sim's device timing (events.elapsed_ns), through its function table: the time between two
// events is the work's modelled time on the stream's clock, not the host's time between the
// calls; work the model gives no time takes the host time it took; and every misuse the ABI
// names is refused with its code. Modelled times are exact, so the bounds are tight where the
// model sets the time and loose only where the host's clock does.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "async_rig.hpp"
#include "direct_plugin.hpp"

using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::View;

using sim_async::code;
using sim_async::Rig;

namespace {

using Clock = std::chrono::steady_clock;

// An 8x8 MatMul is 2 * 8^3 = 1024 flops: at this many GFLOP/s it takes `seconds` (written in
// full: std::to_string would keep six decimals of a figure around 1e-5).
std::string matmul_taking(double seconds) {
  std::ostringstream option;
  option << std::setprecision(17) << R"("matmul_gflops": )" << 1024.0 / seconds / 1e9;
  return option.str();
}

// An event of `device` (0 or 1 in the rig), destroyed with the object.
class Event {
 public:
  Event(const Rig& rig, int device) : rig_(rig), device_(rig.device[device]) {
    REQUIRE(code(rig.api().events->create(device_, &event_)) == HX_OK);
  }
  ~Event() { rig_.api().events->destroy(device_, event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  hx_event* get() const { return event_; }
  void record(hx_stream* stream) const {
    REQUIRE(code(rig_.api().events->record(device_, event_, stream)) == HX_OK);
  }
  void synchronize() const {
    REQUIRE(code(rig_.api().events->synchronize(device_, event_)) == HX_OK);
  }

 private:
  const Rig& rig_;
  hx_device* device_;
  hx_event* event_ = nullptr;
};

// An 8x8 MatMul queued on device 0's stream: identity times a ramp, into a third buffer.
class QueuedMatMul {
 public:
  explicit QueuedMatMul(const Rig& rig)
      : rig_(rig),
        instance_(rig.plugin.kernel("MatMul"), rig.device[0],
                  std::vector<int32_t>{HX_DTYPE_F32, HX_DTYPE_F32},
                  std::vector<int32_t>{HX_DTYPE_F32}) {
    for (int i = 0; i < 3; ++i) buffers_.push_back(rig.plugin.allocate(rig.device[0], 256, 256));
    std::vector<float> identity(64, 0);
    for (int i = 0; i < 8; ++i) identity[static_cast<size_t>(i) * 9] = 1;
    rig.plugin.upload(rig.device[0], buffers_[0], 0, identity);
    rig.plugin.upload(rig.device[0], buffers_[1], 0, std::vector<float>(64, 2));
  }
  ~QueuedMatMul() {
    rig_.synchronize(0);
    for (hx_buffer* buffer : buffers_) rig_.api().deallocate(rig_.device[0], buffer, 256);
  }

  void enqueue() {
    const View a(buffers_[0], 0, rig_.device[0], {8, 8});
    const View b(buffers_[1], 0, rig_.device[0], {8, 8});
    const View c(buffers_[2], 0, rig_.device[0], {8, 8});
    REQUIRE(instance_.compute(rig_.device[0], rig_.stream[0], {a, b}, {c}).code == HX_OK);
  }

 private:
  const Rig& rig_;
  KernelInstance instance_;
  std::vector<hx_buffer*> buffers_;
};

hxrt_test::Outcome elapsed(const Rig& rig, int device, const Event& start, const Event& end,
                           uint64_t* ns) {
  return DirectPlugin::outcome(
      rig.api().events->elapsed_ns(rig.device[device], start.get(), end.get(), ns));
}

uint64_t elapsed_ok(const Rig& rig, const Event& start, const Event& end) {
  uint64_t ns = 0;
  const hxrt_test::Outcome outcome = elapsed(rig, 0, start, end, &ns);
  INFO(outcome.message);
  REQUIRE(outcome.code == HX_OK);
  return ns;
}

constexpr double kMs = 1e6;  // nanoseconds

}  // namespace

TEST_CASE("Sim timing: the events group offers elapsed_ns at this ABI's size",
          "[sim][direct][timing]") {
  const Rig rig("");
  CHECK(rig.api().events->struct_size == HX_EVENT_API_STRUCT_SIZE);
  CHECK(rig.api().events->elapsed_ns != nullptr);
}

TEST_CASE("Sim timing: a MatMul modelled at 20 ms between two events times 20 ms, whatever the "
          "host did meanwhile", "[sim][direct][timing]") {
  const Rig rig(matmul_taking(0.020));
  QueuedMatMul matmul(rig);
  const Event start(rig, 0);
  const Event end(rig, 0);
  start.record(rig.stream[0]);
  // The host's time between the records is not the device's: the stream sits idle.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  matmul.enqueue();
  end.record(rig.stream[0]);
  end.synchronize();
  CHECK(static_cast<double>(elapsed_ok(rig, start, end)) == Approx(20 * kMs).margin(0.01 * kMs));
  CHECK(elapsed_ok(rig, start, start) == 0);
}

TEST_CASE("Sim timing: spans of consecutive modelled work add up on the stream's clock",
          "[sim][direct][timing]") {
  const Rig rig(matmul_taking(0.005) + R"(, "launch_latency_us": 1000)");
  QueuedMatMul matmul(rig);
  const Event first(rig, 0);
  const Event second(rig, 0);
  const Event third(rig, 0);
  first.record(rig.stream[0]);
  matmul.enqueue();
  second.record(rig.stream[0]);
  matmul.enqueue();
  matmul.enqueue();
  third.record(rig.stream[0]);
  third.synchronize();
  // Each MatMul: its launch latency plus its flops, 1 + 5 ms.
  CHECK(static_cast<double>(elapsed_ok(rig, first, second)) == Approx(6 * kMs).margin(0.01 * kMs));
  CHECK(static_cast<double>(elapsed_ok(rig, second, third)) == Approx(12 * kMs).margin(0.01 * kMs));
  CHECK(elapsed_ok(rig, first, third) ==
        elapsed_ok(rig, first, second) + elapsed_ok(rig, second, third));
}

TEST_CASE("Sim timing: work the model gives no time takes the host time it took",
          "[sim][direct][timing]") {
  const Rig rig("");  // no model: every item's modelled time is 0
  hx_buffer* buffer = rig.plugin.allocate(rig.device[0], 512 << 10, 256);
  const Event start(rig, 0);
  const Event end(rig, 0);
  const Clock::time_point began = Clock::now();
  start.record(rig.stream[0]);
  for (int i = 0; i < 8; ++i) {
    REQUIRE(code(rig.api().memset(rig.device[0], rig.stream[0], buffer, 0, 7, 512 << 10)) ==
            HX_OK);
  }
  end.record(rig.stream[0]);
  end.synchronize();
  const auto wall =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - began).count();
  const uint64_t ns = elapsed_ok(rig, start, end);
  CHECK(ns > 0);
  CHECK(ns <= static_cast<uint64_t>(wall));
  rig.api().deallocate(rig.device[0], buffer, 512 << 10);
}

TEST_CASE("Sim timing: elapsed_ns refuses what the ABI rules out, naming it",
          "[sim][direct][timing]") {
  const Rig rig(matmul_taking(0.5), 2);
  QueuedMatMul matmul(rig);
  const Event start(rig, 0);
  const Event end(rig, 0);
  uint64_t ns = 12345;

  SECTION("an event never recorded, or recorded with stream NULL: FAILED_PRECONDITION") {
    end.record(rig.stream[0]);
    hxrt_test::Outcome got = elapsed(rig, 0, start, end, &ns);
    CHECK(got.code == HX_FAILED_PRECONDITION);
    CHECK_THAT(got.message, Catch::Contains("was never recorded on a stream"));
    start.record(nullptr);
    got = elapsed(rig, 0, start, end, &ns);
    CHECK(got.code == HX_FAILED_PRECONDITION);
    CHECK_THAT(got.message, Catch::Contains("recorded with stream NULL"));
  }
  SECTION("work not yet completed: FAILED_PRECONDITION until it has") {
    start.record(rig.stream[0]);
    matmul.enqueue();  // half a second by the model
    end.record(rig.stream[0]);
    const hxrt_test::Outcome early = elapsed(rig, 0, start, end, &ns);
    CHECK(early.code == HX_FAILED_PRECONDITION);
    CHECK_THAT(early.message, Catch::Contains("has not completed yet; synchronize the end event"));
    end.synchronize();
    CHECK(static_cast<double>(elapsed_ok(rig, start, end)) == Approx(500 * kMs).margin(0.01 * kMs));
  }
  SECTION("a start recorded after the end: INVALID_ARGUMENT") {
    end.record(rig.stream[0]);
    matmul.enqueue();
    start.record(rig.stream[0]);
    start.synchronize();
    const hxrt_test::Outcome got = elapsed(rig, 0, start, end, &ns);
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("was recorded after the end event"));
  }
  SECTION("events of two streams: INVALID_ARGUMENT") {
    hx_stream* other = nullptr;
    REQUIRE(code(rig.api().streams->create(rig.device[0], &other)) == HX_OK);
    start.record(rig.stream[0]);
    end.record(other);
    const hxrt_test::Outcome got = elapsed(rig, 0, start, end, &ns);
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("were recorded on different streams"));
    rig.api().streams->destroy(rig.device[0], other);
  }
  SECTION("an event of another device: INVALID_ARGUMENT naming its device") {
    const Event foreign(rig, 1);
    start.record(rig.stream[0]);
    foreign.record(rig.stream[1]);
    const hxrt_test::Outcome got = elapsed(rig, 0, start, foreign, &ns);
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("belongs to"));
  }
  SECTION("a handle that is no live event: INVALID_ARGUMENT") {
    start.record(rig.stream[0]);
    hx_event* never_created = reinterpret_cast<hx_event*>(&ns);
    const hxrt_test::Outcome got = DirectPlugin::outcome(
        rig.api().events->elapsed_ns(rig.device[0], start.get(), never_created, &ns));
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("is not a live event"));
  }
  CHECK(ns == 12345);  // no refusal writes the result
}
