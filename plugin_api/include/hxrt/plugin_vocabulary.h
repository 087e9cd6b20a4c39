/*
 * The vocabulary of the hxrt plugin ABI (<hxrt/plugin_api.h>): the names of its enum values,
 * the size of each dtype, the limits and grammars of names, and the check of a function table
 * for missing functions. One copy, used by the core, the plugin support library,
 * hxrt-conformance and any plugin, so every message names a dtype or a status code the same way
 * and every one of them accepts the same names. Header-only C99 (static inline).
 */
#ifndef HXRT_PLUGIN_VOCABULARY_H_
#define HXRT_PLUGIN_VOCABULARY_H_

#include <hxrt/plugin_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per element of an hx_dtype; 0 for HX_DTYPE_INVALID and values outside the enum. */
static inline size_t hx_dtype_size(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: return 4;
    case HX_DTYPE_F64: return 8;
    case HX_DTYPE_F16: return 2;
    case HX_DTYPE_BF16: return 2;
    case HX_DTYPE_I32: return 4;
    case HX_DTYPE_I64: return 8;
    case HX_DTYPE_BOOL: return 1;
    case HX_DTYPE_I8: return 1;
    case HX_DTYPE_U8: return 1;
    case HX_DTYPE_I16: return 2;
    case HX_DTYPE_U16: return 2;
    case HX_DTYPE_U32: return 4;
    case HX_DTYPE_U64: return 8;
    case HX_DTYPE_F8E4M3FN:
    case HX_DTYPE_F8E4M3FNUZ:
    case HX_DTYPE_F8E5M2:
    case HX_DTYPE_F8E5M2FNUZ: return 1;
    default: return 0;
  }
}

/* NumPy's name of an hx_dtype ("float32", "bfloat16", "int64", "bool"); "invalid" for
 * HX_DTYPE_INVALID and values outside the enum. */
static inline const char* hx_dtype_name(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: return "float32";
    case HX_DTYPE_F64: return "float64";
    case HX_DTYPE_F16: return "float16";
    case HX_DTYPE_BF16: return "bfloat16";
    case HX_DTYPE_I32: return "int32";
    case HX_DTYPE_I64: return "int64";
    case HX_DTYPE_BOOL: return "bool";
    case HX_DTYPE_I8: return "int8";
    case HX_DTYPE_U8: return "uint8";
    case HX_DTYPE_I16: return "int16";
    case HX_DTYPE_U16: return "uint16";
    case HX_DTYPE_U32: return "uint32";
    case HX_DTYPE_U64: return "uint64";
    case HX_DTYPE_F8E4M3FN: return "float8_e4m3fn";
    case HX_DTYPE_F8E4M3FNUZ: return "float8_e4m3fnuz";
    case HX_DTYPE_F8E5M2: return "float8_e5m2";
    case HX_DTYPE_F8E5M2FNUZ: return "float8_e5m2fnuz";
    default: return "invalid";
  }
}

/* The ABI minor that added an hx_dtype: 0 for those of 1.0 (f32 to bool), 7 for those of 2.7
 * (int8 to float8_e5m2fnuz). A core whose minor is below it refuses registrations naming it. */
static inline uint32_t hx_dtype_abi_minor(int32_t dtype) {
  return dtype >= HX_DTYPE_I8 && dtype <= HX_DTYPE_F8E5M2FNUZ ? 7 : 0;
}

/* True for the enumerators of hx_dtype other than HX_DTYPE_INVALID. */
static inline bool hx_dtype_is_valid(int32_t dtype) { return hx_dtype_size(dtype) != 0; }

/* The name of an hx_status_code ("OK", "INVALID_ARGUMENT"); "UNKNOWN" outside the enum. */
static inline const char* hx_status_code_name(int32_t code) {
  switch (code) {
    case HX_OK: return "OK";
    case HX_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case HX_NOT_FOUND: return "NOT_FOUND";
    case HX_ALREADY_EXISTS: return "ALREADY_EXISTS";
    case HX_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case HX_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case HX_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case HX_UNAVAILABLE: return "UNAVAILABLE";
    case HX_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case HX_INTERNAL: return "INTERNAL";
    default: return "UNKNOWN";
  }
}

/* True for the error codes a status may carry: HX_INVALID_ARGUMENT to HX_INTERNAL. */
static inline bool hx_status_code_is_error(int32_t code) {
  return code >= HX_INVALID_ARGUMENT && code <= HX_INTERNAL;
}

/* "device", "host-visible", "host"; NULL outside the enum or for HX_MEMORY_KIND_INVALID. */
static inline const char* hx_memory_kind_name(int32_t kind) {
  switch (kind) {
    case HX_MEMORY_DEVICE: return "device";
    case HX_MEMORY_HOST_VISIBLE: return "host-visible";
    case HX_MEMORY_HOST: return "host";
    default: return NULL;
  }
}

