// The sim plugin's recording group (plugin_api.h, "Recorded work"), through its function
// table: calls on a stream that records are kept, not run; a replay runs them on the buffers
// they named, after the work queued before it; the calls a recording cannot hold are refused;
// the handles are checked; the counters and the host's launch times show what each costs.
#include <hxrt/plugin_vocabulary.h>
#include <hxrt/sim_counters.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <vector>

#include "direct_plugin.hpp"
#include "sim_direct.hpp"

using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::Outcome;
using hxrt_test::View;

using sim_direct::kF32;
using sim_direct::kF32x2;
using sim_direct::kSim;
using sim_direct::kTwoGpus;
using sim_direct::transfer_counts;

namespace {

// A stream of `device`, destroyed with the object.
class Stream {
 public:
  Stream(const DirectPlugin& plugin, hx_device* device) : plugin_(plugin), device_(device) {
    REQUIRE(DirectPlugin::outcome(plugin.api().streams->create(device, &stream_)).code == HX_OK);
  }
  ~Stream() { plugin_.api().streams->destroy(device_, stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  hx_stream* get() const { return stream_; }
  void synchronize() const {
    REQUIRE(DirectPlugin::outcome(plugin_.api().streams->synchronize(device_, stream_)).code ==
            HX_OK);
  }

 private:
  const DirectPlugin& plugin_;
  hx_device* device_;
  hx_stream* stream_ = nullptr;
};

// The buffers of y = x + x, then z = copy of y, then x zeroed: three calls to record.
struct Doubling {
  explicit Doubling(const DirectPlugin& plugin, hx_device* device)
      : plugin(plugin),
        device(device),
        add(plugin.kernel("Add"), device, kF32x2, kF32),
        x(plugin.allocate(device, 256, 256)),
        y(plugin.allocate(device, 256, 256)),
        z(plugin.allocate(device, 256, 256)) {
    plugin.upload(device, x, 0, {1, 2, 3, 4});
    plugin.upload(device, y, 0, {0, 0, 0, 0});
    plugin.upload(device, z, 0, {0, 0, 0, 0});
  }
  ~Doubling() {
    for (hx_buffer* buffer : {x, y, z}) plugin.api().deallocate(device, buffer, 256);
  }
  Doubling(const Doubling&) = delete;
  Doubling& operator=(const Doubling&) = delete;

  // The three calls, on `stream`.
  void enqueue(hx_stream* stream) {
    const View in(x, 0, device, {4});
    const View out(y, 0, device, {4});
    REQUIRE(add.compute(device, stream, {in, in}, {out}).code == HX_OK);
    REQUIRE(DirectPlugin::outcome(plugin.api().copy_device_to_device(device, stream, z, 0,
                                                                     device, y, 0, 16))
                .code == HX_OK);
    REQUIRE(DirectPlugin::outcome(plugin.api().memset(device, stream, x, 0, 0, 16)).code ==
            HX_OK);
  }
  std::vector<float> read(hx_buffer* buffer) const { return plugin.download(device, buffer, 0, 4); }

  const DirectPlugin& plugin;
  hx_device* device;
  KernelInstance add;
  hx_buffer* x;
  hx_buffer* y;
  hx_buffer* z;
};

Outcome outcome(hx_status* status) { return DirectPlugin::outcome(status); }

}  // namespace

TEST_CASE("Directly: recorded calls run only when replayed, on the buffers they named",
          "[sim][direct][recording]") {
  const DirectPlugin plugin(kSim, kTwoGpus);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_recording_api* recording = hx_plugin_api_recording(&plugin.api());
  REQUIRE(recording != nullptr);
  hx_device* const device = plugin.device(0);
  Doubling work(plugin, device);
  const Stream recorder(plugin, device);
  const Stream other(plugin, device);
  const hx_sim_transfer_counts_t before = transfer_counts(plugin, 0);

  REQUIRE(outcome(recording->begin(device, recorder.get())).code == HX_OK);
  work.enqueue(recorder.get());
  hx_recording* recorded = nullptr;
  REQUIRE(outcome(recording->end(device, recorder.get(), &recorded)).code == HX_OK);
  REQUIRE(recorded != nullptr);
  recorder.synchronize();
  CHECK(work.read(work.x) == std::vector<float>{1, 2, 3, 4});  // nothing ran
  CHECK(work.read(work.z) == std::vector<float>{0, 0, 0, 0});

  REQUIRE(outcome(recording->replay(device, other.get(), recorded)).code == HX_OK);
  other.synchronize();
  CHECK(work.read(work.z) == std::vector<float>{2, 4, 6, 8});
  CHECK(work.read(work.x) == std::vector<float>{0, 0, 0, 0});

  // New bytes in the recorded input: the next replay reads them.
  plugin.upload(device, work.x, 0, {10, 20, 30, 40});
  REQUIRE(outcome(recording->replay(device, recorder.get(), recorded)).code == HX_OK);
  recorder.synchronize();
  CHECK(work.read(work.z) == std::vector<float>{20, 40, 60, 80});

  const hx_sim_transfer_counts_t after = transfer_counts(plugin, 0);
  CHECK(after.recorded_calls - before.recorded_calls == 3);
  CHECK(after.recordings - before.recordings == 1);
  CHECK(after.replays - before.replays == 2);
  CHECK(after.kernel_calls == before.kernel_calls);
  recording->destroy(device, recorded);
}

TEST_CASE("Directly: a replay runs after the work queued on its stream before it",
          "[sim][direct][recording]") {
  // Each memset takes 50 ms on the device: a replay not ordered after it would read 1..4.
  const DirectPlugin plugin(
      kSim, R"({"device_type": "GPU", "device_count": 1, "memory_mb": 1,
                "launch_latency_us": 50000})");
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_recording_api* recording = hx_plugin_api_recording(&plugin.api());
  hx_device* const device = plugin.device(0);
  Doubling work(plugin, device);
  const Stream stream(plugin, device);
  REQUIRE(outcome(recording->begin(device, stream.get())).code == HX_OK);
  work.enqueue(stream.get());
  hx_recording* recorded = nullptr;
  REQUIRE(outcome(recording->end(device, stream.get(), &recorded)).code == HX_OK);

