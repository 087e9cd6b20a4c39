// Events: each holds the cl_event of the marker its last record enqueued (none before the
// first record), in the context of the device it was created on.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include "event_slot.hpp"

namespace hxopencl {

struct OpenClDevice;

class Event {
 public:
  explicit Event(const OpenClDevice& device) : device_(device) {}

  const OpenClDevice& device() const { return device_; }
  // Replaces the recorded marker with `marker` (takes ownership).
  void set(cl_event marker) { marker_.replace(marker); }
  // The recorded marker, retained for the caller (who releases it); NULL when never recorded.
  cl_event get() const { return marker_.retained(); }

 private:
  const OpenClDevice& device_;
  EventSlot marker_;  // record may race with another thread's wait or query
};

inline hx_event* to_handle(Event* event) { return reinterpret_cast<hx_event*>(event); }
inline Event& from_handle(hx_event* event) { return *reinterpret_cast<Event*>(event); }

// *out_done = whether `marker` has completed; a marker whose command failed is an error.
hx_status* marker_done(const OpenClDevice& device, cl_event marker, bool* out_done);

// Function-table entries (the event group).
hx_status* event_create(hx_device* device, hx_event** out_event);
void event_destroy(hx_device* device, hx_event* event);
hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream);
hx_status* event_synchronize(hx_device* device, hx_event* event);
hx_status* event_query(hx_device* device, hx_event* event, bool* out_done);

}  // namespace hxopencl
