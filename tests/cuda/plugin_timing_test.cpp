// Device timing on the GPU (events.elapsed_ns, which is cudaEventElapsedTime), through the
// function table: MatMuls queued between events take GPU time that grows with the work, adds
// up over consecutive spans and fits in the host's time around it; an event recorded before
// a stream's first work times from the start of that work; and misuse is refused with the
// codes plugin_api.h gives. Needs a GPU, except for the table's shape.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "plugin_direct.hpp"

using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using cuda_direct::require_ok;
using hxrt_test::KernelInstance;
using hxrt_test::View;

namespace {

using Clock = std::chrono::steady_clock;

// 2 * 4096^3 flops per MatMul: milliseconds on any GPU, far above the event clock's half a
// microsecond.
constexpr int64_t kN = 4096;
constexpr size_t kMatrixBytes = sizeof(float) * kN * kN;
// How far two consecutive spans may be from the span over both: float milliseconds' rounding.
constexpr uint64_t kSumToleranceNs = 2000;

// Three kN x kN float32 matrices (zeros) and a MatMul instance that multiplies the first two
// into the third on a stream.
class MatMuls {
 public:
  MatMuls(const DirectPlugin& plugin, hx_device* device)
      : plugin_(plugin),
        device_(device),
        instance_(plugin.kernel("MatMul"), device,
                  std::vector<int32_t>{HX_DTYPE_F32, HX_DTYPE_F32},
                  std::vector<int32_t>{HX_DTYPE_F32}) {
    require_ok(instance_.created());
    for (hx_buffer*& buffer : buffers_) {
      require_ok(DirectPlugin::outcome(plugin.api().allocate(device, kMatrixBytes, 256, &buffer)));
      require_ok(DirectPlugin::outcome(plugin.api().memset(device, nullptr, buffer, 0, 0, kMatrixBytes)));
    }
  }
  ~MatMuls() {
    for (hx_buffer* buffer : buffers_) plugin_.api().deallocate(device_, buffer, kMatrixBytes);
  }

  void enqueue(hx_stream* stream, int count) {
    const View a(buffers_[0], 0, device_, {kN, kN});
    const View b(buffers_[1], 0, device_, {kN, kN});
    const View c(buffers_[2], 0, device_, {kN, kN});
    for (int i = 0; i < count; ++i) require_ok(instance_.compute(device_, stream, {a, b}, {c}));
  }

 private:
  const DirectPlugin& plugin_;
  hx_device* device_;
  KernelInstance instance_;
  hx_buffer* buffers_[3] = {nullptr, nullptr, nullptr};
};

// A stream and events of one device, destroyed (after the stream's work) at scope end.
struct Handles {
  Handles(const hx_plugin_api& api, hx_device* device, int event_count)
      : api(api), device(device), events(static_cast<size_t>(event_count), nullptr) {
    require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
    for (hx_event*& event : events) {
      require_ok(DirectPlugin::outcome(api.events->create(device, &event)));
    }
  }
  ~Handles() {
    (void)DirectPlugin::outcome(api.streams->synchronize(device, stream));
    for (hx_event* event : events) api.events->destroy(device, event);
    api.streams->destroy(device, stream);
  }
  void record(int event) const {
    require_ok(DirectPlugin::outcome(api.events->record(device, events[event], stream)));
  }
  Outcome elapsed(int start, int end, uint64_t* ns) const {
    return DirectPlugin::outcome(api.events->elapsed_ns(device, events[start], events[end], ns));
  }
  uint64_t elapsed_ok(int start, int end) const {
    uint64_t ns = 0;
    require_ok(elapsed(start, end, &ns));
    return ns;
  }

  const hx_plugin_api& api;
  hx_device* device;
  hx_stream* stream = nullptr;
  std::vector<hx_event*> events;
};

uint64_t nanoseconds_since(Clock::time_point since) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - since).count());
}

}  // namespace

TEST_CASE("Directly: the events group offers elapsed_ns at this ABI's size",
          "[cuda][events][timing]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CHECK(plugin.api().events->struct_size == HX_EVENT_API_STRUCT_SIZE);
  CHECK(plugin.api().events->elapsed_ns != nullptr);
}

