/* libhx_async_sample.so: an asynchronous hxrt plugin of opaque device memory, in plain C99,
 * written against hxrt/plugin_api.h and hxrt/plugin_vocabulary.h alone. This file is its entry
 * point: hx_plugin_init checks the core's ABI version, reads the options, creates the plugin's
 * state, registers its kernels and hands the core its function table.
 *
 * What it offers: two devices of its own type, ASYNC, whose memory the core cannot reach
 * (HX_MEMORY_DEVICE: buffers are objects of the plugin, moved to and from the host only by the
 * plugin's copies); streams, each a queue run in order by a worker thread of its own; events,
 * which the host waits for and which make one stream wait for another, on either device;
 * float32 kernels for the core ops Add (with broadcasting) and Relu, enqueued on a stream like
 * a copy. See async_sample.h for which file holds what.
 *
 * Statuses: every function that can fail returns NULL for success or a status made through the
 * core's services; nothing here aborts or exits, whatever the core or a user passes. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime */

#include "async_sample.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

hx_status* async_status(const hx_plugin* plugin, int32_t code, const char* format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  return plugin->services->status_create(code, message);
}

uint64_t async_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* ---- options ----
 * One option, "memory_mb": each device's memory budget. The core reads the options object for
 * the plugin (the option getters of its services, ABI 2.5), so a plugin in C needs no JSON
 * parser; option_keys refuses any other option, naming the closest known one, so that a typo
 * in a config is not silently ignored. */

static const char* const option_names[] = {"memory_mb"};

static const char* skip_space(const char* at, const char* end) {
  while (at < end && (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')) ++at;
  return at;
}

/* Whether the options text is "{}" (spaces allowed) or none at all. */
static int options_are_empty(const hx_plugin_init_args* args) {
  const char* at;
  const char* end;
  if (args->struct_size < HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length) ||
      args->options_json == NULL) {
    return 1;
  }
  end = args->options_json + args->options_json_length;
  at = skip_space(args->options_json, end);
  if (at == end) return 1;
  if (*at != '{') return 0;
  at = skip_space(at + 1, end);
  if (at == end || *at != '}') return 0;
  return skip_space(at + 1, end) == end;
}

static hx_status* read_options(hx_plugin* plugin, const hx_plugin_init_args* args) {
  const hx_core_services* services = plugin->services;
  int64_t memory_mb = ASYNC_SAMPLE_DEFAULT_MEMORY_MB;
  hx_status* status;
  plugin->memory_bytes = (uint64_t)ASYNC_SAMPLE_DEFAULT_MEMORY_MB << 20;
  /* The getters lie beyond the services table of a core older than 2.5. Such a core is still
   * served, with the defaults, but an option given there cannot be read, so it is refused. */
  if (services->struct_size < HX_STRUCT_SIZE(hx_core_services, option_keys)) {
    if (options_are_empty(args)) return NULL;
    return async_status(plugin, HX_INVALID_ARGUMENT,
                        "%s plugin options: this core (ABI %u.%u) cannot read them for the "
                        "plugin; use a core of ABI 2.5 or later, or give no options",
                        ASYNC_SAMPLE_NAME, (unsigned)args->core_abi_major,
                        (unsigned)args->core_abi_minor);
  }
  status = services->option_keys(plugin->core, option_names,
                                  sizeof option_names / sizeof option_names[0]);
  if (status != NULL) return status;
  status = services->option_int(plugin->core, "memory_mb", &memory_mb);
  if (status != NULL && services->status_code(status) != HX_NOT_FOUND) return status;
  services->status_destroy(status); /* NOT_FOUND: the default stays; NULL is accepted */
  if (memory_mb < 1 || memory_mb > ASYNC_SAMPLE_MAX_MEMORY_MB) {
    return async_status(plugin, HX_INVALID_ARGUMENT,
                        "%s plugin options: 'memory_mb' must be from 1 to %d, got %lld",
                        ASYNC_SAMPLE_NAME, ASYNC_SAMPLE_MAX_MEMORY_MB, (long long)memory_mb);
  }
  plugin->memory_bytes = (uint64_t)memory_mb << 20;
  return NULL;
}

/* ---- lifecycle ---- */

/* Called once, after the core has destroyed every stream (so every worker thread has been
 * joined), event and buffer; never after a failed init. */
static void async_shutdown(hx_plugin* plugin) {
  if (plugin == NULL) return;
  pthread_cond_destroy(&plugin->progress);
  pthread_mutex_destroy(&plugin->lock);
  free(plugin);
}

static void fill_table(hx_plugin* plugin) {
  hx_plugin_api* api = &plugin->api;
  memset(api, 0, sizeof *api);
  api->struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api->extensions = NULL;
  api->abi_major = HX_ABI_VERSION_MAJOR;
  api->abi_minor = HX_ABI_VERSION_MINOR;
  api->name = ASYNC_SAMPLE_NAME;
  api->version = "0.1.0";
  api->device_type = ASYNC_SAMPLE_DEVICE_TYPE;
  api->plugin = plugin;
  api->shutdown = async_shutdown;
  async_fill_device_functions(api);
  async_fill_memory_functions(api);
  /* Streams and events together: the core orders work across streams only with events, and
   * runs a plugin that has one group without the other synchronously. */
  api->streams = &async_stream_api;
  api->events = &async_event_api;
  /* No page-locked host memory: the "device" copies with memcpy, so pinning gains nothing. A
   * plugin whose driver copies faster from pinned memory (CUDA, Vulkan's host-visible
   * staging) would offer it. */
  api->host_memory = NULL;
  /* No recorded work: replaying a recording would save the host one call per op, which for
   * work this cheap to enqueue is not worth the code. The core then enqueues call by call. */
  api->recording = NULL;
}

HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                    const hx_plugin_api** out_api) {
  hx_plugin* plugin;
  hx_status* status;

  plugin = (hx_plugin*)calloc(1, sizeof *plugin);
  if (plugin == NULL) {
    return args->services->status_create(HX_OUT_OF_MEMORY,
                                         ASYNC_SAMPLE_NAME " plugin: no memory for its state");
  }
  plugin->services = args->services;
  plugin->core = args->core;

  /* Same major: the layouts agree. Another major may have moved anything, so refuse it. */
  if (args->core_abi_major != HX_ABI_VERSION_MAJOR) {
    status = async_status(plugin, HX_FAILED_PRECONDITION,
                          "plugin '%s' speaks ABI %d.%d, core speaks %u.%u", ASYNC_SAMPLE_NAME,
                          HX_ABI_VERSION_MAJOR, HX_ABI_VERSION_MINOR,
                          (unsigned)args->core_abi_major, (unsigned)args->core_abi_minor);
    free(plugin);
    return status;
  }
  status = read_options(plugin, args);
  if (status != NULL) {
    free(plugin);
    return status;
  }

  pthread_mutex_init(&plugin->lock, NULL);
  pthread_cond_init(&plugin->progress, NULL);
  plugin->next_stream_id = 1;
  async_init_devices(plugin);
  fill_table(plugin);

  /* Registration happens during init only. On failure the plugin frees what it made: the core
   * does not call shutdown after a failed init. */
  status = async_register_kernels(plugin);
  if (status != NULL) {
    async_shutdown(plugin);
    return status;
  }
  *out_api = &plugin->api;
  return NULL;
}
