/*
 * hxrt plugin ABI — the whole specification a backend plugin is written against.
 *
 * A plugin is a shared object (`libhx_<name>.so`) that exports one symbol, `hx_plugin_init`
 * (see the last section). The core loads it with dlopen(RTLD_LOCAL), calls that symbol once,
 * and from then on talks to the plugin only through the function table the plugin returns.
 * Nothing else is needed to write a plugin: this header includes only <stddef.h>, <stdint.h>
 * and <stdbool.h>, and compiles as C99 and as C++.
 *
 * ============================================================================================
 * CONVENTIONS
 * ============================================================================================
 * Versioning. HX_ABI_VERSION_MAJOR changes when anything is removed, reordered or retyped;
 *   HX_ABI_VERSION_MINOR changes when something is appended. A core accepts a plugin of the
 *   same major and uses the lower of the two minors; a plugin of another major is skipped
 *   with a message naming both versions. The CHANGELOG at the end of this header lists every
 *   minor.
 *
 * Struct sizes. Every struct that crosses the boundary starts with `size_t struct_size`
 *   followed by `void* extension` (reserved for chained extension structs; set it to NULL).
 *   Structs only grow at the end. HX_<NAME>_STRUCT_SIZE is the end offset of the last field
 *   of this version; the writer of a struct sets struct_size to that macro, and the reader
 *   reads a field only if struct_size covers it. A field beyond struct_size reads as zero /
 *   NULL, which always means "absent" or "unsupported".
 *
 * Errors. Functions that can fail return `hx_status*`: NULL is success, anything else is an
 *   error object with a code and a message. Plugins create statuses only through
 *   hx_core_services.status_create; the receiver of a status owns it and frees it with
 *   hx_core_services.status_destroy. Nothing may throw, longjmp or abort across the
 *   boundary: a C++ plugin catches everything at its entry points.
 *
 * Ownership words used on every field and parameter:
 *   "borrowed, valid until X"  the receiver may read it until X and must not free it;
 *   "out"                      written by the callee, read by the caller;
 *   "caller owns" / "takes ownership"  who frees it;
 *   "may be NULL"              NULL is an accepted value and its meaning is given.
 *   Every create has a destroy, and every destroy accepts NULL.
 *
 * Optional functions. A function marked [optional] may be NULL in the table; NULL means
 *   "unsupported" and never makes a load fail. Required functions that are NULL make the core
 *   skip the plugin with a reason naming the function.
 *
 * Threading. Unless a function says otherwise the core may call it from any thread and from
 *   several threads at once: device queries, allocation, copies and kernels must be
 *   thread-safe. init and shutdown are called once, from one thread, with nothing else in
 *   flight.
 *
 * Crashes. A plugin runs inside the host process, so a crash, abort(), exit() or endless wait
 *   anywhere in it ends or blocks the host. With probing on (config plugins.probe, off by
 *   default; hxrt-info probes), the core first loads each plugin in a child process that runs
 *   dlopen, hx_plugin_init with the same options, device_count, device_get and
 *   device_properties of each device, shutdown and dlclose; a plugin that crashes, exits or
 *   does not finish there within the time limit is skipped with the reason and never loaded
 *   into the host. That is all probing protects: a kernel, copy, stream or event function
 *   that crashes, hangs or corrupts memory at run time takes the host down, probing or not,
 *   and so can a crash the probe process does not reproduce (one that depends on the host's
 *   other plugins, threads or timing).
 *
 * Strings are UTF-8 and NUL-terminated unless a length is passed beside them. The core reads
 *   a plugin's string no further than the limit stated on its field, and escapes control
 *   characters (C0, DEL, C1) and bytes that are not UTF-8 as \xNN in everything it logs or
 *   reports from a plugin (status messages included), so no plugin text reaches a terminal raw.
 *
 * Enums. A value of an enum type that the core receives (a dtype, a status code, a log level)
 *   is checked against the enumerators; one outside them is refused as described at the
 *   function that receives it, never undefined behaviour.
 * Names: functions and types start with `hx_`, macros and enum values with `HX_`.
 */
#ifndef HXRT_PLUGIN_API_H_
#define HXRT_PLUGIN_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HX_ABI_VERSION_MAJOR 1
#define HX_ABI_VERSION_MINOR 0

