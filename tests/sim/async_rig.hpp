// The direct tests of the sim plugin as an asynchronous device share this: the plugin with a
// stream per device, and the stream-ordered copies and waits that fail the test when refused.
#pragma once

#include <catch2/catch.hpp>
#include <deque>
#include <string>
#include <vector>

#include "direct_plugin.hpp"
#include "sim_direct.hpp"

namespace sim_async {

using sim_direct::kSim;

inline int32_t code(hx_status* status) { return hxrt_test::DirectPlugin::outcome(status).code; }

// A plugin with `devices` devices and `model` (JSON members) as extra options, a stream per
// device, and helpers for the stream-ordered copies.
struct Rig {
  explicit Rig(const std::string& model, int devices = 1)
      : plugin(kSim, R"({"memory_mb": 1, "device_count": )" + std::to_string(devices) +
                         (model.empty() ? "" : ", " + model) + "}") {
    REQUIRE(plugin.init_outcome().code == HX_OK);
    for (int i = 0; i < devices; ++i) {
      device.push_back(plugin.device(i));
      hx_stream* created = nullptr;
      REQUIRE(code(api().streams->create(device.back(), &created)) == HX_OK);
      stream.push_back(created);
    }
  }
  ~Rig() {
    for (size_t i = 0; i < stream.size(); ++i) api().streams->destroy(device[i], stream[i]);
  }
  const hx_plugin_api& api() const { return plugin.api(); }
  // The source is kept here: the ABI has host memory stay valid until the copy has run.
  void to_device(int on, hx_buffer* buffer, const std::vector<float>& values) const {
    const std::vector<float>& source = staged.emplace_back(values);
    REQUIRE(code(api().copy_host_to_device(device[on], stream[on], buffer, 0, source.data(),
                                           source.size() * sizeof(float))) == HX_OK);
  }
  void to_host(int on, const hx_buffer* buffer, std::vector<float>& values) const {
    REQUIRE(code(api().copy_device_to_host(device[on], stream[on], values.data(), buffer, 0,
                                           values.size() * sizeof(float))) == HX_OK);
  }
  bool stream_done(int on) const {
    bool done = false;
    REQUIRE(code(api().streams->query(device[on], stream[on], &done)) == HX_OK);
    return done;
  }
  void synchronize(int on) const {
    REQUIRE(code(api().streams->synchronize(device[on], stream[on])) == HX_OK);
  }

  hxrt_test::DirectPlugin plugin;
  std::vector<hx_device*> device;
  std::vector<hx_stream*> stream;
  mutable std::deque<std::vector<float>> staged;  // a deque: staged sources never move
};

}  // namespace sim_async
