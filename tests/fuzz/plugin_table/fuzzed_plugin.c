/* A plugin whose init builds everything the loader reads from the fuzz input: the table's
 * struct_size, ABI versions, identity strings, which functions are NULL (single functions of
 * the table or of its optional groups, whole groups, a group's struct_size), the device count
 * and properties (memory kind, placement class, largest allocation and alignment as raw
 * values), the ops and kernels it registers (names, arity, summary, type_input, raw dtype
 * values, priorities, create/check/destroy, struct sizes), its log lines and the statuses it
 * returns. Every function keeps the ABI's rules for what it writes: the values are
 * arbitrary, the pointers are valid (or NULL, which a struct_size that does not cover a field
 * means anyway). Built on the fixtures' minimal plugin, whose memory functions it keeps. */
#define _GNU_SOURCE /* RTLD_DEFAULT */

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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
static int32_t take_error_code(reader* in) { return 1 + take_byte(in) % 15; }

/* An enum value: one of the enumerators 1 to `last` mostly, else any int32_t. */
static int32_t take_enum(reader* in, int32_t last) {
  return one_in(in, 8) ? (int32_t)take_u32(in) : 1 + take_byte(in) % last;
}

/* NULL (success) most of the time, else a status with an error code. */
static hx_status* take_status(reader* in) {
  if (!one_in(in, 8)) return NULL;
  {
    const int32_t code = take_error_code(in);
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
static int32_t device_count_error;
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
  if (COVERS(props, memory_kind)) props->memory_kind = take_enum(&input, HX_MEMORY_HOST);
  if (COVERS(props, placement_class)) {
    props->placement_class = take_enum(&input, HX_PLACEMENT_CPU);
  }
  if (COVERS(props, max_allocation)) props->max_allocation = take_u64(&input);
  if (COVERS(props, alignment)) {
    props->alignment =
        one_in(&input, 4) ? take_u64(&input) : (uint64_t)1 << (take_byte(&input) % 14);
  }
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

/* Page-locked host memory that is plain host memory. */
static hx_status* fuzzed_host_allocate(hx_device* device, size_t size, void** out_ptr) {
  (void)device;
  *out_ptr = malloc(size == 0 ? 1 : size);
  return *out_ptr == NULL ? fixture_status(HX_OUT_OF_MEMORY, "fuzzed plugin: no host memory")
                          : NULL;
}
static void fuzzed_host_deallocate(hx_device* device, void* ptr) {
  (void)device;
  free(ptr);
}

/* Kernel instances that hold nothing; check accepts every call. */
static hx_status* fuzzed_kernel_create(const hx_kernel_create_args* args,
                                       hx_kernel_instance** out_instance) {
  (void)args;
  *out_instance = NULL;
  return NULL;
}
static hx_status* fuzzed_kernel_check(const hx_kernel_args* args) {
  (void)args;
  return NULL;
}
static void fuzzed_kernel_destroy(hx_kernel_instance* instance, void* user_data) {
  (void)instance;
  (void)user_data;
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
    offsetof(hx_plugin_api, deallocate),        offsetof(hx_plugin_api, memset),
    offsetof(hx_plugin_api, copy_host_to_device), offsetof(hx_plugin_api, copy_device_to_host),
    offsetof(hx_plugin_api, copy_device_to_device)};

/* The optional groups, each with room behind it for a struct_size larger than this header's. */
static struct {
  hx_stream_api api;
  unsigned char tail[kTailBytes];
} streams;
static struct {
  hx_event_api api;
  unsigned char tail[kTailBytes];
} events;
static struct {
  hx_host_memory_api api;
  unsigned char tail[kTailBytes];
} host_memory;

static struct {
  hx_plugin_api api;
  unsigned char tail[kTailBytes];
} table;

/* NULLs the functions of `group` (at `offsets`) whose bit is set in a mask from the input. */
static void null_some(void* group, const size_t* offsets, size_t count) {
  size_t i;
  uint32_t null_mask = 0;
  if (one_in(&input, 4)) null_mask = take_u32(&input);
  for (i = 0; i < count; ++i) {
    if (null_mask >> i & 1) memset((unsigned char*)group + offsets[i], 0, sizeof(hx_kernel_fn));
  }
}

static const size_t stream_offsets[] = {
    offsetof(hx_stream_api, create), offsetof(hx_stream_api, destroy),
    offsetof(hx_stream_api, synchronize), offsetof(hx_stream_api, query),
    offsetof(hx_stream_api, wait_event)};
static const size_t event_offsets[] = {
    offsetof(hx_event_api, create), offsetof(hx_event_api, destroy),
    offsetof(hx_event_api, record), offsetof(hx_event_api, synchronize),
    offsetof(hx_event_api, query)};
static const size_t host_memory_offsets[] = {offsetof(hx_host_memory_api, allocate),
                                             offsetof(hx_host_memory_api, deallocate)};

/* Each group is absent a third of the time; a present one may be short or lack functions. */
static void build_groups(void) {
  memset(&streams, 0, sizeof streams);
  memset(&events, 0, sizeof events);
  memset(&host_memory, 0, sizeof host_memory);
  if (!one_in(&input, 3)) {
    streams.api.struct_size = take_struct_size(&input, HX_STREAM_API_STRUCT_SIZE);
    streams.api.create = fuzzed_stream_create;
    streams.api.destroy = fuzzed_stream_destroy;
    streams.api.synchronize = fuzzed_stream_synchronize;
    streams.api.query = fuzzed_stream_query;
    streams.api.wait_event = fuzzed_stream_wait_event;
    null_some(&streams.api, stream_offsets, sizeof stream_offsets / sizeof stream_offsets[0]);
    table.api.streams = &streams.api;
  }
  if (!one_in(&input, 3)) {
    events.api.struct_size = take_struct_size(&input, HX_EVENT_API_STRUCT_SIZE);
    events.api.create = fuzzed_event_create;
    events.api.destroy = fuzzed_event_destroy;
    events.api.record = fuzzed_event_record;
    events.api.synchronize = fuzzed_event_synchronize;
    events.api.query = fuzzed_event_query;
    null_some(&events.api, event_offsets, sizeof event_offsets / sizeof event_offsets[0]);
    table.api.events = &events.api;
  }
  if (!one_in(&input, 3)) {
    host_memory.api.struct_size = take_struct_size(&input, HX_HOST_MEMORY_API_STRUCT_SIZE);
    host_memory.api.allocate = fuzzed_host_allocate;
    host_memory.api.deallocate = fuzzed_host_deallocate;
    null_some(&host_memory.api, host_memory_offsets,
              sizeof host_memory_offsets / sizeof host_memory_offsets[0]);
    table.api.host_memory = &host_memory.api;
  }
}

static void build_table(const hx_plugin_init_args* args) {
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
  null_some(&table.api, function_offsets, sizeof function_offsets / sizeof function_offsets[0]);
  build_groups();
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
    op.def.summary = one_in(&input, 2) ? take_string(&input) : NULL;
    op.def.type_input = (int8_t)take_byte(&input);
    status = args->services->register_op(args->core, &op.def);
    if (status != NULL && one_in(&input, 4)) return status;
    args->services->status_destroy(status);
  }
  return NULL;
}

static hx_status* register_kernels(const hx_plugin_init_args* args) {
  int count = take_byte(&input) % 6;
  for (; count > 0; --count) {
    struct {
      hx_kernel_def def;
      unsigned char tail[kTailBytes];
    } kernel;
    int32_t dtypes[8];
    int32_t output_dtypes[8];
    size_t i;
    hx_status* status;
    memset(&kernel, 0, sizeof kernel);
    kernel.def.struct_size = take_struct_size(&input, HX_KERNEL_DEF_STRUCT_SIZE);
    kernel.def.op = take_name(&input, op_names[take_byte(&input) % 9]);
    kernel.def.num_dtypes = take_byte(&input) % 9;
    for (i = 0; i < kernel.def.num_dtypes; ++i) {
      dtypes[i] = one_in(&input, 8) ? (int32_t)take_u32(&input) : take_byte(&input) % 8;
    }
    kernel.def.dtypes = one_in(&input, 16) ? NULL : dtypes;
    if (one_in(&input, 4)) {
      kernel.def.num_output_dtypes = take_byte(&input) % 9;
      for (i = 0; i < kernel.def.num_output_dtypes; ++i) {
        output_dtypes[i] = take_byte(&input) % 9;
      }
      kernel.def.output_dtypes = output_dtypes;
    }
    kernel.def.priority = (int32_t)take_u32(&input);
    kernel.def.compute = one_in(&input, 8) ? NULL : fixture_failing_kernel;
    if (one_in(&input, 2)) kernel.def.create = fuzzed_kernel_create;
    if (one_in(&input, 2)) kernel.def.check = fuzzed_kernel_check;
    if (one_in(&input, 2)) kernel.def.destroy = fuzzed_kernel_destroy;
    status = args->services->register_kernel(args->core, &kernel.def);
    if (status != NULL && one_in(&input, 4)) return status;
    args->services->status_destroy(status);
  }
  return NULL;
}

static void write_log_lines(const hx_plugin_init_args* args) {
  int count = take_byte(&input) % 3;
  for (; count > 0; --count) {
    const int32_t level = take_byte(&input) % 6;
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
  if (status == NULL) status = register_kernels(args);
  if (status == NULL) status = take_status(&input);
  if (status != NULL) return status;
  *out_api = one_in(&input, 64) ? NULL : &table.api;
  return NULL;
}
