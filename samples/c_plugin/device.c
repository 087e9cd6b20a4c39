/* The c_sample plugin's device: one CSAMPLE device whose memory is a budget of host memory.
 * The core asks for the count, a handle per ordinal, the static properties (what the device
 * is, what kind of memory it has, how the placer should rank it) and the free and total
 * memory; hxrt-info prints all of it. */
#include "c_sample.h"

#include <stddef.h>

void c_sample_init_devices(hx_plugin* plugin) {
  plugin->device.plugin = plugin;
  plugin->device.ordinal = 0;
  plugin->device.bytes_in_use = 0;
  pthread_mutex_init(&plugin->device.lock, NULL);
}

void c_sample_destroy_devices(hx_plugin* plugin) { pthread_mutex_destroy(&plugin->device.lock); }

static hx_status* device_count(hx_plugin* plugin, int32_t* out_count) {
  (void)plugin;
  /* A plugin whose hardware is missing returns HX_UNAVAILABLE with the reason here ("no
   * driver"): it stays loaded with zero devices and the reason shows in the load report. */
  *out_count = 1;
  return NULL;
}

static hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  if (ordinal != 0) {
    return c_sample_status(plugin->services, HX_OUT_OF_RANGE,
                           "%s plugin: no device %d; it has 1 device, ordinal 0",
                           C_SAMPLE_NAME, (int)ordinal);
  }
  *out_device = &plugin->device;
  return NULL;
}

/* True when the caller's struct is large enough to hold `field`: a core built with an older
 * header passes a smaller struct, and writing past its struct_size would corrupt its memory. */
#define C_SAMPLE_COVERS(props, field) \
  ((props)->struct_size >= HX_STRUCT_SIZE(hx_device_properties, field))

static hx_status* device_properties(hx_device* device, hx_device_properties* props) {
  (void)device;
  /* Strings are borrowed by the core until shutdown: literals live that long. */
  if (C_SAMPLE_COVERS(props, name)) props->name = "hxrt C sample device";
  if (C_SAMPLE_COVERS(props, vendor)) props->vendor = "hxrt samples";
  if (C_SAMPLE_COVERS(props, bus_id)) props->bus_id = NULL; /* not on a bus */
  if (C_SAMPLE_COVERS(props, arch)) props->arch = NULL;     /* no instruction set of its own */
  if (C_SAMPLE_COVERS(props, memory_total)) props->memory_total = C_SAMPLE_MEMORY_BYTES;
  if (C_SAMPLE_COVERS(props, numa_node)) props->numa_node = -1;
  if (C_SAMPLE_COVERS(props, compute_units)) props->compute_units = 1;
  /* Its buffers are host memory and its handles their host addresses (memory.c), which lets
   * the core read and write them directly. */
  if (C_SAMPLE_COVERS(props, memory_kind)) props->memory_kind = HX_MEMORY_HOST;
  /* It runs on the host's own cores, so it must not be ranked like a GPU: the placer orders
   * device types by class (see hx_placement_class), and placement.device_priority in the
   * config overrides that order. */
  if (C_SAMPLE_COVERS(props, placement_class)) {
    props->placement_class = HX_PLACEMENT_HOST_ACCELERATOR;
  }
  /* One allocation may take the whole budget: 0 says "no limit below memory_total". */
  if (C_SAMPLE_COVERS(props, max_allocation)) props->max_allocation = 0;
  if (C_SAMPLE_COVERS(props, alignment)) props->alignment = C_SAMPLE_ALIGNMENT;
  return NULL;
}

/* Optional: a device that cannot tell its free memory leaves memory_info NULL, and the core
 * shows it as unknown. This one counts what it hands out, so it can. */
static hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  pthread_mutex_lock(&device->lock);
  *out_free = C_SAMPLE_MEMORY_BYTES - device->bytes_in_use;
  pthread_mutex_unlock(&device->lock);
  *out_total = C_SAMPLE_MEMORY_BYTES;
  return NULL;
}

void c_sample_fill_device_functions(hx_plugin_api* api) {
  api->device_count = device_count;
  api->device_get = device_get;
  api->device_properties = device_properties;
  api->memory_info = memory_info;
}