/* The name of the one symbol a plugin exports (see hx_plugin_init_fn). */
#define HX_PLUGIN_INIT_SYMBOL "hx_plugin_init"

/* Marks the entry point as exported even when the plugin builds with -fvisibility=hidden. */
#if defined(_WIN32)
#define HX_EXPORT __declspec(dllexport)
#else
#define HX_EXPORT __attribute__((visibility("default")))
#endif

/* End offset of `field` in `type`: the value of every HX_<NAME>_STRUCT_SIZE macro. */
#define HX_STRUCT_SIZE(type, field) (offsetof(type, field) + sizeof(((type*)0)->field))

/* Most dimensions a tensor may have. */
#define HX_MAX_RANK 8

/* ============================================================================================
 * OPAQUE HANDLES
 * ============================================================================================ */

/* An error object; created by the core (hx_core_services.status_create). */
typedef struct hx_status_s hx_status;
/* The core's handle for one plugin; pass it back to every hx_core_services function. */
typedef struct hx_core_s hx_core;
/* The plugin's own global state, returned by init and passed back to table functions. */
typedef struct hx_plugin_s hx_plugin;
/* The plugin's state for one of its devices; owned by the plugin, valid until shutdown. */
typedef struct hx_device_s hx_device;
/* An ordered queue of work on one device; owned by the plugin. */
typedef struct hx_stream_s hx_stream;
/* A marker in a stream that other streams and the host can wait for; owned by the plugin. */
typedef struct hx_event_s hx_event;
/* The core's state for one kernel call; read attributes through hx_core_services. */
typedef struct hx_kernel_context_s hx_kernel_context;

/* ============================================================================================
 * STATUS CODES AND DATA TYPES
 * ============================================================================================ */

/* The fixed set of error codes. HX_OK is never carried by a status object (success is NULL);
 * it exists so that code can be compared and printed uniformly. */
typedef enum hx_status_code {
  HX_OK = 0,
  HX_INVALID_ARGUMENT = 1,   /* the caller passed something wrong: shape, dtype, size, pointer */
  HX_NOT_FOUND = 2,          /* a named thing (attribute, op, device) does not exist */
  HX_ALREADY_EXISTS = 3,     /* registering something that is registered already */
  HX_OUT_OF_MEMORY = 4,      /* an allocation could not be satisfied */
  HX_UNIMPLEMENTED = 5,      /* the operation is not supported by this plugin or device */
  HX_FAILED_PRECONDITION = 6,/* the system is not in a state where this call can run */
  HX_UNAVAILABLE = 7,        /* the resource is absent (no driver, no device); may be transient */
  HX_OUT_OF_RANGE = 8,       /* an index or value outside its valid range */
  HX_INTERNAL = 9            /* a bug or a failure of an underlying library */
} hx_status_code;

/* Element types. Values are part of the ABI and never renumbered. */
typedef enum hx_dtype {
  HX_DTYPE_INVALID = 0,
  HX_DTYPE_F32 = 1,  /* IEEE 754 binary32 */
  HX_DTYPE_F64 = 2,  /* IEEE 754 binary64 */
  HX_DTYPE_F16 = 3,  /* IEEE 754 binary16, stored as uint16_t */
  HX_DTYPE_BF16 = 4, /* bfloat16 (upper half of a binary32), stored as uint16_t */
  HX_DTYPE_I32 = 5,  /* int32_t */
  HX_DTYPE_I64 = 6,  /* int64_t */
  HX_DTYPE_BOOL = 7  /* one byte, 0 or 1 */
} hx_dtype;

/* Severity for hx_core_services.log. */
typedef enum hx_log_level {
  HX_LOG_DEBUG = 0,
  HX_LOG_INFO = 1,
  HX_LOG_WARNING = 2,
  HX_LOG_ERROR = 3
} hx_log_level;

/* ============================================================================================
 * TENSORS AS KERNELS SEE THEM
 * ============================================================================================ */

/* A view of one tensor's memory, valid for the duration of one kernel call (or shape
 * inference call). All pointers are borrowed from the core. */
