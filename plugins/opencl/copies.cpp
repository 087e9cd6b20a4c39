#include "copies.hpp"

#include <memory>
#include <new>

#include "device.hpp"
#include "errors.hpp"
#include "memory.hpp"
#include "platform.hpp"
#include "queue.hpp"

namespace hxopencl {

namespace {

// A blocking read or write waits for the work queued before it as well: with no stream the
// call completes before it returns, and with a stream it only waits longer than it must.
cl_bool blocking(hx_stream* stream) { return stream == nullptr ? CL_TRUE : CL_FALSE; }

// Between contexts (devices of two platforms) OpenCL has no copy: through host memory, with
// the source's queued work finished first.
hx_status* copy_through_host(const OpenClDevice& dst_device, hx_stream* stream, cl_mem dst,
                             uint64_t dst_offset, const OpenClDevice& src_device, cl_mem src,
                             uint64_t src_offset, size_t size) {
  const std::unique_ptr<char[]> staging(new (std::nothrow) char[size]);
  if (!staging) {
    return cl_status_about(dst_device.services(), CL_OUT_OF_HOST_MEMORY, "copying",
                           "%zu bytes between platforms through host memory", size);
  }
  cl_int error = clEnqueueReadBuffer(src_device.synchronous_queue, src, CL_TRUE, src_offset,
                                     size, staging.get(), 0, nullptr, nullptr);
  if (hx_status* status = cl_status(src_device.services(), error, "clEnqueueReadBuffer")) {
    return status;
  }
  // Blocking: the staging memory goes when this returns.
  Completion completion(stream);
  error = clEnqueueWriteBuffer(queue_for(dst_device, stream), dst, CL_TRUE, dst_offset, size,
                               staging.get(), 0, nullptr, completion.event());
  return cl_status(dst_device.services(), error, "clEnqueueWriteBuffer");
}

}  // namespace

hx_status* memset_bytes(hx_device* handle, hx_stream* stream, hx_buffer* dst,
                        uint64_t dst_offset, uint8_t value, size_t size) {
  if (size == 0) return nullptr;
  const OpenClDevice& device = from_handle(handle);
  Completion completion(stream);
  const cl_int error =
      clEnqueueFillBuffer(queue_for(device, stream), from_handle(dst), &value, sizeof value,
                          dst_offset, size, 0, nullptr, completion.event());
  if (hx_status* status = cl_status(device.services(), error, "clEnqueueFillBuffer")) {
    return status;
  }
  return complete_if_synchronous(device, stream, "clEnqueueFillBuffer");
}

hx_status* copy_host_to_device(hx_device* handle, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size) {
  if (size == 0) return nullptr;
  const OpenClDevice& device = from_handle(handle);
  Completion completion(stream);
  const cl_int error =
      clEnqueueWriteBuffer(queue_for(device, stream), from_handle(dst), blocking(stream),
                           dst_offset, size, src_host, 0, nullptr, completion.event());
  return cl_status(device.services(), error, "clEnqueueWriteBuffer");
}

hx_status* copy_device_to_host(hx_device* handle, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size) {
  if (size == 0) return nullptr;
  const OpenClDevice& device = from_handle(handle);
  Completion completion(stream);
  const cl_int error =
      clEnqueueReadBuffer(queue_for(device, stream), from_handle(src), blocking(stream),
                          src_offset, size, dst_host, 0, nullptr, completion.event());
  return cl_status(device.services(), error, "clEnqueueReadBuffer");
}

hx_status* copy_device_to_device(hx_device* dst_handle, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_handle,
                                 const hx_buffer* src, uint64_t src_offset, size_t size) {
  if (size == 0) return nullptr;
  const OpenClDevice& dst_device = from_handle(dst_handle);
  const OpenClDevice& src_device = from_handle(src_handle);
  if (dst_device.platform != src_device.platform) {
    return copy_through_host(dst_device, stream, from_handle(dst), dst_offset, src_device,
                             from_handle(src), src_offset, size);
  }
  Completion completion(stream);
  const cl_int error =
      clEnqueueCopyBuffer(queue_for(dst_device, stream), from_handle(src), from_handle(dst),
                          src_offset, dst_offset, size, 0, nullptr, completion.event());
  if (hx_status* status = cl_status(dst_device.services(), error, "clEnqueueCopyBuffer")) {
    return status;
  }
  return complete_if_synchronous(dst_device, stream, "clEnqueueCopyBuffer");
}

}  // namespace hxopencl