/* "discrete accelerator", "host accelerator", "CPU"; NULL outside the enum or for
 * HX_PLACEMENT_CLASS_INVALID. */
static inline const char* hx_placement_class_name(int32_t placement_class) {
  switch (placement_class) {
    case HX_PLACEMENT_DISCRETE_ACCELERATOR: return "discrete accelerator";
    case HX_PLACEMENT_HOST_ACCELERATOR: return "host accelerator";
    case HX_PLACEMENT_CPU: return "CPU";
    default: return NULL;
  }
}

/* "in plugin", "on host"; NULL outside the enum. */
static inline const char* hx_cross_device_wait_name(int32_t wait) {
  switch (wait) {
    case HX_WAIT_IN_PLUGIN: return "in plugin";
    case HX_WAIT_ON_HOST: return "on host";
    default: return NULL;
  }
}

/* The limits and grammars of the names a plugin gives (hx_plugin_api.name, .version and
 * .device_type; hx_op_def.name and .summary; hx_kernel_def.op). Each check reads at most its
 * limit plus one byte of a NUL-terminated text, and is false for NULL. */
#define HX_MAX_PLUGIN_NAME_LENGTH 64
#define HX_MAX_PLUGIN_VERSION_LENGTH 64
#define HX_MAX_DEVICE_TYPE_LENGTH 32
#define HX_MAX_OP_NAME_LENGTH 64
#define HX_MAX_OP_SUMMARY_LENGTH 256

static inline bool hx_char_is_lower_(char c) { return c >= 'a' && c <= 'z'; }
static inline bool hx_char_is_upper_(char c) { return c >= 'A' && c <= 'Z'; }
static inline bool hx_char_is_digit_(char c) { return c >= '0' && c <= '9'; }
static inline bool hx_char_in_plugin_name_(char c) {
  return hx_char_is_lower_(c) || hx_char_is_digit_(c) || c == '_';
}
static inline bool hx_char_in_device_type_(char c) {
  return hx_char_is_upper_(c) || hx_char_is_digit_(c) || c == '_';
}
static inline bool hx_char_in_op_name_(char c) {
  return hx_char_is_upper_(c) || hx_char_is_lower_(c) || hx_char_is_digit_(c) || c == '_';
}
static inline bool hx_char_is_printable_(char c) { return c >= 0x20 && c < 0x7F; }

/* 1 to max_length characters, the first satisfying `first`, every one satisfying `rest`. */
static inline bool hx_text_matches_(const char* text, size_t max_length, bool (*first)(char),
                                    bool (*rest)(char)) {
  size_t i;
  if (text == NULL || text[0] == '\0' || !first(text[0])) return false;
  for (i = 0; text[i] != '\0'; ++i) {
    if (i == max_length || !rest(text[i])) return false;
  }
  return true;
}

/* [a-z][a-z0-9_]*, at most HX_MAX_PLUGIN_NAME_LENGTH characters ("cpu", "my_npu2"). */
static inline bool hx_is_plugin_name(const char* text) {
  return hx_text_matches_(text, HX_MAX_PLUGIN_NAME_LENGTH, hx_char_is_lower_,
                          hx_char_in_plugin_name_);
}

/* Printable ASCII, 1 to HX_MAX_PLUGIN_VERSION_LENGTH characters ("1.0.0"). */
static inline bool hx_is_plugin_version(const char* text) {
  return hx_text_matches_(text, HX_MAX_PLUGIN_VERSION_LENGTH, hx_char_is_printable_,
                          hx_char_is_printable_);
}

/* [A-Z][A-Z0-9_]*, at most HX_MAX_DEVICE_TYPE_LENGTH characters ("GPU", "NPU2"). */
static inline bool hx_is_device_type(const char* text) {
  return hx_text_matches_(text, HX_MAX_DEVICE_TYPE_LENGTH, hx_char_is_upper_,
                          hx_char_in_device_type_);
}

/* [A-Z][A-Za-z0-9_]*, at most HX_MAX_OP_NAME_LENGTH characters ("MatMul", "MyOp_2"). */
static inline bool hx_is_op_name(const char* text) {
  return hx_text_matches_(text, HX_MAX_OP_NAME_LENGTH, hx_char_is_upper_, hx_char_in_op_name_);
}

/* The name of the first required function that is NULL in a plugin's table of this version,
 * counting the functions of each optional group that is present ("streams.wait_event"); NULL
 * when nothing required is missing. The table's struct_size must be at least
 * HX_PLUGIN_API_REQUIRED_SIZE and each present group's struct_size must cover its own
 * functions (the caller checks those first). */
