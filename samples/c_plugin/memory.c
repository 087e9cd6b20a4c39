/* The c_sample plugin's memory and transfers. Device memory is host memory here, so every
 * copy is a memcpy; a real device would call its driver instead. The core never touches device
 * memory itself: it allocates through allocate (in large regions that its own allocator then
 * splits for tensors) and moves data only through memset and the copies.
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

static hx_status* allocate(hx_device* device, size_t size, size_t alignment, void** out_ptr) {
  const hx_core_services* services = device->plugin->services;
  void* ptr = NULL;
  int rc;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return c_sample_status(services, HX_INVALID_ARGUMENT,
                           "%s allocate: alignment %zu is not a power of two", C_SAMPLE_NAME,
                           alignment);
  }
  /* Size 0 may return NULL or a unique pointer (plugin_api.h); NULL costs nothing, and
   * deallocate accepts it. */
  if (size == 0) {
    *out_ptr = NULL;
    return NULL;
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
  /* posix_memalign wants a multiple of sizeof(void*); the core asks for 64 or more anyway. */
  rc = posix_memalign(&ptr, alignment < sizeof(void*) ? sizeof(void*) : alignment, size);
  if (rc != 0) {
    give_back(device, size);
    return c_sample_status(services, HX_OUT_OF_MEMORY,
                           "%s allocate: the host could not give %zu bytes aligned to %zu",
                           C_SAMPLE_NAME, size, alignment);
  }
  *out_ptr = ptr;
  return NULL;
}

/* `size` is the size that was asked for, so the plugin needs no table of its allocations. */
static void deallocate(hx_device* device, void* ptr, size_t size) {
  if (ptr == NULL) return;
  free(ptr);
  give_back(device, size);
}

/* A NULL pointer with bytes to move is the caller's mistake: a status, not a crash. */
static hx_status* check_pointers(hx_device* device, const char* what, const void* dst,
                                 const void* src, size_t size) {
  if (size == 0 || (dst != NULL && src != NULL)) return NULL;
  return c_sample_status(device->plugin->services, HX_INVALID_ARGUMENT,
                         "%s %s: NULL %s pointer for %zu bytes", C_SAMPLE_NAME, what,
                         dst == NULL ? "destination" : "source", size);
}

static hx_status* memset_bytes(hx_device* device, hx_stream* stream, void* dst, uint8_t value,
                               size_t size) {
  hx_status* status = check_pointers(device, "memset", dst, dst, size);
  (void)stream;
  if (status != NULL || size == 0) return status;
  memset(dst, value, size);
  return NULL;
}

/* Every copy is a memcpy: the device's memory is host memory. `what` names the copy in an
 * error. */
static hx_status* copy_bytes(hx_device* device, const char* what, void* dst, const void* src,
                             size_t size) {
  hx_status* status = check_pointers(device, what, dst, src, size);
  if (status != NULL || size == 0) return status;
  memcpy(dst, src, size);
  return NULL;
}

static hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, void* dst_device,
                                      const void* src_host, size_t size) {
  (void)stream;
  return copy_bytes(device, "copy_host_to_device", dst_device, src_host, size);
}

static hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                                      const void* src_device, size_t size) {
  (void)stream;
  return copy_bytes(device, "copy_device_to_host", dst_host, src_device, size);
}

/* Between two devices of this plugin, or within one; with one device, always within one. */
static hx_status* copy_device_to_device(hx_device* dst, hx_stream* stream, void* dst_ptr,
                                        hx_device* src, const void* src_ptr, size_t size) {
  (void)stream;
  (void)src;
  return copy_bytes(dst, "copy_device_to_device", dst_ptr, src_ptr, size);
}

void c_sample_fill_memory_functions(hx_plugin_api* api) {
  api->allocate = allocate;
  api->deallocate = deallocate;
  /* No host_allocate: the device's memory is host memory already, nothing to pin. */
  api->memset = memset_bytes;
  api->copy_host_to_device = copy_host_to_device;
  api->copy_device_to_host = copy_device_to_host;
  api->copy_device_to_device = copy_device_to_device;
}
