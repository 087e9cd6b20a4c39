/* The c_sample plugin's own state and the functions its files share. Private to the plugin:
 * the core sees only hx_plugin_init and the function table it returns.
 *
 * A copy of this plugin is a good start for a new one: rename it (kPluginName, the device
 * type, the library name in CMakeLists.txt), then replace host memory with your device's
 * memory (memory.c), describe your device (device.c) and write your kernels (leaky_relu.c
 * shows a new op; kernels for the core's ops, "MatMul", "Add", ..., are registered the same
 * way without register_op). */
#ifndef HX_C_SAMPLE_H_
#define HX_C_SAMPLE_H_

#include <hxrt/plugin_api.h>
#include <pthread.h>

/* The plugin's name ([a-z][a-z0-9_]*, as the core's load report shows it) and its device type
 * ([A-Z][A-Z0-9_]*): its own, so that it takes nothing from the CPU or GPU plugins. */
#define C_SAMPLE_NAME "c_sample"
#define C_SAMPLE_DEVICE_TYPE "CSAMPLE"

/* The memory one device offers: a budget of host memory, enforced by allocate, so that the
 * device behaves like one with memory of its own (a request beyond what is left is
 * OUT_OF_MEMORY, and memory_info reports what is free). */
#define C_SAMPLE_MEMORY_BYTES ((uint64_t)512 << 20)

/* The alignment the device declares: allocate gives it, and the core places every tensor at
 * an offset that is a multiple of it. 64 bytes is a cache line, and enough for any dtype. */
#define C_SAMPLE_ALIGNMENT 64

/* One device. Its handle (hx_device*) is a pointer to this struct, valid until shutdown. */
struct hx_device_s {
  struct hx_plugin_s* plugin; /* for the services, which every status needs */
  int32_t ordinal;
  /* Allocation runs on several threads at once (see "Threading" in plugin_api.h), so the
   * bytes in use are counted under a lock. */
  pthread_mutex_t lock;
  uint64_t bytes_in_use;
};

/* The whole plugin: created by hx_plugin_init, freed by shutdown. Nothing lives in globals, so
 * a shutdown followed by another init starts from a clean state, and two runtimes in one
 * process (which share one loaded copy of the library) each get their own. */
struct hx_plugin_s {
  const hx_core_services* services; /* borrowed from the core until shutdown returns */
  hx_core* core;
  hx_plugin_api api;                /* the table handed to the core */
  struct hx_device_s device;        /* the one device */
};

/* A status made by the core from a printf-style message (the core copies the text).
 * `code` must not be HX_OK. */
hx_status* c_sample_status(const hx_core_services* services, int32_t code, const char* format,
                           ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* device.c: sets up the one device; fills the device functions of the table. */
void c_sample_init_devices(hx_plugin* plugin);
void c_sample_destroy_devices(hx_plugin* plugin);
void c_sample_fill_device_functions(hx_plugin_api* api);

/* memory.c: fills allocate, deallocate, memset and the copies. */
void c_sample_fill_memory_functions(hx_plugin_api* api);

/* leaky_relu.c: registers the CSample_LeakyRelu op and its float32 and float64 kernels, which
 * run on this plugin's devices. Called during init (registration is refused later). */
hx_status* c_sample_register_leaky_relu(hx_plugin* plugin);

#endif /* HX_C_SAMPLE_H_ */
