// Streams: each is an in-order OpenCL command queue of one device. Work given no stream goes
// through the device's synchronous queue and is waited for before the call returns.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

namespace hxopencl {

struct OpenClDevice;

struct Stream {
  const OpenClDevice* device;
  cl_command_queue queue;
};

inline hx_stream* to_handle(Stream* stream) { return reinterpret_cast<hx_stream*>(stream); }
inline Stream* from_handle(hx_stream* stream) { return reinterpret_cast<Stream*>(stream); }

// The queue work for `stream` goes on: the stream's own, or the synchronous one for NULL.
cl_command_queue queue_for(const OpenClDevice& device, hx_stream* stream);
// With no stream, waits until the synchronous queue has finished (so the call completes
// before it returns, as the ABI asks); with a stream, nothing. A failure of that work comes
// back as a status naming `call`.
hx_status* complete_if_synchronous(const OpenClDevice& device, hx_stream* stream,
                                   const char* call);

// Function-table entries (the stream group).
hx_status* stream_create(hx_device* device, hx_stream** out_stream);
void stream_destroy(hx_device* device, hx_stream* stream);
hx_status* stream_synchronize(hx_device* device, hx_stream* stream);
hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done);
hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event);

}  // namespace hxopencl
