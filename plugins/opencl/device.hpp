// One OpenCL device: what it says about itself (its facts) and, once it is bound to the
// platform that has it, the queue that synchronous work goes through and its program. The
// device-query entries of the function table.
//
// A device listed from the device cache starts unbound: OpenCL is not touched until the
// device is first used. The entry points that make something of a device (an allocation, a
// stream, a kernel instance) call ready() first; every other entry point takes a buffer,
// stream or instance of the device, which only those make, so it finds the device bound.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "device_facts.hpp"
#include "program.hpp"

namespace hxopencl {

struct OpenClPlugin;
struct Platform;
class Stream;

struct OpenClDevice {
  OpenClDevice(OpenClPlugin& plugin, DeviceFacts facts)
      : plugin(plugin), facts(std::move(facts)) {}
  ~OpenClDevice();
  OpenClDevice(const OpenClDevice&) = delete;
  OpenClDevice& operator=(const OpenClDevice&) = delete;

  // Creates the synchronous queue of `id` in `platform`'s context, and the program; a status
  // naming the device and the call that failed otherwise. Called once: before the device is
  // handed out, or under the plugin's once flag (OpenClPlugin::bind_listed_devices).
  hx_status* bind(const Platform& platform, cl_device_id id);
  // NULL when the device is bound (the first call binds every listed device); else
  // UNAVAILABLE saying why it could not be.
  hx_status* ready() const;

  // Opens `stream`'s queue now when the device is bound; else keeps the stream to open at bind.
  // CL_SUCCESS or clCreateCommandQueue's error.
  cl_int open_when_bound(Stream& stream);
  // Forgets a stream that is going, if it was still waiting for the device to be bound.
  void forget_waiting(const Stream& stream);

  const hx_core_services& services() const;
  int32_t memory_kind() const;
  int32_t placement_class() const;

  OpenClPlugin& plugin;
  const DeviceFacts facts;
  // Set by bind, and read only once ready() (or a buffer, stream or instance) says it ran.
  const Platform* platform = nullptr;
  cl_device_id id = nullptr;
  // Where work given no stream goes; each such call waits for it to finish.
  cl_command_queue synchronous_queue = nullptr;
  std::optional<Program> program;
  // Why a listed device could not be bound; read after the plugin's once flag.
  std::string unbound_reason;
  std::atomic<bool> bound{false};

 private:
  // Guards the switch to bound (made under it, with the waiting streams' queues opened) against
  // streams made and destroyed meanwhile.
  std::mutex streams_mutex_;
  std::vector<Stream*> waiting_streams_;
};

inline hx_device* to_handle(OpenClDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline OpenClDevice& from_handle(hx_device* device) {
  return *reinterpret_cast<OpenClDevice*>(device);
}

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxopencl
