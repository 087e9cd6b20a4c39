/* The async_sample plugin's memory and transfers.
 *
 * Buffers are objects: allocate returns a pointer to an hx_buffer_s that the plugin owns, not
 * the address of the data, and the core only passes it back with a byte offset (the core
 * places many tensors in one large buffer, so the offset is rarely 0). A Vulkan plugin's
 * handle would hold a VkBuffer, an OpenCL one's a cl_mem, in the same way.
 *
 * Every transfer is one piece of work: with a stream it is queued there and runs after the
 * work queued before it (the call returns at once, and the host memory and buffers must stay
 * valid until the work completes, which the core guarantees); with stream NULL it runs before
 * the call returns, on the calling thread, without waiting for anything queued on a stream,
 * as plugin_api.h requires (the core waits for the event of the data it reads first). */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */

#include "async_sample.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static hx_status* allocate(hx_device* device, size_t size, size_t alignment,
                           hx_buffer** out_buffer) {
  const hx_plugin* plugin = device->plugin;
  hx_buffer* buffer;
  void* bytes = NULL;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return async_status(plugin, HX_INVALID_ARGUMENT,
                        "%s allocate: alignment %zu is not a power of two", ASYNC_SAMPLE_NAME,
                        alignment);
  }
  if (size == 0) { /* the core never asks for 0 bytes; a buffer is never empty */
    return async_status(plugin, HX_INVALID_ARGUMENT, "%s allocate: size 0",
                        ASYNC_SAMPLE_NAME);
  }
  if (!async_reserve(device, size)) {
    return async_status(plugin, HX_OUT_OF_MEMORY,
                        "%s allocate: %zu bytes asked of the %" PRIu64 " bytes of %s:%d, "
                        "more than are free",
                        ASYNC_SAMPLE_NAME, size, device->plugin->memory_bytes,
                        ASYNC_SAMPLE_DEVICE_TYPE, (int)device->ordinal);
  }
  buffer = (hx_buffer*)malloc(sizeof *buffer);
  if (buffer == NULL || posix_memalign(&bytes, alignment < sizeof(void*) ? sizeof(void*)
                                                                         : alignment,
                                       size) != 0) {
    free(buffer);
    async_give_back(device, size);
    return async_status(plugin, HX_OUT_OF_MEMORY,
                        "%s allocate: the host could not give %zu bytes aligned to %zu",
                        ASYNC_SAMPLE_NAME, size, alignment);
  }
  buffer->size = size;
  buffer->bytes = (unsigned char*)bytes;
  *out_buffer = buffer;
  return NULL;
}

/* The core calls this only once no queued work uses the buffer, so no worker can still be
 * reading it. */
static void deallocate(hx_device* device, hx_buffer* buffer, size_t size) {
  if (buffer == NULL) return;
  free(buffer->bytes);
  free(buffer);
  async_give_back(device, size);
}

/* ---- the work of a transfer ---- */

typedef struct transfer_work {
  async_work work; /* first: the stream holds a pointer to it */
  unsigned char* dst;
  const unsigned char* src; /* NULL: fill with `value` */
  uint8_t value;
  size_t size;
} transfer_work;

static int run_transfer(async_work* work, char* message, size_t message_size) {
  const transfer_work* transfer = (const transfer_work*)work;
  (void)message;
  (void)message_size;
  /* Host memory cannot fail to copy. A real device's copy can (a lost device, a fault), and
   * then returns nonzero with the reason, which fails the stream (stream.c). */
  if (transfer->src == NULL) {
    memset(transfer->dst, transfer->value, transfer->size);
  } else {
    memcpy(transfer->dst, transfer->src, transfer->size);
  }
  return 0;
}

/* Where (buffer, offset) is, or NULL with *status set when the range is not inside the buffer
 * (the core never passes one; anyone else gets a status, not a crash). */
