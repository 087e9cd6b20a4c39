/*
 * hxrt simulated accelerator (libhx_sim.so): transfer counters for tests.
 *
 * Besides hx_plugin_init, the sim plugin exports the two functions below so that a test can
 * check which copies the core made: every call of the plugin's copy_host_to_device,
 * copy_device_to_host and copy_device_to_device is counted, with its bytes, per device; and
 * whether it staged through page-locked host memory: every host_memory allocate and
 * deallocate (the plugin option pinned_memory, true by default, offers that group); and how
 * its work was launched: kernel calls one by one, or recorded and replayed (the recording
 * group, offered unless the option recording is false).
 *
 * The counters are process-wide and indexed by the plugin's device ordinal (the order of
 * device_get, which is the device id when no other plugin provides the same device type):
 * runtimes that load the plugin side by side add to the same counters. A device-to-device
 * copy is counted on its destination device, the one whose stream orders it.
 *
 * A test reaches the functions of the library the runtime has already loaded without loading
 * a second copy:
 *
 *   void* library = dlopen(path_to_libhx_sim_so, RTLD_NOW | RTLD_NOLOAD);
 *   hx_sim_transfer_counts_fn counts =
 *       (hx_sim_transfer_counts_fn)dlsym(library, HX_SIM_TRANSFER_COUNTS_SYMBOL);
 *   hx_sim_transfer_counts_t out = {HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE};
 *   if (counts(1, &out) == 0) ... out.host_to_device ...
 *   dlclose(library);  (dlopen took a reference; this drops it)
 *
 * Both functions are thread-safe; counts read while copies run are each exact but need not be
 * from one instant. C99; the conventions are those of hxrt/plugin_api.h.
 */
#ifndef HXRT_SIM_COUNTERS_H_
#define HXRT_SIM_COUNTERS_H_

#include <hxrt/plugin_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The symbols, for dlsym. */
#define HX_SIM_TRANSFER_COUNTS_SYMBOL "hx_sim_transfer_counts"
#define HX_SIM_RESET_TRANSFER_COUNTS_SYMBOL "hx_sim_reset_transfer_counts"

/* The copies made for one device since the process started or the last reset. */
typedef struct hx_sim_transfer_counts_s {
  size_t struct_size;             /* set by the caller: HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  uint64_t host_to_device;        /* out: copy_host_to_device calls into this device */
  uint64_t host_to_device_bytes;  /* out: bytes they copied */
  uint64_t device_to_host;        /* out: copy_device_to_host calls out of this device */
  uint64_t device_to_host_bytes;  /* out: bytes they copied */
  uint64_t device_to_device;      /* out: copy_device_to_device calls with this device as the
                                     destination */
  uint64_t device_to_device_bytes;/* out: bytes they copied */
  uint64_t pinned_allocations;    /* out: host_memory allocate calls that succeeded on this
                                     device */
  uint64_t pinned_allocated_bytes;/* out: bytes they allocated */
  uint64_t pinned_deallocations;  /* out: host_memory deallocate calls that freed a block of
                                     this device (unknown pointers are not counted) */
  uint64_t pinned_deallocated_bytes; /* out: bytes they freed; allocated - deallocated bytes is
                                     what is still held, when none was held at the last reset */
  uint64_t kernel_calls;          /* out: kernel computes on this device that queued or ran
                                     their work (those recorded are not counted) */
  uint64_t recorded_calls;        /* out: kernel, memset and copy calls recorded on its streams
                                     (the recording group) */
  uint64_t recordings;            /* out: recording ends that gave a recording */
  uint64_t replays;               /* out: replays of its recordings */
  uint64_t host_buffer_copies;    /* out: copies between this device and host memory passed as
                                     a buffer (host_memory copy_to_device and copy_to_host),
                                     also counted as host_to_device or device_to_host */
} hx_sim_transfer_counts_t;
#define HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE \
  HX_STRUCT_SIZE(hx_sim_transfer_counts_t, host_buffer_copies)

/* Fills *out (the fields its struct_size covers) with the counts of device `ordinal`.
 * Returns 0 on success, -1 when `out` is NULL or no simulated device with that ordinal has
 * been created in this process. */
HX_EXPORT int hx_sim_transfer_counts(int32_t ordinal, hx_sim_transfer_counts_t* out);

/* Sets every device's counts to zero. */
HX_EXPORT void hx_sim_reset_transfer_counts(void);

typedef int (*hx_sim_transfer_counts_fn)(int32_t ordinal, hx_sim_transfer_counts_t* out);
typedef void (*hx_sim_reset_transfer_counts_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HXRT_SIM_COUNTERS_H_ */
