/* A plugin whose init builds everything the loader reads from the fuzz input: the table's
 * struct_size, ABI versions, identity strings, which functions are NULL (whole optional groups
 * or single functions), the device count and properties, the ops and kernels it registers
 * (names, arity, raw dtype values, priorities, struct sizes), its log lines and the statuses
 * it returns. Every function keeps the ABI's rules for what it writes: the values are
 * arbitrary, the pointers are valid (or NULL, which a struct_size that does not cover a field
 * means anyway). Built on the fixtures' minimal plugin, whose memory functions it keeps. */
#define _GNU_SOURCE /* RTLD_DEFAULT */

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fixture_plugin.h"
#include "fuzzed_plugin_bytes.h"

enum {
  kMaxDevices = 4,
  kMaxStrings = 32,
  kMaxStringLength = 48,
  kNullString = 255, /* a string length byte asking for NULL */
  kTailBytes = 256   /* room behind each struct for a struct_size larger than this header's */
};

/* The input, read front to back; once it runs out every read is 0, so any input is a plugin. */
typedef struct reader {
  const uint8_t* data;
  size_t size;
} reader;

static uint8_t take_byte(reader* in) {
  uint8_t byte;
  if (in->size == 0) return 0;
  byte = *in->data++;
  --in->size;
  return byte;
}

static uint32_t take_u32(reader* in) {
  uint32_t value = 0;
  int i;
  for (i = 0; i < 4; ++i) value = value << 8 | take_byte(in);
  return value;
}

static uint64_t take_u64(reader* in) {
  const uint64_t high = take_u32(in);
  return high << 32 | take_u32(in);
}

/* True one time in `n`. */
static int one_in(reader* in, int n) { return take_byte(in) % n == 0; }

/* Strings live until the next init: the table's and the properties' are borrowed until
 * shutdown. A length byte, then the bytes (a NUL among them ends the string early). */
static char strings[kMaxStrings][kMaxStringLength + 1];
static int strings_used;

static const char* take_string(reader* in) {
  const uint8_t length = take_byte(in);
  char* out;
  size_t i;
  if (length == kNullString || strings_used == kMaxStrings) return NULL;
  out = strings[strings_used++];
  for (i = 0; i < length % (kMaxStringLength + 1); ++i) out[i] = (char)take_byte(in);
  out[i] = '\0';
  return out;
}

/* `usual` most of the time, else a string from the input (or NULL). */
static const char* take_name(reader* in, const char* usual) {
  return one_in(in, 4) ? take_string(in) : usual;
}

/* A status code other than HX_OK (which no status may carry), valid or beyond the enum. */
static hx_status_code take_error_code(reader* in) {
  return (hx_status_code)(1 + take_byte(in) % 15);
}

/* NULL (success) most of the time, else a status with an error code. */
static hx_status* take_status(reader* in) {
  if (!one_in(in, 8)) return NULL;
  {
    const hx_status_code code = take_error_code(in);
    return fixture_status(code, take_string(in));
  }
}

/* A struct_size for a struct whose real size is `size` (it has kTailBytes behind it): the
 * right one mostly, else anything from 0 to the end of the tail. */
static size_t take_struct_size(reader* in, size_t size) {
  return one_in(in, 4) ? take_u32(in) % (size + kTailBytes + 1) : size;
}

/* ---- what init read, for the table functions ---- */
static reader input;
static int32_t device_count;
/* device_count fails with this code and message when the code is not HX_OK; the status is
 * made when it is returned, so that a core that never asks leaks nothing. */
static hx_status_code device_count_error;
static const char* device_count_message;
static int null_device_handles;
static int32_t device_handles[kMaxDevices];

static hx_status* fuzzed_device_count(hx_plugin* plugin, int32_t* out_count) {
  (void)plugin;
  if (device_count_error != HX_OK) {
    return fixture_status(device_count_error, device_count_message);
  }
  *out_count = device_count;
  return NULL;
}

static hx_status* fuzzed_device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  (void)plugin;
  if (ordinal < 0 || ordinal >= device_count || ordinal >= kMaxDevices) {
    return fixture_status(HX_OUT_OF_RANGE, "fuzzed plugin: no device with that ordinal");
  }
  *out_device = null_device_handles ? NULL : (hx_device*)&device_handles[ordinal];
  return NULL;
}

#define COVERS(props, field) ((props)->struct_size >= HX_STRUCT_SIZE(hx_device_properties, field))

static hx_status* fuzzed_device_properties(hx_device* device, hx_device_properties* props) {
  hx_status* status = take_status(&input);
  (void)device;
  if (status != NULL) return status;
  if (COVERS(props, name)) props->name = take_string(&input);
  if (COVERS(props, vendor)) props->vendor = take_string(&input);
  if (COVERS(props, bus_id)) props->bus_id = take_string(&input);
  if (COVERS(props, arch)) props->arch = take_string(&input);
  if (COVERS(props, memory_total)) props->memory_total = take_u64(&input);
  if (COVERS(props, numa_node)) props->numa_node = (int32_t)take_u32(&input);
  if (COVERS(props, compute_units)) props->compute_units = (int32_t)take_u32(&input);
  return NULL;
}

