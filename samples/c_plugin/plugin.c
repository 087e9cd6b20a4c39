/* libhx_c_sample.so: a complete hxrt plugin in plain C99, written against hxrt/plugin_api.h
 * and its vocabulary, hxrt/plugin_vocabulary.h, alone. This file is its entry point:
 * hx_plugin_init checks the core's ABI version and the options, creates the plugin's state,
 * registers the plugin's op and kernels and hands the core its function table.
 *
 * What it offers: one device of its own type, CSAMPLE, backed by a budget of host memory
 * (declared as host memory, and as an accelerator running on the host, so that the placer does
 * not rank it like a GPU); synchronous copies and memset; a new op, CSample_LeakyRelu, with
 * float32 and float64 kernels made once per value of "alpha". It has no streams and no events:
 * those optional groups are absent, and without them the core runs everything on this device
 * synchronously (each copy and kernel completes before it returns). A device with queues of
 * its own (a GPU) would add them.
 *
 * Statuses: every function that can fail returns NULL for success or a status made through
 * the core's services; nothing here aborts or exits, whatever the core or a user passes. */
#include "c_sample.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hx_status* c_sample_status(const hx_core_services* services, int32_t code, const char* format,
                           ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  return services->status_create(code, message);
}

/* ---- options ----
 * The core passes the plugin's entry of plugins.options in the config as JSON text ("{}" when
 * there is none). This plugin takes no options, so all it must do is refuse any, naming the
 * first one, as plugin_api.h asks. A plugin with options would parse the text with a JSON
 * library; a scanner this small is enough to tell "{}" from anything else. */

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

static hx_status* check_no_options(const hx_core_services* services, const char* json,
                                   size_t length) {
  const char* end = json + length;
  const char* at;
  /* Long text is cut in messages: they name the mistake, not the whole config. */
  const int shown = length > 200 ? 200 : (int)length;
  if (json == NULL || length == 0) return NULL;
  at = skip_space(json, end);
  if (at < end && *at == '{') {
    at = skip_space(at + 1, end);
    if (at < end && *at == '}' && skip_space(at + 1, end) == end) return NULL;
    if (at < end && *at == '"') {
      const long key_length = string_body_length(at + 1, end);
      if (key_length >= 0) {
        return c_sample_status(services, HX_INVALID_ARGUMENT,
                               "%s plugin options: unknown option '%.*s' (the %s plugin takes "
                               "no options, got: %.*s)",
                               C_SAMPLE_NAME, key_length > 100 ? 100 : (int)key_length, at + 1,
                               C_SAMPLE_NAME, shown, json);
      }
    }
  }
  return c_sample_status(services, HX_INVALID_ARGUMENT,
                         "%s plugin options: expected an empty JSON object, {} (the %s plugin "
                         "takes no options), got: %.*s",
                         C_SAMPLE_NAME, C_SAMPLE_NAME, shown, json);
}

/* ---- lifecycle ---- */

/* Called once, after the core has given back every allocation; never after a failed init. */
static void c_sample_shutdown(hx_plugin* plugin) {
  if (plugin == NULL) return;
  c_sample_destroy_devices(plugin);
  free(plugin);
}

static void fill_table(hx_plugin* plugin) {
  hx_plugin_api* api = &plugin->api;
  memset(api, 0, sizeof *api);
  api->struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api->extensions = NULL; /* no extension structs: 2.0 defines none */
  api->abi_major = HX_ABI_VERSION_MAJOR;
  api->abi_minor = HX_ABI_VERSION_MINOR;
  api->name = C_SAMPLE_NAME;
  api->version = "0.1.0";
  api->device_type = C_SAMPLE_DEVICE_TYPE;
  api->plugin = plugin;
  api->shutdown = c_sample_shutdown;
  c_sample_fill_device_functions(api);
  c_sample_fill_memory_functions(api);
  /* The optional groups, each present or absent as a whole. This device has no queues of its
   * own, so no streams and no events: the core runs its copies and kernels synchronously.
   * Its memory is host memory already, so there is nothing to pin either. A GPU plugin would
   * point these at static hx_stream_api, hx_event_api and hx_host_memory_api tables, every
   * function of a present group set. */
  api->streams = NULL;
  api->events = NULL;
  api->host_memory = NULL;
}

/* The one exported symbol (HX_EXPORT makes it visible although the library is built with
 * hidden visibility). */
HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                    const hx_plugin_api** out_api) {
  const hx_core_services* services = args->services;
  const char* options = NULL;
  size_t options_length = 0;
  hx_plugin* plugin;
  hx_status* status;

  /* Same major: the layouts agree. Another major may have moved anything, so refuse it. */
  if (args->core_abi_major != HX_ABI_VERSION_MAJOR) {
    return c_sample_status(services, HX_FAILED_PRECONDITION,
                           "plugin '%s' speaks ABI %d.%d, core speaks %u.%u", C_SAMPLE_NAME,
                           HX_ABI_VERSION_MAJOR, HX_ABI_VERSION_MINOR,
                           (unsigned)args->core_abi_major, (unsigned)args->core_abi_minor);
  }
  /* A field is read only when the core's struct_size covers it. */
  if (args->struct_size >= HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length)) {
    options = args->options_json;
    options_length = args->options_json_length;
  }
  status = check_no_options(services, options, options_length);
  if (status != NULL) return status;

  plugin = (hx_plugin*)calloc(1, sizeof *plugin);
  if (plugin == NULL) {
    return c_sample_status(services, HX_OUT_OF_MEMORY, "%s plugin: no memory for its state",
                           C_SAMPLE_NAME);
  }
  plugin->services = services;
  plugin->core = args->core;
  c_sample_init_devices(plugin);
  fill_table(plugin);

  /* Registration happens during init only. On failure the plugin frees what it made itself:
   * the core does not call shutdown after a failed init (and drops its registrations). */
  status = c_sample_register_leaky_relu(plugin);
  if (status != NULL) {
    c_sample_shutdown(plugin);
    return status;
  }
  *out_api = &plugin->api;
  return NULL;
}