typedef struct hx_tensor_view {
  size_t struct_size;     /* HX_TENSOR_VIEW_STRUCT_SIZE */
  void* extension;        /* NULL */
  void* data;             /* device memory of `device`, already offset to the first element;
                             NULL in shape inference, and may be NULL when the tensor has no
                             elements */
  hx_dtype dtype;         /* element type */
  int32_t rank;           /* number of dimensions, 0 (a scalar) to HX_MAX_RANK */
  const int64_t* shape;   /* borrowed: `rank` extents, each >= 0 */
  const int64_t* strides; /* borrowed: `rank` strides in elements (not bytes); the core passes
                             dense row-major tensors in ABI 1.0, so strides[rank-1] == 1 and
                             each stride is the product of the extents after it */
  hx_device* device;      /* the plugin device that holds `data`; NULL in shape inference */
} hx_tensor_view;
#define HX_TENSOR_VIEW_STRUCT_SIZE HX_STRUCT_SIZE(hx_tensor_view, device)

/* ============================================================================================
 * KERNELS
 * ============================================================================================ */

/* Everything one kernel call receives. Borrowed from the core for the duration of the call. */
typedef struct hx_kernel_args {
  size_t struct_size;            /* HX_KERNEL_ARGS_STRUCT_SIZE */
  void* extension;               /* NULL */
  hx_kernel_context* context;    /* for the attribute getters in hx_core_services */
  hx_device* device;             /* the device the kernel runs on */
  hx_stream* stream;             /* the stream to enqueue work on; NULL when the plugin has no
                                    streams, in which case the kernel completes before it
                                    returns. The core synchronises this stream before it reads
                                    outputs on the host. */
  size_t num_inputs;             /* number of inputs, already checked against the op's arity */
  const hx_tensor_view* inputs;  /* borrowed: `num_inputs` views, all on `device` */
  size_t num_outputs;            /* number of outputs of the op */
  const hx_tensor_view* outputs; /* borrowed: `num_outputs` views on `device`, allocated by the
                                    core with the shapes and dtypes that the op's shape
                                    inference produced; the kernel writes their data */
  void* user_data;               /* hx_kernel_def.user_data, as registered */
} hx_kernel_args;
#define HX_KERNEL_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_kernel_args, user_data)

/* A kernel: computes the outputs from the inputs. Returns NULL on success or a status the core
 * takes ownership of (the error is reported to the caller of the op; the outputs are freed).
 * Called concurrently from several threads. */
typedef hx_status* (*hx_kernel_fn)(const hx_kernel_args* args);

/* A kernel registration, passed to hx_core_services.register_kernel. The core copies
 * everything it needs before register_kernel returns. */
typedef struct hx_kernel_def {
  size_t struct_size;            /* HX_KERNEL_DEF_STRUCT_SIZE */
  void* extension;               /* NULL */
  const char* op;                /* op name, e.g. "MatMul"; must be a core op or one this plugin
                                    registered with register_op; at most 64 bytes */
  const char* device_type;       /* the type of the devices the kernel runs on: normally the
                                    plugin's own hx_plugin_api.device_type; a plugin may also
                                    add kernels for another plugin's type (extra CPU kernels,
                                    say), which then receive that plugin's device handle (to
                                    be treated as opaque) and its memory; the same rule as
                                    hx_plugin_api.device_type */
  const hx_dtype* dtypes;        /* borrowed: the element types the kernel accepts for the op's
                                    type parameter T (the dtype of its inputs; for Fill the
                                    output dtype; for Cast the input dtype) */
  size_t num_dtypes;             /* 1 to 7 (each dtype at most once) */
  const hx_dtype* output_dtypes; /* may be NULL: the output dtypes accepted for ops whose output
                                    type is chosen by an attribute (Cast's "dtype"); NULL means
                                    every dtype */
  size_t num_output_dtypes;      /* entries in output_dtypes, at most 7; 0 when it is NULL */
  int32_t priority;              /* orders kernels of one op, device type and dtype; the higher
                                    wins. Two kernels with the same op, device type, dtype and
                                    priority are a registration error. */
  hx_kernel_fn compute;          /* the kernel */
  void* user_data;               /* may be NULL; passed back in hx_kernel_args.user_data */
} hx_kernel_def;
#define HX_KERNEL_DEF_STRUCT_SIZE HX_STRUCT_SIZE(hx_kernel_def, user_data)

/* ============================================================================================
 * CUSTOM OPS
 * ============================================================================================ */