static inline const char* hx_plugin_api_missing_function(const hx_plugin_api* api) {
  if (!api->shutdown) return "shutdown";
  if (!api->device_count) return "device_count";
  if (!api->device_get) return "device_get";
  if (!api->device_properties) return "device_properties";
  if (!api->allocate) return "allocate";
  if (!api->deallocate) return "deallocate";
  if (!api->memset) return "memset";
  if (!api->copy_host_to_device) return "copy_host_to_device";
  if (!api->copy_device_to_host) return "copy_device_to_host";
  if (!api->copy_device_to_device) return "copy_device_to_device";
  if (api->streams) {
    if (!api->streams->create) return "streams.create";
    if (!api->streams->destroy) return "streams.destroy";
    if (!api->streams->synchronize) return "streams.synchronize";
    if (!api->streams->query) return "streams.query";
    if (!api->streams->wait_event) return "streams.wait_event";
  }
  if (api->events) {
    if (!api->events->create) return "events.create";
    if (!api->events->destroy) return "events.destroy";
    if (!api->events->record) return "events.record";
    if (!api->events->synchronize) return "events.synchronize";
    if (!api->events->query) return "events.query";
  }
  if (api->host_memory) {
    const hx_host_memory_api* host = api->host_memory;
    if (!host->allocate) return "host_memory.allocate";
    if (!host->deallocate) return "host_memory.deallocate";
    /* The buffer functions come together or not at all. */
    if (host->struct_size >= HX_HOST_MEMORY_API_STRUCT_SIZE &&
        (host->allocate_buffer || host->copy_to_device || host->copy_to_host)) {
      if (!host->allocate_buffer) return "host_memory.allocate_buffer";
      if (!host->copy_to_device) return "host_memory.copy_to_device";
      if (!host->copy_to_host) return "host_memory.copy_to_host";
    }
  }
  if (api->struct_size >= HX_STRUCT_SIZE(hx_plugin_api, recording) && api->recording) {
    if (!api->recording->begin) return "recording.begin";
    if (!api->recording->end) return "recording.end";
    if (!api->recording->replay) return "recording.replay";
    if (!api->recording->destroy) return "recording.destroy";
  }
  return NULL;
}

/* The smallest function table a core of this major accepts: 2.0's, which ends with the
 * host_memory group. A group appended since (recording, 2.4) lies beyond the struct_size of an
 * older table and reads as NULL. */
#define HX_PLUGIN_API_REQUIRED_SIZE HX_STRUCT_SIZE(hx_plugin_api, host_memory)

/* The recorded-work group of a table (NULL: none), read only where the table's struct_size
 * covers the field: a table written for 2.0 to 2.3 ends before it. */
static inline const hx_recording_api* hx_plugin_api_recording(const hx_plugin_api* api) {
  return api->struct_size >= HX_STRUCT_SIZE(hx_plugin_api, recording) ? api->recording : NULL;
}

/* Where each optional group's required functions end: a present group's struct_size must
 * reach it. An [optional] function appended to a group later may lie beyond: the events
 * group's elapsed_ns came in 2.2, and a group written for 2.0 or 2.1 ends before it. */
#define HX_STREAM_API_REQUIRED_SIZE HX_STREAM_API_STRUCT_SIZE
#define HX_EVENT_API_REQUIRED_SIZE HX_STRUCT_SIZE(hx_event_api, query)
#define HX_HOST_MEMORY_API_REQUIRED_SIZE HX_STRUCT_SIZE(hx_host_memory_api, deallocate)
#define HX_RECORDING_API_REQUIRED_SIZE HX_RECORDING_API_STRUCT_SIZE

/* The name of the first optional group whose struct_size ends before its required functions
 * do ("streams"), NULL when every present group is whole. */
static inline const char* hx_plugin_api_short_group(const hx_plugin_api* api) {
  if (api->streams && api->streams->struct_size < HX_STREAM_API_REQUIRED_SIZE) return "streams";
  if (api->events && api->events->struct_size < HX_EVENT_API_REQUIRED_SIZE) return "events";
  if (api->host_memory && api->host_memory->struct_size < HX_HOST_MEMORY_API_REQUIRED_SIZE) {
    return "host_memory";
  }
  const hx_recording_api* recording = hx_plugin_api_recording(api);
  if (recording && recording->struct_size < HX_RECORDING_API_REQUIRED_SIZE) return "recording";
  return NULL;
}

/* Whether a host_memory group (NULL: none) offers host memory as buffers: its struct_size
 * covers the buffer functions (a group written for 2.0 to 2.4 ends before them) and they are
 * set. */
static inline bool hx_host_memory_api_has_buffers(const hx_host_memory_api* host) {
  return host != NULL && host->struct_size >= HX_HOST_MEMORY_API_STRUCT_SIZE &&
         host->allocate_buffer != NULL;
}

/* Whether an events group (NULL: none) offers elapsed_ns: its struct_size covers the field (a
 * group written for 2.0 or 2.1 ends before it) and the function is set. */
static inline bool hx_event_api_has_elapsed_ns(const hx_event_api* events) {
  return events != NULL && events->struct_size >= HX_STRUCT_SIZE(hx_event_api, elapsed_ns) &&
         events->elapsed_ns != NULL;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HXRT_PLUGIN_VOCABULARY_H_ */