TEST_CASE("Directly: events time MatMuls by the GPU's clock, in order and adding up",
          "[cuda][events][timing][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  MatMuls matmuls(plugin, device);
  const Handles timed(plugin.api(), device, 3);
  // Loading cuBLAS and making its handle happen at the first MatMul: not in the spans.
  matmuls.enqueue(timed.stream, 1);
  require_ok(DirectPlugin::outcome(plugin.api().streams->synchronize(device, timed.stream)));

  const Clock::time_point began = Clock::now();
  timed.record(0);
  matmuls.enqueue(timed.stream, 1);
  timed.record(1);
  matmuls.enqueue(timed.stream, 4);
  timed.record(2);
  require_ok(DirectPlugin::outcome(plugin.api().events->synchronize(device, timed.events[2])));
  const uint64_t wall = nanoseconds_since(began);

  const uint64_t one = timed.elapsed_ok(0, 1);
  const uint64_t four = timed.elapsed_ok(1, 2);
  const uint64_t all = timed.elapsed_ok(0, 2);
  INFO("one MatMul " << one << " ns, four " << four << " ns, all " << all << " ns, host " << wall
                     << " ns");
  CHECK(one > 0);
  CHECK(four > 2 * one);  // four times the work
  CHECK(all + kSumToleranceNs >= one + four);
  CHECK(all <= one + four + kSumToleranceNs);
  CHECK(all <= wall);  // the GPU's span lies inside the host's
  CHECK(timed.elapsed_ok(1, 1) == 0);
}

TEST_CASE("Directly: an event recorded before a stream's first work times from that work",
          "[cuda][events][timing][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  MatMuls matmuls(plugin, device);
  {
    const Handles warm(plugin.api(), device, 0);  // cuBLAS loaded outside the span
    matmuls.enqueue(warm.stream, 1);
  }
  const Handles fresh(plugin.api(), device, 3);
  const Clock::time_point began = Clock::now();
  fresh.record(0);  // no work on the stream yet: no CUDA event, reached at once
  fresh.record(1);
  matmuls.enqueue(fresh.stream, 2);
  fresh.record(2);
  require_ok(DirectPlugin::outcome(plugin.api().events->synchronize(device, fresh.events[2])));
  const uint64_t wall = nanoseconds_since(began);
  const uint64_t span = fresh.elapsed_ok(0, 2);
  INFO("two MatMuls " << span << " ns, host " << wall << " ns");
  CHECK(span > 0);
  CHECK(span <= wall);
  CHECK(fresh.elapsed_ok(0, 1) == 0);  // both before any work
  uint64_t ns = 0;
  CHECK(fresh.elapsed(2, 0, &ns).code == HX_INVALID_ARGUMENT);  // the end before the start
}

TEST_CASE("Directly: elapsed_ns refuses unfinished work, a start after the end, an event never "
          "recorded and events of two streams", "[cuda][events][timing][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  MatMuls matmuls(plugin, device);
  const Handles timed(plugin.api(), device, 3);
  const Handles other(plugin.api(), device, 1);
  matmuls.enqueue(timed.stream, 1);
  require_ok(DirectPlugin::outcome(plugin.api().streams->synchronize(device, timed.stream)));

  timed.record(0);
  matmuls.enqueue(timed.stream, 20);  // tens of milliseconds at least
  timed.record(1);
  uint64_t ns = 0;
  const Outcome early = timed.elapsed(0, 1, &ns);
  CHECK(early.code == HX_FAILED_PRECONDITION);
  CHECK_THAT(early.message, Catch::Contains("has not completed yet"));
  require_ok(DirectPlugin::outcome(plugin.api().events->synchronize(device, timed.events[1])));
  CHECK(timed.elapsed_ok(0, 1) > 0);

  const Outcome reversed = timed.elapsed(1, 0, &ns);
  CHECK(reversed.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(reversed.message, Catch::Contains("was recorded after the end event"));

  const Outcome unrecorded = timed.elapsed(2, 1, &ns);  // event 2 was never recorded
  CHECK(unrecorded.code == HX_FAILED_PRECONDITION);
  CHECK_THAT(unrecorded.message, Catch::Contains("was never recorded on a stream"));

  other.record(0);
  const Outcome across = DirectPlugin::outcome(plugin.api().events->elapsed_ns(
      device, timed.events[0], other.events[0], &ns));
  CHECK(across.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(across.message, Catch::Contains("were recorded on different streams"));
}
