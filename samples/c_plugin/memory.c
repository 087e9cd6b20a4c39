/* The c_sample plugin's memory and transfers. Device memory is host memory here, so every
 * copy is a memcpy; a real device would call its driver instead. The core allocates a few
 * large buffers through allocate and places its tensors inside them at byte offsets, so every
 * call below names device memory as (buffer, offset) and the offset is rarely 0.
 *
 * All of these are synchronous: the plugin has no streams, so `stream` is always NULL and
 * each call completes before it returns. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */

#include "c_sample.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Takes `size` bytes from the device's budget; false when fewer are left. */
static int reserve(hx_device* device, size_t size) {
  int reserved = 0;
  pthread_mutex_lock(&device->lock);
  if ((uint64_t)size <= C_SAMPLE_MEMORY_BYTES - device->bytes_in_use) {
    device->bytes_in_use += size;
    reserved = 1;
  }
  pthread_mutex_unlock(&device->lock);
  return reserved;
}

static void give_back(hx_device* device, size_t size) {
  pthread_mutex_lock(&device->lock);
  /* Never below zero, even if a caller passed a wrong size. */
  device->bytes_in_use -= (uint64_t)size <= device->bytes_in_use ? size : device->bytes_in_use;
  pthread_mutex_unlock(&device->lock);
}

/* A buffer handle is the host address of the buffer's first byte: the device declares
 * HX_MEMORY_HOST (device.c), which promises exactly that. A plugin whose memory is objects (an
 * OpenCL cl_mem, a driver's buffer id) would return those instead, and keep them opaque. */
static hx_buffer* as_buffer(void* address) { return (hx_buffer*)address; }
static char* address_of(const hx_buffer* buffer, uint64_t offset) {
  return (char*)buffer + offset;
}

static hx_status* allocate(hx_device* device, size_t size, size_t alignment,
                           hx_buffer** out_buffer) {
  const hx_core_services* services = device->plugin->services;
  void* ptr = NULL;
  int rc;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return c_sample_status(services, HX_INVALID_ARGUMENT,
                           "%s allocate: alignment %zu is not a power of two", C_SAMPLE_NAME,
                           alignment);
  }
  /* The core never asks for 0 bytes (plugin_api.h); refusing keeps "a buffer is never NULL"
   * true for anyone else who does. */
  if (size == 0) {
    return c_sample_status(services, HX_INVALID_ARGUMENT,
                           "%s allocate: size 0 (a buffer has at least 1 byte)", C_SAMPLE_NAME);
  }
  /* A request larger than what is left of the budget is refused before any host memory is
   * touched: OUT_OF_MEMORY is what the core expects, and what it reports to the user with its
   * own figures. */
  if (!reserve(device, size)) {
    uint64_t free_bytes;
    pthread_mutex_lock(&device->lock);
    free_bytes = C_SAMPLE_MEMORY_BYTES - device->bytes_in_use;
    pthread_mutex_unlock(&device->lock);
    return c_sample_status(services, HX_OUT_OF_MEMORY,
                           "%s allocate: %zu bytes asked, %" PRIu64 " of %" PRIu64
                           " bytes free on %s:%d",
                           C_SAMPLE_NAME, size, free_bytes, C_SAMPLE_MEMORY_BYTES,
                           C_SAMPLE_DEVICE_TYPE, (int)device->ordinal);
  }
  /* posix_memalign wants a multiple of sizeof(void*); the core asks for the declared 64. */
  rc = posix_memalign(&ptr, alignment < sizeof(void*) ? sizeof(void*) : alignment, size);
  if (rc != 0) {
    give_back(device, size);
    return c_sample_status(services, HX_OUT_OF_MEMORY,
                           "%s allocate: the host could not give %zu bytes aligned to %zu",
                           C_SAMPLE_NAME, size, alignment);
  }
  *out_buffer = as_buffer(ptr);
  return NULL;
}

/* `size` is the size that was asked for, so the plugin needs no table of its allocations. The
 * core calls this only once no work uses the buffer; with no streams, that is always. */
static void deallocate(hx_device* device, hx_buffer* buffer, size_t size) {
  if (buffer == NULL) return;
  free(buffer);
  give_back(device, size);
}

/* A NULL buffer or host pointer with bytes to move is the caller's mistake: a status, not a
 * crash. */
static hx_status* check_pointers(hx_device* device, const char* what, const void* dst,
                                 const void* src, size_t size) {
  if (dst != NULL && src != NULL) return NULL;
  return c_sample_status(device->plugin->services, HX_INVALID_ARGUMENT,
                         "%s %s: NULL %s for %zu bytes", C_SAMPLE_NAME, what,
                         dst == NULL ? "destination" : "source", size);
}

/* Size 0 returns at once everywhere below: the ABI makes it a no-op that succeeds whatever
 * the other arguments are. Offsets are byte offsets into a buffer, which the core keeps
 * inside it. */
static hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, uint8_t value, size_t size) {
  hx_status* status;
  (void)stream;
  if (size == 0) return NULL;
  status = check_pointers(device, "memset", dst, dst, size);
  if (status == NULL) memset(address_of(dst, dst_offset), value, size);
  return status;
}

/* Every copy is a memcpy: the device's memory is host memory. */
static hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                                      uint64_t dst_offset, const void* src_host, size_t size) {
  hx_status* status;
  (void)stream;
  if (size == 0) return NULL;
  status = check_pointers(device, "copy_host_to_device", dst, src_host, size);
  if (status == NULL) memcpy(address_of(dst, dst_offset), src_host, size);
  return status;
}

static hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                                      const hx_buffer* src, uint64_t src_offset, size_t size) {
  hx_status* status;
  (void)stream;
  if (size == 0) return NULL;
  status = check_pointers(device, "copy_device_to_host", dst_host, src, size);
  if (status == NULL) memcpy(dst_host, address_of(src, src_offset), size);
  return status;
}

/* Between two devices of this plugin, or within one; with one device, always within one. */
static hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                        uint64_t dst_offset, hx_device* src_device,
                                        const hx_buffer* src, uint64_t src_offset, size_t size) {
  hx_status* status;
  (void)stream;
  (void)src_device;
  if (size == 0) return NULL;
  status = check_pointers(dst_device, "copy_device_to_device", dst, src, size);
  if (status == NULL) memcpy(address_of(dst, dst_offset), address_of(src, src_offset), size);
  return status;
}

void c_sample_fill_memory_functions(hx_plugin_api* api) {
  api->allocate = allocate;
  api->deallocate = deallocate;
  api->memset = memset_bytes;
  api->copy_host_to_device = copy_host_to_device;
  api->copy_device_to_host = copy_device_to_host;
  api->copy_device_to_device = copy_device_to_device;
}
