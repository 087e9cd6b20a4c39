/* libhx_async_sample.so: an asynchronous hxrt plugin of opaque device memory, in plain C99,
 * written against hxrt/plugin_api.h and hxrt/plugin_vocabulary.h alone. This file is its entry
 * point: hx_plugin_init checks the core's ABI version and the options, creates the plugin's
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
 * This plugin takes none, and refuses any, naming the first (plugin_api.h asks for that, so
 * that a typo in a config is not silently ignored). A plugin with options would parse the text
 * with a JSON library; a scanner this small tells "{}" from anything else. */

static const char* skip_space(const char* at, const char* end) {
  while (at < end && (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')) ++at;
  return at;
}

/* The length of a JSON string's body starting after its opening quote, or -1 when it does
 * not end. */
static long string_body_length(const char* body, const char* end) {
  const char* at = body;
  while (at < end && *at != '"') at += (*at == '\\' && at + 1 < end) ? 2 : 1;
  return at < end ? (long)(at - body) : -1;
}

static hx_status* check_no_options(const hx_plugin* plugin, const char* json, size_t length) {
  const char* end = json + length;
  const char* at;
  const int shown = length > 200 ? 200 : (int)length; /* messages name the mistake, not all */
  if (json == NULL || length == 0) return NULL;
  at = skip_space(json, end);
  if (at < end && *at == '{') {
    at = skip_space(at + 1, end);
    if (at < end && *at == '}' && skip_space(at + 1, end) == end) return NULL;
    if (at < end && *at == '"') {
      const long key_length = string_body_length(at + 1, end);
      if (key_length >= 0) {
        return async_status(plugin, HX_INVALID_ARGUMENT,
                            "%s plugin options: unknown option '%.*s' (the %s plugin takes no "
                            "options, got: %.*s)",
                            ASYNC_SAMPLE_NAME, key_length > 100 ? 100 : (int)key_length, at + 1,
                            ASYNC_SAMPLE_NAME, shown, json);
      }
    }
  }
  return async_status(plugin, HX_INVALID_ARGUMENT,
                      "%s plugin options: expected an empty JSON object, {} (the %s plugin "
                      "takes no options), got: %.*s",
                      ASYNC_SAMPLE_NAME, ASYNC_SAMPLE_NAME, shown, json);
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
  const char* options = NULL;
  size_t options_length = 0;
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
  /* A field is read only when the core's struct_size covers it. */
  if (args->struct_size >= HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length)) {
    options = args->options_json;
    options_length = args->options_json_length;
  }
  status = check_no_options(plugin, options, options_length);
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
