#include "streams.hpp"

#include <hxplugin/status.hpp>

#include "device.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

// Tokens with no state; a distinct allocation per create keeps handles unique, so the core
// can tell two streams (or events) apart.
struct StreamToken {};
struct EventToken {};

hx_status* stream_create(hx_device* device, hx_stream** out_stream) {
  return hxplugin::guarded(*from_handle(device).services, kPluginName, [&]() -> hx_status* {
    *out_stream = reinterpret_cast<hx_stream*>(new StreamToken);
    return nullptr;
  });
}

void stream_destroy(hx_device* device, hx_stream* stream) {
  (void)device;
  delete reinterpret_cast<StreamToken*>(stream);
}

hx_status* stream_synchronize(hx_device* device, hx_stream* stream) {
  (void)device;
  (void)stream;
  return nullptr;
}

hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done) {
  (void)device;
  (void)stream;
  *out_done = true;
  return nullptr;
}

hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event) {
  (void)device;
  (void)stream;
  (void)event;
  return nullptr;
}

hx_status* event_create(hx_device* device, hx_event** out_event) {
  return hxplugin::guarded(*from_handle(device).services, kPluginName, [&]() -> hx_status* {
    *out_event = reinterpret_cast<hx_event*>(new EventToken);
    return nullptr;
  });
}

void event_destroy(hx_device* device, hx_event* event) {
  (void)device;
  delete reinterpret_cast<EventToken*>(event);
}

hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream) {
  (void)device;
  (void)event;
  (void)stream;
  return nullptr;
}

hx_status* event_synchronize(hx_device* device, hx_event* event) {
  (void)device;
  (void)event;
  return nullptr;
}

hx_status* event_query(hx_device* device, hx_event* event, bool* out_done) {
  (void)device;
  (void)event;
  *out_done = true;
  return nullptr;
}

}  // namespace

const hx_stream_api kStreamApi = {HX_STREAM_API_STRUCT_SIZE, nullptr,      stream_create,
                                  stream_destroy,            stream_synchronize, stream_query,
                                  stream_wait_event};
const hx_event_api kEventApi = {HX_EVENT_API_STRUCT_SIZE, nullptr,           event_create,
                                event_destroy,            event_record,      event_synchronize,
                                event_query};

}  // namespace hxcpu