static hx_status* fuzzed_memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  hx_status* status = take_status(&input);
  (void)device;
  if (status != NULL) return status;
  *out_free = take_u64(&input);
  *out_total = take_u64(&input);
  return NULL;
}

/* Streams and events that complete at once: the fixture's transfers are synchronous. */
static int32_t the_stream;
static int32_t the_event;

static hx_status* fuzzed_stream_create(hx_device* device, hx_stream** out_stream) {
  (void)device;
  *out_stream = (hx_stream*)&the_stream;
  return NULL;
}
static void fuzzed_stream_destroy(hx_device* device, hx_stream* stream) {
  (void)device;
  (void)stream;
}
static hx_status* fuzzed_stream_synchronize(hx_device* device, hx_stream* stream) {
  (void)device;
  (void)stream;
  return NULL;
}
static hx_status* fuzzed_stream_query(hx_device* device, hx_stream* stream, bool* out_done) {
  (void)device;
  (void)stream;
  *out_done = true;
  return NULL;
}
static hx_status* fuzzed_stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event) {
  (void)device;
  (void)stream;
  (void)event;
  return NULL;
}
static hx_status* fuzzed_event_create(hx_device* device, hx_event** out_event) {
  (void)device;
  *out_event = (hx_event*)&the_event;
  return NULL;
}
static void fuzzed_event_destroy(hx_device* device, hx_event* event) {
  (void)device;
  (void)event;
}
static hx_status* fuzzed_event_record(hx_device* device, hx_event* event, hx_stream* stream) {
  (void)device;
  (void)event;
  (void)stream;
  return NULL;
}
static hx_status* fuzzed_event_synchronize(hx_device* device, hx_event* event) {
  (void)device;
  (void)event;
  return NULL;
}
static hx_status* fuzzed_event_query(hx_device* device, hx_event* event, bool* out_done) {
  (void)device;
  (void)event;
  *out_done = true;
  return NULL;
}

static hx_status* failing_inference(const hx_shape_inference_args* args) {
  (void)args;
  return fixture_status(HX_INVALID_ARGUMENT, "fuzzed plugin: its ops accept no call");
}

/* Every function of the table, each of which the input may set to NULL. */
static const size_t function_offsets[] = {
    offsetof(hx_plugin_api, shutdown),          offsetof(hx_plugin_api, device_count),
    offsetof(hx_plugin_api, device_get),        offsetof(hx_plugin_api, device_properties),
    offsetof(hx_plugin_api, memory_info),       offsetof(hx_plugin_api, allocate),
    offsetof(hx_plugin_api, deallocate),        offsetof(hx_plugin_api, host_allocate),
    offsetof(hx_plugin_api, host_deallocate),   offsetof(hx_plugin_api, memset),
    offsetof(hx_plugin_api, copy_host_to_device), offsetof(hx_plugin_api, copy_device_to_host),
    offsetof(hx_plugin_api, copy_device_to_device), offsetof(hx_plugin_api, stream_create),
    offsetof(hx_plugin_api, stream_destroy),    offsetof(hx_plugin_api, stream_synchronize),
    offsetof(hx_plugin_api, stream_query),      offsetof(hx_plugin_api, stream_wait_event),
    offsetof(hx_plugin_api, event_create),      offsetof(hx_plugin_api, event_destroy),
    offsetof(hx_plugin_api, event_record),      offsetof(hx_plugin_api, event_synchronize),
    offsetof(hx_plugin_api, event_query)};

static struct {
  hx_plugin_api api;
  unsigned char tail[kTailBytes];
} table;

static void build_table(const hx_plugin_init_args* args) {
  size_t i;
  uint32_t null_mask = 0;
  const char* name = take_name(&input, "fuzz");
  const char* device_type = take_name(&input, "FUZZ");
  memset(&table, 0, sizeof table);
  table.api = fixture_start(args, name, device_type);
  table.api.struct_size = take_struct_size(&input, HX_PLUGIN_API_STRUCT_SIZE);
  if (one_in(&input, 8)) table.api.abi_major = take_u32(&input);
  if (one_in(&input, 4)) table.api.abi_minor = take_u32(&input);
  table.api.version = take_name(&input, "1.0.0");
  table.api.device_count = fuzzed_device_count;
  table.api.device_get = fuzzed_device_get;
  table.api.device_properties = fuzzed_device_properties;
  table.api.memory_info = fuzzed_memory_info;
  if (!one_in(&input, 3)) {
    table.api.stream_create = fuzzed_stream_create;
    table.api.stream_destroy = fuzzed_stream_destroy;
    table.api.stream_synchronize = fuzzed_stream_synchronize;
    table.api.stream_query = fuzzed_stream_query;
    table.api.stream_wait_event = fuzzed_stream_wait_event;
  }
  if (!one_in(&input, 3)) {
    table.api.event_create = fuzzed_event_create;
    table.api.event_destroy = fuzzed_event_destroy;
    table.api.event_record = fuzzed_event_record;
    table.api.event_synchronize = fuzzed_event_synchronize;
    table.api.event_query = fuzzed_event_query;
  }
  if (one_in(&input, 4)) null_mask = take_u32(&input);
  for (i = 0; i < sizeof function_offsets / sizeof function_offsets[0]; ++i) {
    if (null_mask >> i & 1) {
      memset((unsigned char*)&table.api + function_offsets[i], 0, sizeof(hx_kernel_fn));
    }
  }
}

