/* Never built into anything: CTest compiles this file as strict C99 and as strict C++17 to
 * show that plugin_api.h and its companion plugin_vocabulary.h, and every macro a plugin
 * expands from them, compile in both. */
#include "hxrt/plugin_api.h"
#include "hxrt/plugin_vocabulary.h"

/* The struct-size macros must be integer constant expressions in C, where plugins use them
 * in static initialisers. */
static const size_t struct_sizes[] = {
    HX_TENSOR_VIEW_STRUCT_SIZE,          HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
    HX_KERNEL_ARGS_STRUCT_SIZE,          HX_KERNEL_DEF_STRUCT_SIZE,
    HX_OUTPUT_SPEC_STRUCT_SIZE,          HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE,
    HX_OP_DEF_STRUCT_SIZE,               HX_DEVICE_PROPERTIES_STRUCT_SIZE,
    HX_CORE_SERVICES_STRUCT_SIZE,        HX_STREAM_API_STRUCT_SIZE,
    HX_EVENT_API_STRUCT_SIZE,            HX_HOST_MEMORY_API_STRUCT_SIZE,
    HX_PLUGIN_API_STRUCT_SIZE,           HX_PLUGIN_INIT_ARGS_STRUCT_SIZE,
    HX_RECORDING_API_STRUCT_SIZE,        HX_PLUGIN_API_REQUIRED_SIZE,
};

/* An optional group as a plugin writes it: a static sub-table. */
static const hx_event_api no_event_functions = {HX_EVENT_API_STRUCT_SIZE, NULL, NULL, NULL,
                                                NULL, NULL, NULL, NULL};

/* An entry point of the documented shape must convert to hx_plugin_init_fn. */
static hx_status* entry_point(const hx_plugin_init_args* args, const hx_plugin_api** out_api) {
  static hx_plugin_api api;
  api.struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api.abi_major = HX_ABI_VERSION_MAJOR;
  api.abi_minor = HX_ABI_VERSION_MINOR;
  api.events = &no_event_functions;
  (void)args;
  *out_api = &api;
  return NULL;
}

HX_EXPORT size_t hx_abi_compile_check(void) {
  hx_plugin_init_fn init = entry_point;
  const hx_plugin_api* api = NULL;
  size_t total = 0;
  size_t i;
  for (i = 0; i < sizeof struct_sizes / sizeof struct_sizes[0]; ++i) total += struct_sizes[i];
  total += hx_dtype_size(HX_DTYPE_F32);
  if (init(NULL, &api) != NULL || api == NULL) return 0;
  /* The vocabulary's check names the first function a present group lacks. */
  return hx_plugin_api_short_group(api) == NULL && hx_plugin_api_missing_function(api) != NULL &&
                 !hx_event_api_has_elapsed_ns(api->events)
             ? total + HX_MAX_RANK
             : 0;
}