/* One output's type and shape, written by a shape-inference function. */
typedef struct hx_output_spec {
  size_t struct_size;          /* HX_OUTPUT_SPEC_STRUCT_SIZE, set by the core */
  void* extension;             /* NULL */
  hx_dtype dtype;              /* out */
  int32_t rank;                /* out: 0 to HX_MAX_RANK */
  int64_t shape[HX_MAX_RANK];  /* out: the first `rank` entries, each >= 0 */
} hx_output_spec;
#define HX_OUTPUT_SPEC_STRUCT_SIZE HX_STRUCT_SIZE(hx_output_spec, shape)

/* What a shape-inference function receives. Borrowed for the duration of the call. */
typedef struct hx_shape_inference_args {
  size_t struct_size;           /* HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE */
  void* extension;              /* NULL */
  hx_kernel_context* context;   /* for the attribute getters */
  size_t num_inputs;            /* within the op's declared arity */
  const hx_tensor_view* inputs; /* borrowed: dtype and shape set; data and device are NULL */
  size_t num_outputs;           /* hx_op_def.num_outputs */
  hx_output_spec* outputs;      /* out: one spec per output, zero-filled by the core */
  void* user_data;              /* hx_op_def.user_data */
} hx_shape_inference_args;
#define HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_shape_inference_args, user_data)

/* Checks the inputs and attributes of one call and writes the output specs. A status of
 * HX_INVALID_ARGUMENT with a message naming the op and what it expects is the way to reject a
 * call. Called concurrently from several threads. */
typedef hx_status* (*hx_shape_inference_fn)(const hx_shape_inference_args* args);

/* A custom op, passed to hx_core_services.register_op. Copied by the core. */
typedef struct hx_op_def {
  size_t struct_size;              /* HX_OP_DEF_STRUCT_SIZE */
  void* extension;                 /* NULL */
  const char* name;                /* [A-Z][A-Za-z0-9_]*, at most 64 bytes; must not name a core
                                      op */
  int32_t min_inputs;              /* >= 0 */
  int32_t max_inputs;              /* >= min_inputs, or -1 for no upper bound */
  int32_t num_outputs;             /* 1 to 64 */
  hx_shape_inference_fn infer;     /* required */
  void* user_data;                 /* may be NULL; passed back in the inference args */
} hx_op_def;
#define HX_OP_DEF_STRUCT_SIZE HX_STRUCT_SIZE(hx_op_def, user_data)

/* ============================================================================================
 * DEVICES
 * ============================================================================================ */

/* Static facts about one device, filled by hx_plugin_api.device_properties. The core zero-fills
 * the struct and sets struct_size to what it knows; the plugin writes only the fields that
 * struct_size covers. */
typedef struct hx_device_properties {
  size_t struct_size;     /* set by the core: HX_DEVICE_PROPERTIES_STRUCT_SIZE of its version */
  void* extension;        /* NULL */
  /* The four strings below are read up to 256 bytes; a longer one is cut and ends "...". */
  const char* name;       /* out, borrowed until shutdown: product name ("NVIDIA H100 80GB HBM3",
                             "AMD EPYC 7B13"); may be NULL when unknown */
  const char* vendor;     /* out, borrowed until shutdown; may be NULL when unknown */
  const char* bus_id;     /* out, borrowed until shutdown: PCI bus id "0000:3b:00.0"; may be
                             NULL when the device is not on a bus (a CPU) */
  const char* arch;       /* out, borrowed until shutdown: instruction set or compute
                             capability ("x86_64", "sm_90"); may be NULL */
  uint64_t memory_total;  /* out: bytes of device memory (host RAM for host devices); 0 when
                             unknown; above 2^60 the core leaves the device out */
  int32_t numa_node;      /* out: NUMA node, -1 when unknown or not applicable; below -1 the
                             core leaves the device out */
  int32_t compute_units;  /* out: cores, SMs or equivalent; 0 when unknown; below 0 the core
                             leaves the device out */
} hx_device_properties;
#define HX_DEVICE_PROPERTIES_STRUCT_SIZE HX_STRUCT_SIZE(hx_device_properties, compute_units)

/* ============================================================================================
 * CORE SERVICES (core -> plugin)
 * ============================================================================================ */

/* Functions the core offers to the plugin. Borrowed: valid from init until shutdown returns.
 * All are thread-safe. */
