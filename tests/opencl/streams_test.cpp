// Streams as in-order command queues, events as markers, and one stream waiting on another's
// event on the device.
#include <catch2/catch.hpp>

#include <vector>

#include "opencl_harness.hpp"

namespace opencl_test {
namespace {

struct Streams {
  explicit Streams(const DirectPlugin& plugin) : plugin(plugin), device(plugin.device()) {}
  ~Streams() {
    for (hx_event* event : events) plugin.api().events->destroy(device, event);
    for (hx_stream* stream : streams) plugin.api().streams->destroy(device, stream);
  }
  hx_stream* stream() {
    hx_stream* stream = nullptr;
    REQUIRE(DirectPlugin::outcome(plugin.api().streams->create(device, &stream)).code == HX_OK);
    streams.push_back(stream);
    return stream;
  }
  hx_event* event() {
    hx_event* event = nullptr;
    REQUIRE(DirectPlugin::outcome(plugin.api().events->create(device, &event)).code == HX_OK);
    events.push_back(event);
    return event;
  }
  const DirectPlugin& plugin;
  hx_device* device;
  std::vector<hx_stream*> streams;
  std::vector<hx_event*> events;
};

TEST_CASE("An OpenCL event never recorded is complete", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Streams streams(plugin);
  hx_event* event = streams.event();
  bool done = false;
  CHECK(DirectPlugin::outcome(plugin.api().events->query(streams.device, event, &done)).code ==
        HX_OK);
  CHECK(done);
  CHECK(DirectPlugin::outcome(plugin.api().events->synchronize(streams.device, event)).code ==
        HX_OK);
  // A stream told to wait for it goes on at once, and a stream with no work is done.
  hx_stream* stream = streams.stream();
  CHECK(DirectPlugin::outcome(plugin.api().streams->wait_event(streams.device, stream, event))
            .code == HX_OK);
  done = false;
  CHECK(DirectPlugin::outcome(plugin.api().streams->query(streams.device, stream, &done)).code ==
        HX_OK);
  CHECK(done);
  plugin.api().events->destroy(streams.device, nullptr);  // accepted
  plugin.api().streams->destroy(streams.device, nullptr);  // accepted
}

TEST_CASE("OpenCL events complete with the work recorded before them", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Streams streams(plugin);
  hx_stream* stream = streams.stream();
  hx_event* event = streams.event();
  const std::vector<float> data(1 << 16, 2.5f);
  const Buffer buffer(plugin, streams.device, data.size() * sizeof(float));
  REQUIRE(DirectPlugin::outcome(plugin.api().copy_host_to_device(
                                    streams.device, stream, buffer.handle(), 0, data.data(),
                                    data.size() * sizeof(float)))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(plugin.api().events->record(streams.device, event, stream))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(plugin.api().events->synchronize(streams.device, event)).code ==
          HX_OK);
  bool done = false;
  REQUIRE(DirectPlugin::outcome(plugin.api().events->query(streams.device, event, &done)).code ==
          HX_OK);
  CHECK(done);
  REQUIRE(DirectPlugin::outcome(plugin.api().streams->query(streams.device, stream, &done))
              .code == HX_OK);
  CHECK(done);
  CHECK(buffer.read_elements<float>(0, data.size()) == data);
}

TEST_CASE("An OpenCL stream waits for another stream's event before its own work",
          "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Streams streams(plugin);
  hx_stream* producer = streams.stream();
  hx_stream* consumer = streams.stream();
  hx_event* written = streams.event();
  const size_t count = 1 << 20;
  const size_t bytes = count * sizeof(float);
  std::vector<float> data(count);
  for (size_t i = 0; i < count; ++i) data[i] = static_cast<float>(i);
  const Buffer source(plugin, streams.device, bytes);
  const Buffer target(plugin, streams.device, bytes);
  REQUIRE(DirectPlugin::outcome(plugin.api().copy_host_to_device(
                                    streams.device, producer, source.handle(), 0, data.data(),
                                    bytes))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(plugin.api().events->record(streams.device, written, producer))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(
              plugin.api().streams->wait_event(streams.device, consumer, written))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(plugin.api().copy_device_to_device(
                                    streams.device, consumer, target.handle(), 0,
                                    streams.device, source.handle(), 0, bytes))
              .code == HX_OK);
  std::vector<float> read(count);
  REQUIRE(DirectPlugin::outcome(plugin.api().copy_device_to_host(
                                    streams.device, consumer, read.data(), target.handle(), 0,
                                    bytes))
              .code == HX_OK);
  REQUIRE(DirectPlugin::outcome(plugin.api().streams->synchronize(streams.device, consumer))
              .code == HX_OK);
  CHECK(read == data);
}

}  // namespace
}  // namespace opencl_test