  REQUIRE(outcome(plugin.api().memset(device, stream.get(), work.x, 0, 0, 16)).code == HX_OK);
  REQUIRE(outcome(recording->replay(device, stream.get(), recorded)).code == HX_OK);
  stream.synchronize();
  CHECK(work.read(work.z) == std::vector<float>{0, 0, 0, 0});
  recording->destroy(device, recorded);
}

TEST_CASE("Directly: a stream that records refuses what a recording cannot hold",
          "[sim][direct][recording]") {
  const DirectPlugin plugin(kSim, kTwoGpus);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  const hx_recording_api* recording = hx_plugin_api_recording(&api);
  hx_device* const device = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  const Stream stream(plugin, device);
  const Stream stream1(plugin, device1);
  hx_buffer* buffer = plugin.allocate(device, 256, 256);
  hx_event* event = nullptr;
  REQUIRE(outcome(api.events->create(device, &event)).code == HX_OK);
  std::vector<float> host(4);
  int not_a_handle = 0;

  REQUIRE(outcome(recording->begin(device, stream.get())).code == HX_OK);
  struct Refused {
    const char* what;
    Outcome outcome;
    hx_status_code code;
    const char* says;
  };
  hx_recording* none = nullptr;
  const Refused refused[] = {
      {"begin again", outcome(recording->begin(device, stream.get())), HX_FAILED_PRECONDITION,
       "records already"},
      {"a copy from the host",
       outcome(api.copy_host_to_device(device, stream.get(), buffer, 0, host.data(), 16)),
       HX_FAILED_PRECONDITION, "a copy to or from the host"},
      {"a copy to the host",
       outcome(api.copy_device_to_host(device, stream.get(), host.data(), buffer, 0, 16)),
       HX_FAILED_PRECONDITION, "a copy to or from the host"},
      {"an event record", outcome(api.events->record(device, event, stream.get())),
       HX_FAILED_PRECONDITION, "event record on stream"},
      {"a wait for an event", outcome(api.streams->wait_event(device, stream.get(), event)),
       HX_FAILED_PRECONDITION, "wait_event on stream"},
      {"a synchronize", outcome(api.streams->synchronize(device, stream.get())),
       HX_FAILED_PRECONDITION, "stream synchronize on stream"},
      {"a replay on it", outcome(recording->replay(device, stream.get(), nullptr)),
       HX_INVALID_ARGUMENT, "not a live recording"},
      {"begin on NULL", outcome(recording->begin(device, nullptr)), HX_INVALID_ARGUMENT,
       "needs a stream"},
      {"begin on another device's stream", outcome(recording->begin(device, stream1.get())),
       HX_INVALID_ARGUMENT, "belongs to simulated GPU device 1"},
      {"begin on no stream",
       outcome(recording->begin(device, reinterpret_cast<hx_stream*>(&not_a_handle))),
       HX_INVALID_ARGUMENT, "is not a live stream"},
      {"end on NULL", outcome(recording->end(device, nullptr, &none)), HX_INVALID_ARGUMENT,
       "needs a stream"},
  };
  for (const Refused& refusal : refused) {
    INFO(refusal.what);
    CHECK(refusal.outcome.code == refusal.code);
    CHECK_THAT(refusal.outcome.message, Catch::Contains(refusal.says));
  }
  hx_recording* recorded = nullptr;
  REQUIRE(outcome(recording->end(device, stream.get(), &recorded)).code == HX_OK);
  const Outcome again = outcome(recording->end(device, stream.get(), &none));
  CHECK(again.code == HX_FAILED_PRECONDITION);
  CHECK_THAT(again.message, Catch::Contains("not recording"));
  CHECK(none == nullptr);
  // A recording of no calls replays as nothing, and only on its own device.
  REQUIRE(outcome(recording->replay(device, stream.get(), recorded)).code == HX_OK);
  const Outcome elsewhere = outcome(recording->replay(device1, stream1.get(), recorded));
  CHECK(elsewhere.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(elsewhere.message, Catch::Contains("recorded on another device"));
  stream.synchronize();
  recording->destroy(device, recorded);
  recording->destroy(device, nullptr);
  api.events->destroy(device, event);
  api.deallocate(device, buffer, 256);
}

TEST_CASE("Directly: a sim call keeps its caller host_launch_us, a replay host_replay_us once",
          "[sim][direct][recording]") {
  // Lower bounds only: a loaded host makes calls slower, never faster.
  const DirectPlugin plugin(
      kSim, R"({"device_type": "GPU", "device_count": 1, "memory_mb": 1,
                "host_launch_us": 20000, "host_replay_us": 50000})");
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_recording_api* recording = hx_plugin_api_recording(&plugin.api());
  hx_device* const device = plugin.device(0);
  Doubling work(plugin, device);
  const Stream stream(plugin, device);
  using Clock = std::chrono::steady_clock;
  const auto seconds_of = [](auto body) {
    const Clock::time_point start = Clock::now();
    body();
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  CHECK(seconds_of([&] { work.enqueue(stream.get()); }) >= 3 * 0.020);
  REQUIRE(outcome(recording->begin(device, stream.get())).code == HX_OK);
  work.enqueue(stream.get());
  hx_recording* recorded = nullptr;
  REQUIRE(outcome(recording->end(device, stream.get(), &recorded)).code == HX_OK);
  CHECK(seconds_of([&] {
          REQUIRE(outcome(recording->replay(device, stream.get(), recorded)).code == HX_OK);
        }) >= 0.050);
  stream.synchronize();
  recording->destroy(device, recorded);
}

TEST_CASE("Directly: the sim's option recording false leaves the group out",
          "[sim][direct][recording]") {
  const DirectPlugin plugin(kSim, R"({"device_count": 1, "recording": false})");
  REQUIRE(plugin.init_outcome().code == HX_OK);
  CHECK(hx_plugin_api_recording(&plugin.api()) == nullptr);
  const DirectPlugin refused(kSim, R"({"device_count": 1, "host_launch_us": -1})");
  CHECK(refused.init_outcome().code == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.init_outcome().message, Catch::Contains("host_launch_us"));
}