typedef struct hx_core_services {
  size_t struct_size; /* HX_CORE_SERVICES_STRUCT_SIZE of the core's version */
  void* extension;    /* NULL */

  /* ---- status objects ---- */
  /* Creates a status; `message` is copied (may be NULL for an empty message; at most 4096
   * bytes are kept, a longer one is cut and ends "...", and control characters are escaped).
   * `code` must be one of the error codes: HX_OK or a value outside hx_status_code makes an
   * HX_INTERNAL status whose message says which code was given. The receiver owns the result.
   * Never returns NULL, short of the host running out of memory. */
  hx_status* (*status_create)(hx_status_code code, const char* message);
  /* Frees a status. Accepts NULL. */
  void (*status_destroy)(hx_status* status);
  /* The code of a status; HX_OK for NULL. */
  hx_status_code (*status_code)(const hx_status* status);
  /* The message of a status; borrowed, valid until the status is destroyed; "" for NULL. */
  const char* (*status_message)(const hx_status* status);

  /* ---- logging ---- */
  /* Writes a line to the core's log, tagged with the plugin's name. `message` is borrowed; at
   * most 4096 bytes are kept and control characters are escaped. A NULL core or message is
   * ignored; a level outside hx_log_level is logged as a warning that names it. */
  void (*log)(hx_core* core, hx_log_level level, const char* message);

  /* ---- registration (only during hx_plugin_init, from any thread; later calls return
   * FAILED_PRECONDITION) ---- */
  /* Registers a kernel. Errors: INVALID_ARGUMENT (NULL def, op, device_type, compute or
   * dtypes; unknown op; op longer than 64 bytes; device_type breaking the rule of
   * hx_plugin_api.device_type; no dtypes, more than 7, or a value outside hx_dtype; bad
   * struct_size), ALREADY_EXISTS (same op, device type, dtype and priority as a kernel already
   * registered, by this plugin or one accepted before it; the message names both plugins),
   * OUT_OF_RANGE (the plugin has registered 100000 kernels already, the most one plugin may).
   * Registrations take effect only if the plugin is accepted after init. */
  hx_status* (*register_kernel)(hx_core* core, const hx_kernel_def* def);
  /* Registers a custom op (name, arity, shape inference). Errors: INVALID_ARGUMENT,
   * ALREADY_EXISTS when the name is taken, OUT_OF_RANGE when the plugin has registered 1000
   * ops already, the most one plugin may. Register the op before its kernels. */
  hx_status* (*register_op)(hx_core* core, const hx_op_def* def);

  /* ---- attributes of the current call (kernels and shape inference) ----
   * Each getter returns NULL and writes *out when the attribute is present with that type,
   * NOT_FOUND when it is absent (the kernel then applies the op's default; this status is
   * shared and allocation-free, so asking for optional attributes on every call is cheap;
   * destroy it like any other), and
   * INVALID_ARGUMENT when it has another type or when ctx, name or an out pointer is NULL.
   * `name` is borrowed for the call. */
  hx_status* (*attr_bool)(const hx_kernel_context* ctx, const char* name, bool* out);
  hx_status* (*attr_int)(const hx_kernel_context* ctx, const char* name, int64_t* out);
  /* Also accepts an integer attribute, converted to double. */
  hx_status* (*attr_float)(const hx_kernel_context* ctx, const char* name, double* out);
  hx_status* (*attr_dtype)(const hx_kernel_context* ctx, const char* name, hx_dtype* out);
  /* A list of integers: *out is borrowed for the call, *count is its length. */
  hx_status* (*attr_ints)(const hx_kernel_context* ctx, const char* name, const int64_t** out,
                          size_t* count);
  /* A string: *out is borrowed for the call, NUL-terminated, *length excludes the NUL. */
  hx_status* (*attr_string)(const hx_kernel_context* ctx, const char* name, const char** out,
                            size_t* length);
} hx_core_services;
#define HX_CORE_SERVICES_STRUCT_SIZE HX_STRUCT_SIZE(hx_core_services, attr_string)

/* ============================================================================================
 * THE PLUGIN'S FUNCTION TABLE (plugin -> core)
 * ============================================================================================ */

/* Filled by the plugin and returned from hx_plugin_init; owned by the plugin and valid until
 * shutdown returns (a static table is typical). The first four fields keep their place in
 * every major version, so any core can read any plugin's version. */