static void choose_devices(void) {
  switch (take_byte(&input) % 8) {
    case 0:
      device_count_error = take_error_code(&input);
      device_count_message = take_string(&input);
      break;
    case 1:
      device_count = (int32_t)take_u32(&input);
      break;
    default:
      device_count = take_byte(&input) % (kMaxDevices + 1);
  }
  null_device_handles = one_in(&input, 16);
}

/* The core's ops, a custom op this plugin may register, and one that nobody defines. */
static const char* const op_names[] = {"Relu", "MatMul", "Add", "AddN", "Cast", "Fill",
                                       "Sum",  "FuzzOp", "NoSuchOp"};

static hx_status* register_ops(const hx_plugin_init_args* args) {
  int count = take_byte(&input) % 3;
  for (; count > 0; --count) {
    struct {
      hx_op_def def;
      unsigned char tail[kTailBytes];
    } op;
    hx_status* status;
    memset(&op, 0, sizeof op);
    op.def.struct_size = take_struct_size(&input, HX_OP_DEF_STRUCT_SIZE);
    op.def.name = take_name(&input, op_names[take_byte(&input) % 9]);
    op.def.min_inputs = (int8_t)take_byte(&input);
    op.def.max_inputs = (int8_t)take_byte(&input);
    op.def.num_outputs = one_in(&input, 4) ? (int32_t)take_u32(&input) : 1;
    op.def.infer = one_in(&input, 8) ? NULL : failing_inference;
    status = args->services->register_op(args->core, &op.def);
    if (status != NULL && one_in(&input, 4)) return status;
    args->services->status_destroy(status);
  }
  return NULL;
}

static hx_status* register_kernels(const hx_plugin_init_args* args, const char* own_type) {
  int count = take_byte(&input) % 6;
  for (; count > 0; --count) {
    struct {
      hx_kernel_def def;
      unsigned char tail[kTailBytes];
    } kernel;
    hx_dtype dtypes[4];
    hx_dtype output_dtypes[4];
    size_t i;
    hx_status* status;
    memset(&kernel, 0, sizeof kernel);
    kernel.def.struct_size = take_struct_size(&input, HX_KERNEL_DEF_STRUCT_SIZE);
    kernel.def.op = take_name(&input, op_names[take_byte(&input) % 9]);
    kernel.def.device_type = take_name(&input, one_in(&input, 4) ? "CPU" : own_type);
    kernel.def.num_dtypes = take_byte(&input) % 5;
    for (i = 0; i < kernel.def.num_dtypes; ++i) {
      dtypes[i] = one_in(&input, 8) ? (hx_dtype)take_u32(&input)
                                    : (hx_dtype)(take_byte(&input) % 8);
    }
    kernel.def.dtypes = one_in(&input, 16) ? NULL : dtypes;
    if (one_in(&input, 4)) {
      kernel.def.num_output_dtypes = take_byte(&input) % 5;
      for (i = 0; i < kernel.def.num_output_dtypes; ++i) {
        output_dtypes[i] = (hx_dtype)(take_byte(&input) % 9);
      }
      kernel.def.output_dtypes = output_dtypes;
    }
    kernel.def.priority = (int32_t)take_u32(&input);
    kernel.def.compute = one_in(&input, 8) ? NULL : fixture_failing_kernel;
    status = args->services->register_kernel(args->core, &kernel.def);
    if (status != NULL && one_in(&input, 4)) return status;
    args->services->status_destroy(status);
  }
  return NULL;
}

static void write_log_lines(const hx_plugin_init_args* args) {
  int count = take_byte(&input) % 3;
  for (; count > 0; --count) {
    const hx_log_level level = (hx_log_level)(take_byte(&input) % 6);
    const char* message = take_string(&input);
    args->services->log(args->core, level, message != NULL ? message : "");
  }
}

HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                    const hx_plugin_api** out_api) {
  hxrt_fuzz_plugin_bytes_fn bytes;
  hx_status* status;
  *(void**)&bytes = dlsym(RTLD_DEFAULT, HXRT_FUZZ_PLUGIN_BYTES_SYMBOL);
  if (bytes == NULL) {
    return args->services->status_create(
        HX_FAILED_PRECONDITION, "the fuzzed plugin runs only inside plugin_table_fuzz");
  }
  input.data = bytes(&input.size);
  strings_used = 0;
  device_count = 0;
  device_count_error = HX_OK;

  build_table(args);
  choose_devices();
  write_log_lines(args);
  status = register_ops(args);
  if (status == NULL) status = register_kernels(args, table.api.device_type);
  if (status == NULL) status = take_status(&input);
  if (status != NULL) return status;
  *out_api = one_in(&input, 64) ? NULL : &table.api;
  return NULL;
}