static unsigned char* place(hx_device* device, const hx_buffer* buffer, uint64_t offset,
                            size_t size, const char* what, hx_status** status) {
  if (buffer == NULL || offset > buffer->size || size > buffer->size - offset) {
    *status = async_status(device->plugin, HX_INVALID_ARGUMENT,
                           "%s %s: %zu bytes at offset %" PRIu64 " of %s buffer",
                           ASYNC_SAMPLE_NAME, what, size, offset,
                           buffer == NULL ? "a NULL" : "a smaller");
    return NULL;
  }
  return buffer->bytes + offset;
}

/* Makes the work of one transfer and submits it (stream.c). Size 0 is a no-op that succeeds
 * whatever the other arguments are; callers return before this. */
static hx_status* transfer(hx_device* device, hx_stream* stream, unsigned char* dst,
                           const unsigned char* src, uint8_t value, size_t size,
                           const char* what) {
  transfer_work* work = (transfer_work*)calloc(1, sizeof *work);
  if (work == NULL) {
    return async_status(device->plugin, HX_OUT_OF_MEMORY, "%s %s: no memory to queue it",
                        ASYNC_SAMPLE_NAME, what);
  }
  work->work.kind = ASYNC_WORK_RUN;
  work->work.run = run_transfer;
  work->dst = dst;
  work->src = src;
  work->value = value;
  work->size = size;
  return async_submit(device, stream, &work->work, what);
}

static hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, uint8_t value, size_t size) {
  hx_status* status = NULL;
  unsigned char* to;
  if (size == 0) return NULL;
  to = place(device, dst, dst_offset, size, "memset", &status);
  if (to == NULL) return status;
  return transfer(device, stream, to, NULL, value, size, "memset");
}

static hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                                      uint64_t dst_offset, const void* src_host, size_t size) {
  hx_status* status = NULL;
  unsigned char* to;
  if (size == 0) return NULL;
  to = place(device, dst, dst_offset, size, "copy_host_to_device", &status);
  if (to == NULL) return status;
  if (src_host == NULL) {
    return async_status(device->plugin, HX_INVALID_ARGUMENT,
                        "%s copy_host_to_device: NULL source for %zu bytes", ASYNC_SAMPLE_NAME,
                        size);
  }
  return transfer(device, stream, to, (const unsigned char*)src_host, 0, size,
                  "copy_host_to_device");
}

static hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                                      const hx_buffer* src, uint64_t src_offset, size_t size) {
  hx_status* status = NULL;
  const unsigned char* from;
  if (size == 0) return NULL;
  from = place(device, src, src_offset, size, "copy_device_to_host", &status);
  if (from == NULL) return status;
  if (dst_host == NULL) {
    return async_status(device->plugin, HX_INVALID_ARGUMENT,
                        "%s copy_device_to_host: NULL destination for %zu bytes",
                        ASYNC_SAMPLE_NAME, size);
  }
  return transfer(device, stream, (unsigned char*)dst_host, from, 0, size,
                  "copy_device_to_host");
}

/* Between the two devices, or within one. The stream is dst_device's: the work runs in its
 * order. The core has already made that stream wait for the event of the source's last
 * writer (wait_event), so the source is complete when this runs. */
static hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                        uint64_t dst_offset, hx_device* src_device,
                                        const hx_buffer* src, uint64_t src_offset, size_t size) {
  hx_status* status = NULL;
  unsigned char* to;
  const unsigned char* from;
  if (size == 0) return NULL;
  to = place(dst_device, dst, dst_offset, size, "copy_device_to_device", &status);
  if (to == NULL) return status;
  (void)src_device; /* both devices are this plugin's: a buffer is usable from either */
  from = place(dst_device, src, src_offset, size, "copy_device_to_device", &status);
  if (from == NULL) return status;
  return transfer(dst_device, stream, to, from, 0, size, "copy_device_to_device");
}

void async_fill_memory_functions(hx_plugin_api* api) {
  api->allocate = allocate;
  api->deallocate = deallocate;
  api->memset = memset_bytes;
  api->copy_host_to_device = copy_host_to_device;
  api->copy_device_to_host = copy_device_to_host;
  api->copy_device_to_device = copy_device_to_device;
}