typedef struct hx_plugin_api {
  size_t struct_size;        /* HX_PLUGIN_API_STRUCT_SIZE of the header the plugin built with */
  void* extension;           /* NULL */
  uint32_t abi_major;        /* HX_ABI_VERSION_MAJOR the plugin was built with */
  uint32_t abi_minor;        /* HX_ABI_VERSION_MINOR the plugin was built with */

  /* ---- identity ---- */
  const char* name;          /* borrowed until shutdown: short name, [a-z][a-z0-9_]* of at most
                                64 characters ("cpu"); one plugin per name, and a second plugin
                                with a taken name is skipped */
  const char* version;       /* borrowed until shutdown: the plugin's own version ("1.2.0"),
                                printable ASCII of 1 to 64 characters */
  const char* device_type;   /* borrowed until shutdown: "CPU", "GPU" or the plugin's own type
                                matching [A-Z][A-Z0-9_]* of at most 32 characters; one plugin
                                owns a device type, and a second plugin claiming a taken type is
                                skipped. A plugin breaking any of these three rules is skipped. */
  hx_plugin* plugin;         /* the plugin's state; passed back to the functions below */

  /* ---- lifecycle ---- */
  /* Releases everything the plugin holds. Called once, after every device, stream, event and
   * allocation the core obtained has been released, and never after a failed init. */
  void (*shutdown)(hx_plugin* plugin);

  /* ---- devices ---- */
  /* Number of devices. A status of code UNAVAILABLE means "zero devices, and this is why"
   * ("no CUDA driver"): the plugin stays loaded, the core records the message in its load
   * report and takes the count as 0. Any other status, or a count outside 0 to 4096, skips
   * the plugin. */
  hx_status* (*device_count)(hx_plugin* plugin, int32_t* out_count);
  /* The handle of device `ordinal` (0 .. count-1). Out: borrowed until shutdown; never NULL
   * on success (the core leaves a device with a NULL handle out). */
  hx_status* (*device_get)(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
  /* Fills `props` (see hx_device_properties for who sets what). */
  hx_status* (*device_properties)(hx_device* device, hx_device_properties* props);
  /* Current free and total bytes of device memory. */
  hx_status* (*memory_info)(hx_device* device, uint64_t* out_free, uint64_t* out_total);

  /* ---- memory ---- */
  /* Allocates `size` bytes aligned to `alignment`, a power of two of at most 256 from the
   * core (which asks for 256); a plugin may refuse a larger one with INVALID_ARGUMENT.
   * size 0 returns a unique non-NULL pointer or NULL, both accepted by deallocate.
   * OUT_OF_MEMORY when the device cannot satisfy it. *out caller owns, free with deallocate. */
  hx_status* (*allocate)(hx_device* device, size_t size, size_t alignment, void** out_ptr);
  /* Frees memory from allocate; `size` is the size that was asked for. Accepts NULL. */
  void (*deallocate)(hx_device* device, void* ptr, size_t size);
  /* [optional] Page-locked host memory for fast transfers to and from this device. */
  hx_status* (*host_allocate)(hx_device* device, size_t size, void** out_ptr);
  /* [optional, required with host_allocate] Frees host_allocate memory. Accepts NULL. */
  void (*host_deallocate)(hx_device* device, void* ptr);

  /* ---- transfers ----
   * With stream == NULL each call completes before it returns. With a stream it is ordered
   * after earlier work on that stream and may return at once; the memory on both sides must
   * then stay valid until the stream is synchronised or an event recorded after it completes.
   * Regions must not overlap. size 0 is a no-op that succeeds whatever the pointers (NULL
   * included). */
  hx_status* (*memset)(hx_device* device, hx_stream* stream, void* dst, uint8_t value,
                       size_t size);
  hx_status* (*copy_host_to_device)(hx_device* device, hx_stream* stream, void* dst_device,
                                    const void* src_host, size_t size);
  hx_status* (*copy_device_to_host)(hx_device* device, hx_stream* stream, void* dst_host,
                                    const void* src_device, size_t size);
  /* Between two devices of this plugin (or within one). `stream` belongs to `dst`. */
  hx_status* (*copy_device_to_device)(hx_device* dst, hx_stream* stream, void* dst_ptr,
                                      hx_device* src, const void* src_ptr, size_t size);

  /* ---- streams [optional: all five or none; without them everything is synchronous] ---- */
  hx_status* (*stream_create)(hx_device* device, hx_stream** out_stream);
  void (*stream_destroy)(hx_device* device, hx_stream* stream); /* accepts NULL */
  /* Blocks until all work enqueued on the stream has completed. */
  hx_status* (*stream_synchronize)(hx_device* device, hx_stream* stream);
  /* *out_done = true when all work enqueued so far has completed; does not block. */
  hx_status* (*stream_query)(hx_device* device, hx_stream* stream, bool* out_done);
  /* Work enqueued on `stream` after this call waits until `event` has completed. `event` was
   * created on `device`, the stream's device (ABI 1.0 never waits across devices). */
  hx_status* (*stream_wait_event)(hx_device* device, hx_stream* stream, hx_event* event);

  /* ---- events [optional: all five or none] ---- */
  hx_status* (*event_create)(hx_device* device, hx_event** out_event);
  void (*event_destroy)(hx_device* device, hx_event* event); /* accepts NULL */
  /* Marks the point after all work enqueued so far on `stream`. */
  hx_status* (*event_record)(hx_device* device, hx_event* event, hx_stream* stream);
  /* Blocks until the recorded point has completed (at once if never recorded). */
  hx_status* (*event_synchronize)(hx_device* device, hx_event* event);
  /* *out_done = true when the recorded point has completed; does not block. */
  hx_status* (*event_query)(hx_device* device, hx_event* event, bool* out_done);
} hx_plugin_api;
#define HX_PLUGIN_API_STRUCT_SIZE HX_STRUCT_SIZE(hx_plugin_api, event_query)

/* ============================================================================================
 * THE ENTRY POINT
 * ============================================================================================ */

/* What the core passes to hx_plugin_init. Borrowed for the duration of the call, except
 * `services` and `core` which stay valid until shutdown returns. */
typedef struct hx_plugin_init_args {
  size_t struct_size;               /* HX_PLUGIN_INIT_ARGS_STRUCT_SIZE of the core's version */
  void* extension;                  /* NULL */
  uint32_t core_abi_major;          /* HX_ABI_VERSION_MAJOR of the core */
  uint32_t core_abi_minor;          /* HX_ABI_VERSION_MINOR of the core */
  const hx_core_services* services; /* borrowed until shutdown returns */
  hx_core* core;                    /* pass to services that take one */
  const char* options_json;         /* borrowed for the call: the plugin's options from the
                                       config, a JSON object as text ("{}" when none); an
                                       unknown or malformed option is an INVALID_ARGUMENT
                                       status naming it */
  size_t options_json_length;       /* bytes in options_json, excluding its NUL */
} hx_plugin_init_args;
#define HX_PLUGIN_INIT_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length)

/* The one exported symbol, named HX_PLUGIN_INIT_SYMBOL:
 *
 *   HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
 *                                       const hx_plugin_api** out_api);
 *
 * The plugin reads its options, registers its ops and kernels through args->services, and sets
 * *out_api to its function table (borrowed until shutdown returns). It may refuse a core whose
 * major differs from its own by returning FAILED_PRECONDITION. On error it must release
 * everything itself: the core does not call shutdown after a failed init, and discards
 * every registration the plugin made. After a successful init the core may still skip the
 * plugin (another major in the table, a table smaller than it supports, a required function
 * missing, a device type already taken); it then calls shutdown and unloads it. A plugin
 * is initialised at most once per load; after shutdown, a new load may init it again. */
typedef hx_status* (*hx_plugin_init_fn)(const hx_plugin_init_args* args,
                                        const hx_plugin_api** out_api);

/* ============================================================================================
 * CHANGELOG
 * ============================================================================================
 * 1.0  First version: plugin init/shutdown with JSON options, devices and properties, memory,
 *      transfers, streams, events, kernel and custom-op registration, attribute getters.
 * 1.x  Documented limits (no ABI change): plugin name, version and device-type rules and
 *      lengths, one plugin per name, at most 4096 devices, 100000 kernels and 1000 ops per
 *      plugin, 1 to 64 outputs per op, string lengths, device figures, enum values outside
 *      their enumerators, NULL out pointers in the attribute getters, escaped plugin text.
 */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HXRT_PLUGIN_API_H_ */
