/* The async_sample plugin's devices: two ASYNC devices, each with a budget of memory. The core
 * asks for the count, a handle per ordinal, the static properties (what the device is, what
 * kind of memory it has, how the placer should rank it) and the free and total memory. */
#include "async_sample.h"

#include <stddef.h>

void async_init_devices(hx_plugin* plugin) {
  int32_t i;
  for (i = 0; i < ASYNC_SAMPLE_DEVICES; ++i) {
    plugin->devices[i].plugin = plugin;
    plugin->devices[i].ordinal = i;
    plugin->devices[i].bytes_in_use = 0;
  }
}

int async_reserve(hx_device* device, size_t size) {
  int reserved = 0;
  pthread_mutex_lock(&device->plugin->lock);
  if ((uint64_t)size <= device->plugin->memory_bytes - device->bytes_in_use) {
    device->bytes_in_use += size;
    reserved = 1;
  }
  pthread_mutex_unlock(&device->plugin->lock);
  return reserved;
}

void async_give_back(hx_device* device, size_t size) {
  pthread_mutex_lock(&device->plugin->lock);
  device->bytes_in_use -= (uint64_t)size <= device->bytes_in_use ? size : device->bytes_in_use;
  pthread_mutex_unlock(&device->plugin->lock);
}

static hx_status* device_count(hx_plugin* plugin, int32_t* out_count) {
  (void)plugin;
  /* A plugin whose hardware is missing returns HX_UNAVAILABLE with the reason here ("no Vulkan
   * device with compute queues"): it stays loaded with zero devices and says why. */
  *out_count = ASYNC_SAMPLE_DEVICES;
  return NULL;
}

static hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  if (ordinal < 0 || ordinal >= ASYNC_SAMPLE_DEVICES) {
    return async_status(plugin, HX_OUT_OF_RANGE, "%s plugin: no device %d; it has %d devices",
                        ASYNC_SAMPLE_NAME, (int)ordinal, ASYNC_SAMPLE_DEVICES);
  }
  *out_device = &plugin->devices[ordinal];
  return NULL;
}

/* True when the core's struct covers `field`: an older core passes a smaller struct. */
#define ASYNC_COVERS(props, field) \
  ((props)->struct_size >= HX_STRUCT_SIZE(hx_device_properties, field))

static hx_status* device_properties(hx_device* device, hx_device_properties* props) {
  if (ASYNC_COVERS(props, name)) props->name = "hxrt asynchronous sample device";
  if (ASYNC_COVERS(props, vendor)) props->vendor = "hxrt samples";
  if (ASYNC_COVERS(props, bus_id)) props->bus_id = NULL; /* not on a bus */
  /* The API its kernels are written for, as a Vulkan plugin says "Vulkan 1.3". */
  if (ASYNC_COVERS(props, arch)) props->arch = "C99 + pthreads";
  if (ASYNC_COVERS(props, memory_total)) props->memory_total = device->plugin->memory_bytes;
  if (ASYNC_COVERS(props, numa_node)) props->numa_node = -1;
  if (ASYNC_COVERS(props, compute_units)) props->compute_units = 1;
  /* Memory the core cannot reach: buffer handles are the plugin's objects (memory.c), and the
   * core moves data only through copy_host_to_device and copy_device_to_host. */
  if (ASYNC_COVERS(props, memory_kind)) props->memory_kind = HX_MEMORY_DEVICE;
  /* Its "device" is a thread on the host's own cores: an accelerator's programming model
   * running on the host, like PoCL or lavapipe, so HOST_ACCELERATOR. The placer then prefers
   * the CPU to it unless placement.device_priority in the config asks otherwise; a real NPU or
   * GPU says HX_PLACEMENT_DISCRETE_ACCELERATOR. */
  if (ASYNC_COVERS(props, placement_class)) {
    props->placement_class = HX_PLACEMENT_HOST_ACCELERATOR;
  }
  if (ASYNC_COVERS(props, max_allocation)) props->max_allocation = 0; /* the whole budget */
  if (ASYNC_COVERS(props, alignment)) props->alignment = ASYNC_SAMPLE_ALIGNMENT;
  return NULL;
}

static hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  pthread_mutex_lock(&device->plugin->lock);
  *out_free = device->plugin->memory_bytes - device->bytes_in_use;
  pthread_mutex_unlock(&device->plugin->lock);
  *out_total = device->plugin->memory_bytes;
  return NULL;
}

void async_fill_device_functions(hx_plugin_api* api) {
  api->device_count = device_count;
  api->device_get = device_get;
  api->device_properties = device_properties;
  api->memory_info = memory_info;
}
