/*
 * hxrt plugin ABI, version 2 — the whole specification a backend plugin is written against.
 *
 * A plugin is a shared object (`libhx_<name>.so`) that exports one symbol, `hx_plugin_init`
 * (see THE ENTRY POINT). The core loads it with dlopen(RTLD_LOCAL), calls that symbol once,
 * and from then on talks to the plugin only through the function table the plugin returns.
 * This header includes only <stddef.h>, <stdint.h> and <stdbool.h> and compiles as C99 and as
 * C++. Its companion <hxrt/plugin_vocabulary.h> names the values of its enums ("float32",
 * "INVALID_ARGUMENT"), gives dtype sizes and checks a function table for missing functions; the
 * core, the plugin support library and hxrt-conformance all use it. The ops a kernel implements
 * are specified by `hxrt-info --ops` (every op's inputs, outputs, attributes with their types and
 * defaults, which input or attribute carries the type parameter T, and its shape rules) and by
 * the ops reference installed with the documentation (share/doc/hxrt/ops.md).
 *
 * ============================================================================================
 * CONVENTIONS
 * ============================================================================================
 * Versioning. HX_ABI_VERSION_MAJOR changes when anything is removed, reordered or retyped;
 *   HX_ABI_VERSION_MINOR changes when something is appended. A core accepts a plugin of the
 *   same major and uses the lower of the two minors; a plugin of another major is skipped with
 *   a message naming both versions. Every member below is tagged [since X.Y]; the CHANGELOG at
 *   the end lists every version.
 *
 * Struct sizes. Every struct that crosses the boundary starts with `size_t struct_size`
 *   followed by `const hx_extension* extensions`. Structs only grow at the end.
 *   HX_<NAME>_STRUCT_SIZE is the end offset of the last field of this version; the writer of a
 *   struct sets struct_size to that macro, and the reader reads a field only if struct_size
 *   covers it. A field beyond struct_size reads as zero / NULL, which always means "absent" or
 *   "unsupported".
 *
 * Extensions. `extensions` is NULL or the first link of a chain of extension structs, each
 *   starting with an hx_extension (its type and the next link); the writer of the outer struct
 *   owns the chain for as long as it owns the struct. A reader walks the chain and skips the
 *   types it does not know. Versions 2.0 to 2.13 define no extension types: set it to NULL.
 *
 * Errors. Functions that can fail return `hx_status*`: NULL is success, anything else is an
 *   error object with a code and a message. Plugins create statuses only through
 *   hx_core_services.status_create; the receiver of a status owns it and frees it with
 *   hx_core_services.status_destroy. Nothing may throw, longjmp or abort across the boundary:
 *   a C++ plugin catches everything at its entry points.
 *
 * Ownership words used on every field and parameter:
 *   "borrowed, valid until X"  the receiver may read it until X and must not free it;
 *   "out"                      written by the callee, read by the caller;
 *   "caller owns" / "takes ownership"  who frees it;
 *   "may be NULL"              NULL is an accepted value and its meaning is given.
 *   Every create has a destroy, and every destroy accepts NULL.
 *
 * Optional groups. Streams, events, page-locked host memory and recorded work are sub-tables
 *   of the function table, present (non-NULL, every function in them set) or absent (NULL) as
 *   a whole. An absent group means "unsupported" and never makes a load fail; a present group
 *   with a NULL function makes the core skip the plugin with a reason naming the function, as
 *   does a required function of the main table that is NULL. A single function marked
 *   [optional] may be NULL on its own; its field says what NULL means. A group's struct_size
 *   must cover its required functions; an [optional] function appended to a group in a later
 *   minor lies beyond the struct_size of a group written for an earlier one, which reads as
 *   NULL.
 *
 * Memory. Device memory is a set of buffers: allocate returns an opaque buffer handle
 *   (hx_buffer*), and everything that touches device memory — tensor views, copies, memset —
 *   names it as (buffer, byte offset), as DLPack names data and byte_offset. The core never
 *   dereferences a buffer handle, does arithmetic on it or compares two of them for order: it
 *   only passes them back. A plugin whose memory is linear may use the device address of the
 *   buffer's first byte as its handle; a plugin whose memory is objects (cl_mem, a Vulkan
 *   buffer, an accelerator's buffer id) uses those. The core allocates a few large buffers and
 *   places tensors inside them at offsets (a caching allocator), so a tensor's byte_offset is
 *   rarely 0. A device whose hx_device_properties.memory_kind is HX_MEMORY_HOST promises more:
 *   its handles are host addresses, which the core may read and write directly once the work
 *   queued on that memory has completed.
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
 * Enums. Every enum value crossing the boundary travels as int32_t, so a value outside the
 *   enumerators is representable; the receiver checks it against the enumerators and refuses
 *   one outside them as described where it is received, never undefined behaviour.
 *
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

#define HX_ABI_VERSION_MAJOR 2
#define HX_ABI_VERSION_MINOR 13

/* The name of the one symbol a plugin exports (see hx_plugin_init_fn). [since 1.0] */
#define HX_PLUGIN_INIT_SYMBOL "hx_plugin_init"

/* Marks the entry point as exported even when the plugin builds with -fvisibility=hidden.
 * [since 1.0] */
#if defined(_WIN32)
#define HX_EXPORT __declspec(dllexport)
#else
#define HX_EXPORT __attribute__((visibility("default")))
#endif

/* End offset of `field` in `type`: the value of every HX_<NAME>_STRUCT_SIZE macro.
 * [since 1.0] */
#define HX_STRUCT_SIZE(type, field) (offsetof(type, field) + sizeof(((type*)0)->field))

/* Most dimensions a tensor may have. [since 1.0] */
#define HX_MAX_RANK 8

/* ============================================================================================
 * OPAQUE HANDLES
 * ============================================================================================ */

/* An error object; created by the core (hx_core_services.status_create). [since 1.0] */
typedef struct hx_status_s hx_status;
/* The core's handle for one plugin; pass it back to every hx_core_services function that takes
 * one. [since 1.0] */
typedef struct hx_core_s hx_core;
/* The plugin's own global state, returned in the table and passed back to its functions.
 * [since 1.0] */
typedef struct hx_plugin_s hx_plugin;
/* The plugin's state for one of its devices; owned by the plugin, valid until shutdown.
 * [since 1.0] */
typedef struct hx_device_s hx_device;
/* One allocation of device memory, as allocate returned it; owned by the plugin. The core
 * never looks inside it (see Memory in CONVENTIONS). [since 2.0] */
typedef struct hx_buffer_s hx_buffer;
/* An ordered queue of work on one device; owned by the plugin. [since 1.0] */
typedef struct hx_stream_s hx_stream;
/* A marker in a stream that other streams and the host can wait for; owned by the plugin.
 * [since 1.0] */
typedef struct hx_event_s hx_event;
/* The core's state for one call: the op's attributes, read through the getters in
 * hx_core_services. [since 1.0] */
typedef struct hx_kernel_context_s hx_kernel_context;
/* A kernel's state for one combination of attributes, dtypes and device, made by its create
 * function; owned by the plugin. [since 2.0] */
typedef struct hx_kernel_instance_s hx_kernel_instance;
/* Work recorded on a stream once, to be replayed many times (hx_recording_api); owned by the
 * plugin. [since 2.4] */
typedef struct hx_recording_s hx_recording;

/* ============================================================================================
 * EXTENSIONS
 * ============================================================================================ */

/* The kinds of extension struct. 2.0 to 2.7 define none; values are never renumbered.
 * [since 2.0] */
typedef enum hx_extension_type {
  HX_EXTENSION_TYPE_NONE = 0
} hx_extension_type;

/* The head of every extension struct: its kind and the next link of the chain. [since 2.0] */
typedef struct hx_extension {
  int32_t type;                    /* an hx_extension_type; readers skip kinds they do not know */
  const struct hx_extension* next; /* may be NULL: the end of the chain */
} hx_extension;

/* ============================================================================================
 * STATUS CODES, DATA TYPES AND OTHER ENUMS
 * ============================================================================================ */

/* The fixed set of error codes. HX_OK is never carried by a status object (success is NULL);
 * it exists so that code can be compared and printed uniformly. [since 1.0] */
typedef enum hx_status_code {
  HX_OK = 0,
  HX_INVALID_ARGUMENT = 1,   /* the caller passed something wrong: shape, dtype, size, pointer */
  HX_NOT_FOUND = 2,          /* a named thing (attribute, op, device) does not exist */
  HX_ALREADY_EXISTS = 3,     /* registering something that is registered already */
  HX_OUT_OF_MEMORY = 4,      /* an allocation could not be satisfied */
  HX_UNIMPLEMENTED = 5,      /* not supported by this plugin, device or kernel; from a kernel's
                                create or check it declines the call (see hx_kernel_def) */
  HX_FAILED_PRECONDITION = 6,/* the system is not in a state where this call can run */
  HX_UNAVAILABLE = 7,        /* the resource is absent (no driver, no device); may be transient */
  HX_OUT_OF_RANGE = 8,       /* an index or value outside its valid range */
  HX_INTERNAL = 9            /* a bug or a failure of an underlying library */
} hx_status_code;

/* Element types. Values are part of the ABI and never renumbered; their names and sizes are in
 * <hxrt/plugin_vocabulary.h>. A core of an earlier minor refuses a registration that names a
 * dtype added after it: hx_dtype_abi_minor says which minor added each, and a plugin leaves
 * those out under an older core (hxplugin::register_kernel does). [since 1.0] */
typedef enum hx_dtype {
  HX_DTYPE_INVALID = 0,
  HX_DTYPE_F32 = 1,  /* "float32": IEEE 754 binary32 */
  HX_DTYPE_F64 = 2,  /* "float64": IEEE 754 binary64 */
  HX_DTYPE_F16 = 3,  /* "float16": IEEE 754 binary16, stored as uint16_t */
  HX_DTYPE_BF16 = 4, /* "bfloat16": the upper half of a binary32, stored as uint16_t */
  HX_DTYPE_I32 = 5,  /* "int32": int32_t */
  HX_DTYPE_I64 = 6,  /* "int64": int64_t */
  HX_DTYPE_BOOL = 7, /* "bool": one byte, 0 or 1 */
  HX_DTYPE_I8 = 8,   /* "int8": int8_t [since 2.7] */
  HX_DTYPE_U8 = 9,   /* "uint8": uint8_t [since 2.7] */
  HX_DTYPE_I16 = 10, /* "int16": int16_t [since 2.7] */
  HX_DTYPE_U16 = 11, /* "uint16": uint16_t [since 2.7] */
  HX_DTYPE_U32 = 12, /* "uint32": uint32_t [since 2.7] */
  HX_DTYPE_U64 = 13, /* "uint64": uint64_t [since 2.7] */
  /* The 8-bit floats of ONNX (and ml_dtypes), one byte each, for storage and Cast; sign,
   * exponent, mantissa. "fn": no infinities, "uz": no negative zero, 0x80 is the NaN. */
  HX_DTYPE_F8E4M3FN = 14,   /* "float8_e4m3fn": bias 7, largest 448, NaN S.1111.111 [since 2.7] */
  HX_DTYPE_F8E4M3FNUZ = 15, /* "float8_e4m3fnuz": bias 8, largest 240 [since 2.7] */
  HX_DTYPE_F8E5M2 = 16,     /* "float8_e5m2": bias 15, largest 57344, infinities and NaNs as
                               IEEE 754 [since 2.7] */
  HX_DTYPE_F8E5M2FNUZ = 17  /* "float8_e5m2fnuz": bias 16, largest 57344 [since 2.7] */
} hx_dtype;

/* Severity for hx_core_services.log. [since 1.0] */
typedef enum hx_log_level {
  HX_LOG_DEBUG = 0,
  HX_LOG_INFO = 1,
  HX_LOG_WARNING = 2,
  HX_LOG_ERROR = 3
} hx_log_level;

/* Where a device's memory lives, as far as the host is concerned. [since 2.0] */
typedef enum hx_memory_kind {
  HX_MEMORY_KIND_INVALID = 0,
  /* Memory only the device reaches; the host reaches it through the copy functions. */
  HX_MEMORY_DEVICE = 1,
  /* Device memory the host could reach as well (shared or unified memory, an integrated GPU,
   * an OpenCL device on the host's own cores); handles stay opaque and the core still copies
   * through the copy functions, but a copy costs about a memcpy. */
  HX_MEMORY_HOST_VISIBLE = 2,
  /* Host memory: every buffer handle is the host address of the buffer's first byte. The core
   * reads and writes such memory directly (from_host and to_host are one memcpy), and may pass
   * a kernel of such a device an input that lives on another plugin's HX_MEMORY_HOST device,
   * in place: its view's buffer is then that plugin's handle (a host address) and its device
   * this kernel's device. */
  HX_MEMORY_HOST = 3
} hx_memory_kind;

/* What kind of processor a device is. With no placement.device_priority in the config, the
 * core prefers device types by their best class: discrete accelerators first, then CPUs, then
 * accelerators that run on the host's own processors (they would compete with the CPU for the
 * same cores, usually with slower kernels), and types of one class by name. The values are
 * identifiers, not that order. [since 2.0] */
typedef enum hx_placement_class {
  HX_PLACEMENT_CLASS_INVALID = 0,
  /* A processor of its own (a discrete GPU, an NPU), and also an integrated GPU: it shares the
   * host's memory (say so with HX_MEMORY_HOST_VISIBLE) but not its cores, so it is worth
   * preferring to the CPU. */
  HX_PLACEMENT_DISCRETE_ACCELERATOR = 1,
  /* An accelerator's programming model running on the host's processors or sharing them (an
   * OpenCL CPU device such as PoCL's, a software GPU such as lavapipe, llvmpipe or SwiftShader,
   * a simulator): preferred to the CPU only when the config asks. */
  HX_PLACEMENT_HOST_ACCELERATOR = 2,
  /* The host's processors. */
  HX_PLACEMENT_CPU = 3
} hx_placement_class;

/* How a device's streams wait for another device's events (hx_stream_api.wait_event with an
 * event of another device of the plugin). [since 2.5] */
typedef enum hx_cross_device_wait {
  /* The stream waits on the device, or the plugin waits on the host inside wait_event: either
   * way wait_event takes the events of every device of the plugin. The value of a plugin
   * written before 2.5. */
  HX_WAIT_IN_PLUGIN = 0,
  /* The API cannot make one device's queue wait for another's (Vulkan and OpenCL across
   * contexts): the core waits on the host for another device's event before it enqueues the
   * work that reads that device's output, and calls wait_event only with events of the
   * stream's own device. */
  HX_WAIT_ON_HOST = 1
} hx_cross_device_wait;

/* ============================================================================================
 * TENSORS AS KERNELS SEE THEM
 * ============================================================================================ */

/* A view of one tensor. All pointers are borrowed from the core for the duration of the call
 * that receives the view. [since 1.0; buffer and byte_offset since 2.0] */
typedef struct hx_tensor_view {
  size_t struct_size;              /* HX_TENSOR_VIEW_STRUCT_SIZE */
  const hx_extension* extensions;  /* NULL */
  hx_buffer* buffer;      /* the buffer of `device` that holds the elements; NULL where only
                             types and shapes are passed (shape inference, create, check) and
                             may be NULL when the tensor has no elements */
  uint64_t byte_offset;   /* where element [0, ..., 0] starts in `buffer`; a multiple of the
                             dtype's size and of the device's min_alignment
                             (hx_device_properties; of its alignment for the tensors the core
                             allocates); 0 when buffer is NULL */
  int32_t dtype;          /* an hx_dtype */
  int32_t rank;           /* number of dimensions, 0 (a scalar) to HX_MAX_RANK */
  const int64_t* shape;   /* borrowed: `rank` extents, each >= 0 */
  const int64_t* strides; /* borrowed: `rank` strides in elements (not bytes), each >= 0.
                             Outputs are always dense and row-major: strides[rank-1] == 1 and
                             each stride is the product of the extents after it. Inputs are
                             dense too, except the inputs of the ops whose schema says
                             "broadcasts" (the binary element-wise ops): the core hands each of
                             those over already broadcast to the output's rank and shape, with
                             stride 0 along every dimension where the input repeats (NumPy's
                             rules: [2,3] + [3] gives the second input shape [2,3] and strides
                             [0,1]). The element at index i is at byte
                             byte_offset + sum(i[d] * strides[d]) * dtype size. */
  hx_device* device;      /* the plugin device that holds `buffer`; NULL where buffer is NULL */
} hx_tensor_view;
#define HX_TENSOR_VIEW_STRUCT_SIZE HX_STRUCT_SIZE(hx_tensor_view, device)

/* ============================================================================================
 * KERNELS
 * ============================================================================================ */

/* What a kernel's create function receives: one combination of attributes, dtypes and device.
 * Borrowed for the duration of the call. [since 2.0] */
typedef struct hx_kernel_create_args {
  size_t struct_size;             /* HX_KERNEL_CREATE_ARGS_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  hx_kernel_context* context;     /* the op's attributes, for the getters; valid during create */
  hx_device* device;              /* the device the instance will run on */
  size_t num_inputs;              /* the call's number of inputs */
  const int32_t* input_dtypes;    /* borrowed: `num_inputs` hx_dtype values */
  size_t num_outputs;             /* the call's number of outputs: the op's, or for an op whose
                                     calls decide it (Split) as many as the call asks for */
  const int32_t* output_dtypes;   /* borrowed: `num_outputs` hx_dtype values */
  void* user_data;                /* hx_kernel_def.user_data, as registered */
} hx_kernel_create_args;
#define HX_KERNEL_CREATE_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_kernel_create_args, user_data)

/* Everything one kernel call receives, for check and compute. Borrowed from the core for the
 * duration of the call. [since 1.0; instance since 2.0] */
typedef struct hx_kernel_args {
  size_t struct_size;             /* HX_KERNEL_ARGS_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  hx_kernel_context* context;     /* the op's attributes, for the getters; kernels with a create
                                     function read them there instead */
  hx_device* device;              /* the device the kernel runs on */
  hx_stream* stream;              /* compute: the stream to enqueue work on; NULL when the plugin
                                     has no streams, in which case the kernel completes before
                                     it returns. NULL in check. */
  size_t num_inputs;              /* number of inputs, already checked against the op's arity */
  const hx_tensor_view* inputs;   /* borrowed: `num_inputs` views on `device` (check: no
                                     buffers) */
  size_t num_outputs;             /* the call's number of outputs, as in create's args */
  const hx_tensor_view* outputs;  /* borrowed: `num_outputs` views on `device`, allocated by the
                                     core with the shapes and dtypes the op's shape inference
                                     produced; compute writes every element (check: no
                                     buffers) */
  void* user_data;                /* hx_kernel_def.user_data, as registered */
  hx_kernel_instance* instance;   /* what create made for this call's combination; NULL for a
                                     kernel without create */
  int64_t* output_extents;        /* compute, for an op whose outputs' extents depend on its
                                     inputs' values (OpInfo::extents_at_run: NonZero): the
                                     outputs' shapes one after another (the rank of output 0,
                                     then of output 1, ...), which the core fills with the
                                     outputs' views' extents, the most each may have, and the
                                     kernel overwrites with the extents it computed, each no
                                     larger. It writes each output dense and row-major for
                                     those extents from the start of its buffer. The core reads
                                     them once the call's work on `stream` has completed, so a
                                     device kernel may copy them there asynchronously. NULL for
                                     every other op, and in check. [since 2.8] */
  const uint64_t* input_constants; /* compute: `num_inputs` entries, or NULL when none applies
                                     (check, eager calls, a 2.9 core: read it only where
                                     struct_size covers it). Entry i is 0, or the id of input
                                     i's elements: a graph constant's copy on `device`, which
                                     the core never changes while the id is in use and whose id
                                     is unique in the process and never given to other
                                     elements. A kernel may keep what it derives from such an
                                     input (weights reordered to its own layout, packed) under
                                     the id and read that on later calls instead of the input,
                                     until the core forgets the id
                                     (hx_kernel_def.forget_constants). [since 2.10] */
} hx_kernel_args;
#define HX_KERNEL_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_kernel_args, input_constants)

/* Makes an instance for one combination of attributes, input and output dtypes and device,
 * reading the attributes once. Returns NULL and sets *out_instance (which may be set to NULL
 * when the kernel needs no state), or a status the core takes ownership of:
 * HX_UNIMPLEMENTED declines every call of this combination — the placer treats the kernel as
 * missing for it, falls back under the soft-placement mode and logs the status's message as
 * the reason, so say what is not supported ("MatMul on QPU: transpose_a is not supported");
 * HX_INVALID_ARGUMENT reports a bad attribute value to the caller of the op; any other code
 * fails the call. The core makes an instance the first time a combination needs one and keeps
 * it for later calls with the same combination until the runtime shuts down; it may destroy
 * an instance earlier and make the combination's instance again later. Called concurrently
 * from several threads (for different combinations). [since 2.0] */
typedef hx_status* (*hx_kernel_create_fn)(const hx_kernel_create_args* args,
                                          hx_kernel_instance** out_instance);

/* Says whether the kernel runs one call of these shapes: NULL accepts it; a status of code
 * HX_UNIMPLEMENTED declines it (the placer then treats the kernel as missing for this call,
 * as with create; the message is the reason logged); any other status fails the call. The
 * views carry dtypes, shapes and strides but no buffers; args->stream is NULL. Called from any
 * thread, concurrently: it must be cheap and must not enqueue work.
 * The answer must follow from what check receives alone (the device, the instance, the
 * attributes and the views' dtypes, shapes and strides), never from the device's state (free
 * memory, load): the core asks once per combination and keeps the answer for every later call
 * of it, accepted or declined. A failure is not kept; the next call asks again. A plugin built
 * for 2.0 to 2.2 is asked before every call, as those versions said. [since 2.0; answers kept
 * since 2.3] */
typedef hx_status* (*hx_kernel_check_fn)(const hx_kernel_args* args);

/* Computes the outputs from the inputs: enqueues the work on args->stream, or does it before
 * returning when the stream is NULL. Returns NULL on success or a status the core takes
 * ownership of; the op then fails with it (the outputs are freed), whatever its code:
 * HX_UNIMPLEMENTED from compute is an error of the call and never a fallback, so a kernel that
 * cannot run a call must decline it in create or check. Called concurrently from several
 * threads, with one instance shared by all calls of its combination: an instance is read-only
 * during compute. [since 1.0; the instance in args since 2.0] */
typedef hx_status* (*hx_kernel_fn)(const hx_kernel_args* args);

/* Says that the constants `ids` (hx_kernel_args.input_constants) are gone: their executable
 * was destroyed. The kernel drops what it derived from them. Called once per instance that
 * received them in compute (`instance` NULL for a kernel without create), after every call
 * that received them has returned and its work has completed, and before that instance's
 * destroy. Called concurrently with other calls of the kernel, which never carry these ids.
 * [since 2.10] */
typedef void (*hx_kernel_forget_constants_fn)(hx_kernel_instance* instance, const uint64_t* ids,
                                              size_t num_ids, void* user_data);

/* Frees an instance that create made. Called once per instance, after every check and compute
 * call that received it has returned and the work those calls enqueued has completed, and
 * before shutdown. Accepts NULL. [since 2.0] */
typedef void (*hx_kernel_destroy_fn)(hx_kernel_instance* instance, void* user_data);

/* A kernel registration, passed to hx_core_services.register_kernel. The core copies
 * everything it needs before register_kernel returns. A kernel runs on the devices of the
 * plugin that registered it, and on no other plugin's devices. [since 1.0; device_type
 * removed, create, check and destroy added in 2.0] */
typedef struct hx_kernel_def {
  size_t struct_size;             /* HX_KERNEL_DEF_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  const char* op;                 /* op name, e.g. "MatMul"; a core op (hxrt-info --ops) or one
                                     this plugin registered with register_op; at most 64 bytes */
  const int32_t* dtypes;          /* borrowed: the hx_dtype values the kernel accepts for the
                                     op's type parameter T, which the op's schema says an input
                                     or attribute carries (MatMul: input a; Fill: attribute
                                     "dtype"; Cast: input x) */
  size_t num_dtypes;              /* 1 to 17 (each dtype at most once; 7 under a 2.6 core) */
  const int32_t* output_dtypes;   /* may be NULL: for ops whose output type is chosen by an
                                     attribute other than T's (Cast's "dtype"), the output dtypes
                                     accepted; NULL means every dtype */
  size_t num_output_dtypes;       /* entries in output_dtypes, at most 17; 0 when it is NULL */
  int32_t priority;               /* orders this plugin's kernels of one op and dtype; the higher
                                     is tried first, and a lower one where the higher declines.
                                     Two kernels of one plugin with the same op, dtype and
                                     priority are a registration error. */
  hx_kernel_fn compute;           /* required */
  void* user_data;                /* may be NULL; passed back in every args struct and destroy */
  hx_kernel_create_fn create;     /* [optional] NULL: no instances; args->instance is NULL and
                                     compute reads attributes through the getters per call */
  hx_kernel_check_fn check;       /* [optional] NULL: the kernel runs every call of the dtypes
                                     it registered (and create accepted) */
  hx_kernel_destroy_fn destroy;   /* [optional, required with create] */
  hx_kernel_forget_constants_fn forget_constants; /* [optional, since 2.10] NULL: the kernel
                                     keeps nothing under the ids of input_constants (a 2.9
                                     plugin's struct_size ends before it, which reads as NULL) */
} hx_kernel_def;
#define HX_KERNEL_DEF_STRUCT_SIZE HX_STRUCT_SIZE(hx_kernel_def, forget_constants)
/* The smallest hx_kernel_def a core accepts: 2.0's, which ends at destroy. */
#define HX_KERNEL_DEF_REQUIRED_SIZE HX_STRUCT_SIZE(hx_kernel_def, destroy)

/* ============================================================================================
 * CUSTOM OPS
 * ============================================================================================ */

/* One output's type and shape, written by a shape-inference function. [since 1.0] */
typedef struct hx_output_spec {
  size_t struct_size;             /* HX_OUTPUT_SPEC_STRUCT_SIZE, set by the core */
  const hx_extension* extensions; /* NULL */
  int32_t dtype;                  /* out: an hx_dtype */
  int32_t rank;                   /* out: 0 to HX_MAX_RANK */
  int64_t shape[HX_MAX_RANK];     /* out: the first `rank` entries, each >= 0 */
} hx_output_spec;
#define HX_OUTPUT_SPEC_STRUCT_SIZE HX_STRUCT_SIZE(hx_output_spec, shape)

/* What a shape-inference function receives. Borrowed for the duration of the call.
 * [since 1.0] */
typedef struct hx_shape_inference_args {
  size_t struct_size;             /* HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  hx_kernel_context* context;     /* for the attribute getters */
  size_t num_inputs;              /* within the op's declared arity */
  const hx_tensor_view* inputs;   /* borrowed: dtype, rank, shape and dense strides set; buffer
                                     and device NULL */
  size_t num_outputs;             /* hx_op_def.num_outputs */
  hx_output_spec* outputs;        /* out: one spec per output, zero-filled by the core */
  void* user_data;                /* hx_op_def.user_data */
} hx_shape_inference_args;
#define HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_shape_inference_args, user_data)

/* Checks the inputs and attributes of one call and writes the output specs. A status of
 * HX_INVALID_ARGUMENT with a message naming the op and what it expects is the way to reject a
 * call. Called concurrently from several threads. [since 1.0] */
typedef hx_status* (*hx_shape_inference_fn)(const hx_shape_inference_args* args);

/* A custom op, passed to hx_core_services.register_op. Copied by the core. [since 1.0;
 * summary and type_input since 2.0] */
typedef struct hx_op_def {
  size_t struct_size;             /* HX_OP_DEF_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  const char* name;               /* [A-Z][A-Za-z0-9_]*, at most 64 bytes; must not name a core
                                     op */
  int32_t min_inputs;             /* >= 0 */
  int32_t max_inputs;             /* >= min_inputs, or -1 for no upper bound */
  int32_t num_outputs;            /* 1 to 64 */
  hx_shape_inference_fn infer;    /* required */
  void* user_data;                /* may be NULL; passed back in the inference args */
  const char* summary;            /* may be NULL: one line saying what the op computes, shown by
                                     hxrt-info --ops; at most 256 bytes */
  int32_t type_input;             /* the input whose dtype is the op's type parameter T, the
                                     dtype a kernel registers for: 0 to min_inputs-1, or -1 for
                                     an op without inputs, whose T is its first output's dtype */
} hx_op_def;
#define HX_OP_DEF_STRUCT_SIZE HX_STRUCT_SIZE(hx_op_def, type_input)

/* ============================================================================================
 * DEVICES
 * ============================================================================================ */

/* Facts about one device that do not change while the plugin is loaded, filled by
 * hx_plugin_api.device_properties. The core zero-fills the struct and sets struct_size to what
 * it knows; the plugin writes only the fields that struct_size covers. [since 1.0; the fields
 * from memory_kind on since 2.0, max_binding and cross_device_wait since 2.5] */
typedef struct hx_device_properties {
  size_t struct_size;             /* set by the core: HX_DEVICE_PROPERTIES_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  /* The four strings below are read up to 256 bytes; a longer one is cut and ends "...". */
  const char* name;       /* out, borrowed until shutdown: product name ("NVIDIA H100 80GB HBM3",
                             "AMD EPYC 7B13"); may be NULL when unknown */
  const char* vendor;     /* out, borrowed until shutdown; may be NULL when unknown */
  const char* bus_id;     /* out, borrowed until shutdown: PCI bus id "0000:3b:00.0"; may be
                             NULL when the device is not on a bus (a CPU) */
  const char* arch;       /* out, borrowed until shutdown: instruction set or compute
                             capability ("x86_64", "sm_90"); for a device reached through an
                             API that hides it (Vulkan, OpenCL), the API and version the
                             kernels are written for ("Vulkan 1.3", "OpenCL C 1.2"). Shown by
                             hxrt-info; the core decides nothing by it. May be NULL */
  uint64_t memory_total;  /* out: bytes of device memory (host RAM for host devices); 0 when
                             unknown; above 2^60 the core leaves the device out */
  int32_t numa_node;      /* out: NUMA node, -1 when unknown or not applicable; below -1 the
                             core leaves the device out */
  int32_t compute_units;  /* out: cores, SMs or equivalent; 0 when unknown; below 0 the core
                             leaves the device out */
  int32_t memory_kind;    /* out: an hx_memory_kind; any other value leaves the device out */
  int32_t placement_class;/* out: an hx_placement_class; any other value leaves the device out */
  uint64_t max_allocation;/* out: the largest size one allocate call can give, in bytes; 0 when
                             no smaller than memory_total. The core then keeps its own
                             allocations (preallocation, growth, one large tensor's buffer) at
                             or under it, using several buffers where one would be larger. */
  uint64_t alignment;     /* out: the alignment allocate gives and kernels need, a power of two
                             from 1 to 4096; 0 means 256. The core asks allocate for this
                             alignment and places every tensor at a byte offset that is a
                             multiple of it. */
  uint64_t max_binding;   /* out: the most bytes one kernel may reach through one tensor view
                             (Vulkan's maxStorageBufferRange, 128 MiB on lavapipe): the range
                             from the view's first element to its last; 0 when no smaller than
                             max_allocation. The core never calls a kernel of the device with a
                             larger input or output: such a call declines the device's kernels,
                             as a kernel's check declines, so placement picks another device or
                             the error names the limit. Copies and memsets are not limited by
                             it. [since 2.5] */
  int32_t cross_device_wait; /* out: an hx_cross_device_wait; 0 (HX_WAIT_IN_PLUGIN) is what a
                                plugin written before 2.5 leaves; any other value leaves the
                                device out. [since 2.5] */
  uint64_t min_alignment; /* out: the alignment the device's kernels need of a tensor's first
                             element, a power of two no larger than alignment; 0 means
                             alignment. The core allocates at `alignment`, what suits the
                             device best; a tensor of memory from outside its allocator (an
                             array another library made, taken by DLPack without a copy) is
                             accepted at a multiple of min_alignment and of the dtype's size.
                             Any other value leaves the device out. [since 2.13] */
} hx_device_properties;
#define HX_DEVICE_PROPERTIES_STRUCT_SIZE HX_STRUCT_SIZE(hx_device_properties, min_alignment)

/* ============================================================================================
 * CORE SERVICES (core -> plugin)
 * ============================================================================================ */

/* Functions the core offers to the plugin. Borrowed: valid from init until shutdown returns.
 * All are thread-safe. [since 1.0] */
typedef struct hx_core_services {
  size_t struct_size;             /* HX_CORE_SERVICES_STRUCT_SIZE of the core's version */
  const hx_extension* extensions; /* NULL */

  /* ---- status objects ---- */
  /* Creates a status; `message` is copied (may be NULL for an empty message; at most 4096
   * bytes are kept, a longer one is cut and ends "...", and control characters are escaped).
   * `code` must be one of the error codes: HX_OK or a value outside hx_status_code makes an
   * HX_INTERNAL status whose message says which code was given. The receiver owns the result.
   * Never returns NULL: when the host is out of memory it returns a shared, preallocated
   * HX_OUT_OF_MEMORY status (destroying it is harmless). [since 1.0] */
  hx_status* (*status_create)(int32_t code, const char* message);
  /* Frees a status. Accepts NULL. [since 1.0] */
  void (*status_destroy)(hx_status* status);
  /* The code of a status (an hx_status_code); HX_OK for NULL. [since 1.0] */
  int32_t (*status_code)(const hx_status* status);
  /* The message of a status; borrowed, valid until the status is destroyed; "" for NULL.
   * [since 1.0] */
  const char* (*status_message)(const hx_status* status);

  /* ---- logging ---- */
  /* Writes a line to the core's log, tagged with the plugin's name. `message` is borrowed; at
   * most 4096 bytes are kept and control characters are escaped. A NULL core or message is
   * ignored; a level outside hx_log_level is logged as a warning that names it. [since 1.0] */
  void (*log)(hx_core* core, int32_t level, const char* message);

  /* ---- registration (only during hx_plugin_init, from any thread; later calls return
   * FAILED_PRECONDITION) ---- */
  /* Registers a kernel for this plugin's devices. Errors: INVALID_ARGUMENT (NULL def, op,
   * compute or dtypes; create without destroy; unknown op; op longer than 64 bytes; no dtypes,
   * more than 17, or a value outside hx_dtype; bad struct_size), ALREADY_EXISTS (the plugin
   * registered a kernel of the same op, dtype and priority already), OUT_OF_RANGE (the plugin
   * has registered 100000 kernels already, the most one plugin may). Registrations take effect
   * only if the plugin is accepted after init. [since 1.0] */
  hx_status* (*register_kernel)(hx_core* core, const hx_kernel_def* def);
  /* Registers a custom op (name, arity, shape inference). Errors: INVALID_ARGUMENT,
   * ALREADY_EXISTS when the name is taken, OUT_OF_RANGE when the plugin has registered 1000
   * ops already, the most one plugin may. Register the op before its kernels. [since 1.0] */
  hx_status* (*register_op)(hx_core* core, const hx_op_def* def);

  /* ---- attributes of the current call (kernel create, check and compute, and shape
   * inference) ----
   * Each getter returns NULL and writes *out when the attribute is present with that type,
   * NOT_FOUND when it is absent (the kernel then applies the op's default; this status is
   * shared and allocation-free, so asking for optional attributes is cheap; destroy it like
   * any other), and INVALID_ARGUMENT when it has another type or when ctx, name or an out
   * pointer is NULL. `name` is borrowed for the call. [since 1.0] */
  hx_status* (*attr_bool)(const hx_kernel_context* ctx, const char* name, bool* out);
  hx_status* (*attr_int)(const hx_kernel_context* ctx, const char* name, int64_t* out);
  /* Also accepts an integer attribute, converted to double. */
  hx_status* (*attr_float)(const hx_kernel_context* ctx, const char* name, double* out);
  /* *out is an hx_dtype. */
  hx_status* (*attr_dtype)(const hx_kernel_context* ctx, const char* name, int32_t* out);
  /* A list of integers: *out is borrowed for the call, *count is its length. */
  hx_status* (*attr_ints)(const hx_kernel_context* ctx, const char* name, const int64_t** out,
                          size_t* count);
  /* A string: *out is borrowed for the call, NUL-terminated, *length excludes the NUL. */
  hx_status* (*attr_string)(const hx_kernel_context* ctx, const char* name, const char** out,
                            size_t* length);

  /* ---- the plugin's options (only during hx_plugin_init, from any thread; later calls
   * return FAILED_PRECONDITION) ----
   * The options of hx_plugin_init_args.options_json, read by the core, so that a plugin needs
   * no JSON parser of its own. `name` is a key of the options object (borrowed for the call).
   * Each getter returns NULL and writes *out when the option is given with that type,
   * NOT_FOUND when it is absent (the plugin then applies its default; destroy the status), and
   * INVALID_ARGUMENT when it has another type, with a message that names the option, what was
   * expected and what was given: return it from init as it is, and the core fails start-up
   * with that message and the option's JSON path. INVALID_ARGUMENT too when the options text
   * is not a JSON object (the message says why), and when core, name or an out pointer is
   * NULL. Beyond the struct_size of a 2.0 to 2.4 core's table: read
   * options_json there. [since 2.5] */
  hx_status* (*option_bool)(hx_core* core, const char* name, bool* out);
  /* An integer (JSON numbers without a fraction, within int64_t). */
  hx_status* (*option_int)(hx_core* core, const char* name, int64_t* out);
  /* Also accepts an integer, converted to double. */
  hx_status* (*option_float)(hx_core* core, const char* name, double* out);
  /* A string: *out is borrowed until hx_plugin_init returns, NUL-terminated, *length excludes
   * the NUL (a string holding a NUL is refused: INVALID_ARGUMENT). */
  hx_status* (*option_string)(hx_core* core, const char* name, const char** out,
                              size_t* length);
  /* Refuses options the plugin does not take: NULL when every key of the options object is
   * one of the `count` names of `known` (borrowed for the call), else INVALID_ARGUMENT naming
   * the first other key and the closest known name ("unknown option 'device_cont'; did you
   * mean 'device_count'?"), or listing the known names when none is close, or saying why the
   * options text is not a JSON object. count 0 refuses
   * every option. INVALID_ARGUMENT too when core is NULL, or known is NULL with count > 0 or
   * holds a NULL. Call it before the getters, so that a misspelt option is not taken for an
   * absent one. [since 2.5] */
  hx_status* (*option_keys)(hx_core* core, const char* const* known, size_t count);

  /* ---- attributes, continued ---- */
  /* A list of floats (Resize's scales): *out is borrowed for the call, *count is its length.
   * As the getters above; a list of ints is another type here. Beyond the struct_size of a
   * 2.0 to 2.5 core's table, whose calls carry no such attribute: read it as absent there.
   * [since 2.6] */
  hx_status* (*attr_floats)(const hx_kernel_context* ctx, const char* name, const double** out,
                            size_t* count);
} hx_core_services;
#define HX_CORE_SERVICES_STRUCT_SIZE HX_STRUCT_SIZE(hx_core_services, attr_floats)

/* ============================================================================================
 * OPTIONAL GROUPS OF THE FUNCTION TABLE
 * ============================================================================================ */

/* Streams: ordered queues of work. Present together with hx_event_api or not at all: the core
 * orders work across streams only with events, so a plugin with one group and not the other is
 * run synchronously (its streams unused), with a warning. Without streams every copy and
 * kernel completes before it returns.
 *
 * How the core uses them: one stream per logical device, on which it enqueues that device's
 * kernels, copies and memsets, recording an event after each op and copy (the tensor's
 * "ready" event). Another device of the plugin waits for that event with wait_event (or the
 * core on the host, where the device declares HX_WAIT_ON_HOST); the host waits with event
 * synchronize, then reads with a copy on a NULL stream, which must complete before it returns
 * and must not wait for work queued on the plugin's streams.
 *
 * Errors of queued work. Work that fails after the call that enqueued it returned marks its
 * stream failed from that work on: events recorded on the stream after that work was enqueued
 * report the failure (a status naming the work and the device) at every synchronize and
 * query, and the stream's synchronize and query report it. Stream synchronize then clears it:
 * events recorded later, and the work enqueued later, report only their own failures. A
 * device that cannot recover (a lost GPU context) keeps failing every call, naming why.
 * [since 2.0; the functions since 1.0] */
typedef struct hx_stream_api {
  size_t struct_size;             /* HX_STREAM_API_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  hx_status* (*create)(hx_device* device, hx_stream** out_stream);
  void (*destroy)(hx_device* device, hx_stream* stream); /* accepts NULL */
  /* Blocks the calling thread until all work enqueued on the stream has completed. */
  hx_status* (*synchronize)(hx_device* device, hx_stream* stream);
  /* *out_done = true when all work enqueued so far has completed; does not block. */
  hx_status* (*query)(hx_device* device, hx_stream* stream, bool* out_done);
  /* Work enqueued on `stream` after this call waits until `event` has completed. `event` was
   * created on a device of this plugin: `device` (the stream's) or another one, so one device
   * can wait for another's work without the host waiting. When the work behind `event` failed
   * (see "Errors of queued work" above), the wait should fail `stream` too, so that no work
   * computed from the failed work's output reports success; a plugin that cannot tell lets it
   * run. Should not block the calling thread: it enqueues the wait. Where the API cannot wait
   * on the device for another device's work (Vulkan and OpenCL across contexts), declare
   * HX_WAIT_ON_HOST in the device's properties (cross_device_wait, 2.5): the core then waits
   * on the host itself and passes only the stream's own device's events here. */
  hx_status* (*wait_event)(hx_device* device, hx_stream* stream, hx_event* event);
} hx_stream_api;
#define HX_STREAM_API_STRUCT_SIZE HX_STRUCT_SIZE(hx_stream_api, wait_event)

/* Events: points in a stream that streams and the host wait for, and that a device may time.
 * [since 2.0; the functions since 1.0, elapsed_ns since 2.2] */
typedef struct hx_event_api {
  size_t struct_size;             /* HX_EVENT_API_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  hx_status* (*create)(hx_device* device, hx_event** out_event);
  void (*destroy)(hx_device* device, hx_event* event); /* accepts NULL */
  /* Marks the point after all work enqueued so far on `stream` (a stream of `device`). */
  hx_status* (*record)(hx_device* device, hx_event* event, hx_stream* stream);
  /* Blocks the calling thread until the recorded point has completed (returns at once if the
   * event was never recorded). With stream synchronize and a copy or memset on a NULL stream,
   * the only calls that wait for queued work; record, wait_event and enqueued work return
   * without waiting for it. */
  hx_status* (*synchronize)(hx_device* device, hx_event* event);
  /* *out_done = true when the recorded point has completed; does not block. */
  hx_status* (*query)(hx_device* device, hx_event* event, bool* out_done);
  /* [optional] *out_ns = the device's own time, in nanoseconds, from the point of `start` to
   * the point of `end` (CUDA: cudaEventElapsedTime), not the host's clock: what the core uses
   * to time work queued on a stream, by recording an event before it and one after it.
   * `start` and `end` are events of `device`, recorded on the same stream of `device`,
   * `start` no later than `end` (the same point gives 0), and both points have completed
   * (synchronize `end` first). Whether time the stream spent with nothing queued between the
   * two points counts is the device's (on CUDA it does), so time work queued back to back.
   * Errors: INVALID_ARGUMENT when either is not a live event of `device`, when the two were
   * recorded on different streams, or when `start` was recorded after `end`;
   * FAILED_PRECONDITION when either was never recorded on a stream (never recorded, or
   * recorded with stream NULL) or its point has not completed yet. NULL (or beyond the
   * group's struct_size, as in a group written for 2.0 or 2.1): the device cannot time its
   * queued work, and the dynamic placer does not learn from its graph runs: it keeps the
   * figures its calibration measured for the device on the host (a few small ops and copies,
   * each timed to completion). [since 2.2] */
  hx_status* (*elapsed_ns)(hx_device* device, hx_event* start, hx_event* end, uint64_t* out_ns);
} hx_event_api;
#define HX_EVENT_API_STRUCT_SIZE HX_STRUCT_SIZE(hx_event_api, elapsed_ns)

/* Page-locked host memory for fast transfers to and from a device. [since 2.0; the functions
 * since 1.0, the buffer functions since 2.5] */
typedef struct hx_host_memory_api {
  size_t struct_size;             /* HX_HOST_MEMORY_API_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  /* `size` bytes of host memory, at least 64-byte aligned; *out_ptr caller owns. */
  hx_status* (*allocate)(hx_device* device, size_t size, void** out_ptr);
  /* Frees what allocate or allocate_buffer gave. Accepts NULL. */
  void (*deallocate)(hx_device* device, void* ptr);

  /* ---- host memory as buffers [optional, since 2.5; the three together or none] ----
   * For APIs whose copies take buffer objects on both sides (Vulkan's vkCmdCopyBuffer, OpenCL's
   * clEnqueueCopyBuffer): the plugin keeps a buffer object over the page-locked memory, and the
   * core passes it back with a byte offset, so that the plugin need not find its buffer from a
   * pointer. The core copies through these whenever the host side of a copy lies in memory that
   * allocate_buffer gave (its staging of uploads and downloads, Runtime::pinned_memory, pinned
   * tensors), to or from any device of the plugin; copy_host_to_device and copy_device_to_host
   * keep serving ordinary memory. NULL (or beyond the struct_size of a 2.0 to 2.4 group): the
   * core uses allocate and the pointer copies. */
  /* As allocate, and also *out_buffer (never NULL on success): the plugin's handle of the same
   * bytes, with *out_ptr the host address of its byte 0. Freed with deallocate(*out_ptr). */
  hx_status* (*allocate_buffer)(hx_device* device, size_t size, void** out_ptr,
                                hx_buffer** out_buffer);
  /* copy_host_to_device, with the source at byte `src_offset` of `src_host`, a buffer from
   * allocate_buffer (of any device of the plugin). The same rules: stream NULL or `device`'s,
   * ranges inside their buffers, size 0 a no-op. */
  hx_status* (*copy_to_device)(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const hx_buffer* src_host,
                               uint64_t src_offset, size_t size);
  /* copy_device_to_host, with the destination at byte `dst_offset` of `dst_host`, a buffer
   * from allocate_buffer (of any device of the plugin). */
  hx_status* (*copy_to_host)(hx_device* device, hx_stream* stream, hx_buffer* dst_host,
                             uint64_t dst_offset, const hx_buffer* src, uint64_t src_offset,
                             size_t size);
} hx_host_memory_api;
#define HX_HOST_MEMORY_API_STRUCT_SIZE HX_STRUCT_SIZE(hx_host_memory_api, copy_to_host)

/* Recorded work: the work the core enqueues on a stream, recorded once and then replayed as one
 * launch, as CUDA graphs (stream capture), Vulkan's reusable command buffers and OpenCL's
 * cl_khr_command_buffer do. The core records the work of a compiled graph on a device once and
 * replays it in the graph's later runs, so that a run of a thousand small kernels costs the
 * host one launch rather than a thousand. Present only together with streams and events.
 *
 * Recording. begin puts a stream of the device in recording mode; end takes it out and gives the
 *   recording. Between the two, the core names that stream only in a kernel's compute (as
 *   args->stream), memset and copy_device_to_device (whose dst_device is the stream's device
 *   and whose source is a device of this plugin). Each such call records its work and returns
 *   without running it: nothing is read or written until a replay, and a plugin must not wait
 *   for anything or read device memory while it records. The core records on a stream that no
 *   other work uses, makes no other call naming it until end (no host copies, no event record
 *   or wait_event, no synchronize or query), and makes the calls of one recording one at a
 *   time (from any thread, each returning before the next begins).
 * Binding. Everything a recorded call names is bound into the recording: every replay runs the
 *   same kernels with the same instances, attributes, views, buffers, offsets and sizes, and
 *   reads and writes the same bytes of the same buffers. The core keeps those buffers allocated,
 *   and the kernel instances alive, until it has destroyed the recording. To give a replay
 *   other data, the core copies into the recorded buffers before it and out of them after it.
 * Refusal. A call that cannot be recorded (a kernel that reads device memory or the device's
 *   state as it enqueues, waits for its work, allocates, or runs on the host) returns a status
 *   of any code while its stream records; the stream stays in recording mode, and the core
 *   calls end and destroys what end gives. end may also refuse a recording whose calls all
 *   succeeded (CUDA invalidates a capture that a kernel broke). Either way the core runs the
 *   same work without recording, records that graph no more, and logs the status's message as
 *   the reason, so say what could not be recorded ("MatMul: cuBLAS synchronised the stream").
 *   A plugin need not know which calls record: refusing at end is enough.
 * Replay. replay enqueues the recorded work on a stream of the recording's device, ordered after
 *   the work enqueued on that stream before it and before the work enqueued after it, as a
 *   kernel is. Work that fails as it runs fails the stream (see "Errors of queued work" at
 *   hx_stream_api), and a replay after that runs the whole recording again. The core does not
 *   replay one recording twice at once: each replay is ordered after the last (on one stream,
 *   or behind an event). A recording of no calls is valid; its replay does nothing.
 * [since 2.4] */
typedef struct hx_recording_api {
  size_t struct_size;             /* HX_RECORDING_API_STRUCT_SIZE */
  const hx_extension* extensions; /* NULL */
  /* Starts recording on `stream`, a stream of `device` with no work queued that has not
   * completed. INVALID_ARGUMENT when `stream` is NULL or not a live stream of `device`;
   * FAILED_PRECONDITION when it records already; UNIMPLEMENTED when the device cannot record
   * (the core then runs its work as it comes, and says why in its log). */
  hx_status* (*begin)(hx_device* device, hx_stream* stream);
  /* Ends the recording on `stream`, which leaves recording mode whatever the result, and sets
   * *out_recording (caller owns; destroy frees it) to what was recorded since begin.
   * FAILED_PRECONDITION when `stream` is not recording; any code when a recorded call failed
   * or the work cannot be replayed (see Refusal), *out_recording then NULL. */
  hx_status* (*end)(hx_device* device, hx_stream* stream, hx_recording** out_recording);
  /* Enqueues the recorded work on `stream`, a stream of `device` (the device `recording` was
   * recorded on) that is not recording. INVALID_ARGUMENT when `stream` is NULL, not a live
   * stream of `device`, or `recording` is not a live recording of `device`;
   * FAILED_PRECONDITION when `stream` records. */
  hx_status* (*replay)(hx_device* device, hx_stream* stream, hx_recording* recording);
  /* Frees a recording from end. Called only when no replay of it is queued or running (after
   * the stream was synchronised or an event recorded behind its last replay completed), and
   * before the buffers it names are deallocated. Accepts NULL. */
  void (*destroy)(hx_device* device, hx_recording* recording);
} hx_recording_api;
#define HX_RECORDING_API_STRUCT_SIZE HX_STRUCT_SIZE(hx_recording_api, destroy)

/* ============================================================================================
 * THE PLUGIN'S FUNCTION TABLE (plugin -> core)
 * ============================================================================================ */

/* Filled by the plugin and returned from hx_plugin_init; owned by the plugin and valid until
 * shutdown returns (a static table is typical). The first four fields keep their place and
 * size in every major version, so any core can read any plugin's version. */
typedef struct hx_plugin_api {
  size_t struct_size;             /* HX_PLUGIN_API_STRUCT_SIZE of the header the plugin built
                                     with [since 1.0] */
  const hx_extension* extensions; /* NULL [since 1.0, typed since 2.0] */
  uint32_t abi_major;             /* HX_ABI_VERSION_MAJOR the plugin was built with [since 1.0] */
  uint32_t abi_minor;             /* HX_ABI_VERSION_MINOR the plugin was built with [since 1.0] */

  /* ---- identity [since 1.0] ---- */
  const char* name;          /* borrowed until shutdown: short name, [a-z][a-z0-9_]* of at most
                                64 characters ("cpu"); one plugin per name, and a second plugin
                                with a taken name is skipped */
  const char* version;       /* borrowed until shutdown: the plugin's own version ("1.2.0"),
                                printable ASCII of 1 to 64 characters */
  const char* device_type;   /* borrowed until shutdown: "CPU", "GPU" or the plugin's own type
                                matching [A-Z][A-Z0-9_]* of at most 32 characters. Several
                                plugins may provide one type: their devices are numbered in the
                                order the plugins load (the order of plugins.paths, then file
                                names). A plugin breaking any of these three rules is skipped. */
  hx_plugin* plugin;         /* the plugin's state; passed back to the functions below */

  /* ---- lifecycle [since 1.0] ---- */
  /* Releases everything the plugin holds. Called once, after every device, stream, event,
   * buffer and kernel instance the core obtained has been released, and never after a failed
   * init. Stop and join the plugin's own threads here: the core unloads the library once
   * shutdown returns. A thread that still calls the services with the plugin's hx_core after
   * that breaches the ABI; the core keeps the handle so that such a call does no harm (log
   * drops the line, register_kernel and register_op return FAILED_PRECONDITION), but the
   * thread's own code may already be unmapped. */
  void (*shutdown)(hx_plugin* plugin);

  /* ---- devices [since 1.0] ---- */
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
  /* [optional] Current free and total bytes of device memory. NULL: the plugin cannot tell,
   * and free memory is shown as unknown. A status means the same for this call, and the core
   * logs its message. */
  hx_status* (*memory_info)(hx_device* device, uint64_t* out_free, uint64_t* out_total);

  /* ---- memory [since 1.0; buffers since 2.0] ---- */
  /* Allocates a buffer of `size` bytes, 1 <= size <= the device's max_allocation (the core
   * never asks for 0 bytes), whose offsets that are multiples of `alignment` (the device's
   * declared alignment, a power of two) suit every kernel. OUT_OF_MEMORY when the device cannot
   * satisfy it. *out_buffer: caller owns, never NULL on success, and distinct from every
   * buffer of the device not yet deallocated (on an HX_MEMORY_HOST device, sharing no byte with
   * one); free it with deallocate. The core refuses a buffer that is still live as a bug in
   * the plugin (INTERNAL, naming the plugin), and keeps it out of every tensor. */
  hx_status* (*allocate)(hx_device* device, size_t size, size_t alignment,
                         hx_buffer** out_buffer);
  /* Frees a buffer from allocate; `size` is the size that was asked for. The core calls it
   * only when no work that reads or writes the buffer is queued or running on any stream:
   * after the streams that used it were synchronised, or after events recorded behind their
   * last use completed. Accepts NULL. */
  void (*deallocate)(hx_device* device, hx_buffer* buffer, size_t size);

  /* ---- transfers [since 1.0; buffers and offsets since 2.0] ----
   * With stream == NULL each call completes before it returns. With a stream it is ordered
   * after earlier work on that stream and may return at once; host memory and buffers on both
   * sides must then stay valid until the stream is synchronised or an event recorded after it
   * completes. Every (buffer, offset, size) the core passes lies inside the buffer. Ranges must
   * not overlap. size 0 is a no-op that succeeds whatever the other arguments (NULL
   * included). */
  hx_status* (*memset)(hx_device* device, hx_stream* stream, hx_buffer* dst,
                       uint64_t dst_offset, uint8_t value, size_t size);
  hx_status* (*copy_host_to_device)(hx_device* device, hx_stream* stream, hx_buffer* dst,
                                    uint64_t dst_offset, const void* src_host, size_t size);
  hx_status* (*copy_device_to_host)(hx_device* device, hx_stream* stream, void* dst_host,
                                    const hx_buffer* src, uint64_t src_offset, size_t size);
  /* Between two devices of this plugin (or within one). `stream` belongs to `dst_device`. */
  hx_status* (*copy_device_to_device)(hx_device* dst_device, hx_stream* stream,
                                      hx_buffer* dst, uint64_t dst_offset,
                                      hx_device* src_device, const hx_buffer* src,
                                      uint64_t src_offset, size_t size);

  /* ---- optional groups [since 2.0] ---- */
  const hx_stream_api* streams;         /* may be NULL: no streams; borrowed until shutdown */
  const hx_event_api* events;           /* may be NULL: no events; borrowed until shutdown */
  const hx_host_memory_api* host_memory;/* may be NULL: no page-locked host memory; borrowed
                                           until shutdown */
  /* ---- optional groups appended later: beyond the struct_size of an older table, which
   * reads as NULL ---- */
  const hx_recording_api* recording;    /* may be NULL: no recorded work (and NULL whenever
                                           streams or events are); borrowed until shutdown
                                           [since 2.4] */
} hx_plugin_api;
#define HX_PLUGIN_API_STRUCT_SIZE HX_STRUCT_SIZE(hx_plugin_api, recording)

/* ============================================================================================
 * THE ENTRY POINT
 * ============================================================================================ */

/* What the core passes to hx_plugin_init. Borrowed for the duration of the call, except
 * `services` and `core` which stay valid until shutdown returns. A core older than the plugin
 * passes a smaller struct: read a field only when struct_size covers it. [since 1.0; fields
 * tagged otherwise since then] */
typedef struct hx_plugin_init_args {
  size_t struct_size;               /* HX_PLUGIN_INIT_ARGS_STRUCT_SIZE of the core's version */
  const hx_extension* extensions;   /* NULL */
  uint32_t core_abi_major;          /* HX_ABI_VERSION_MAJOR of the core */
  uint32_t core_abi_minor;          /* HX_ABI_VERSION_MINOR of the core */
  const hx_core_services* services; /* borrowed until shutdown returns */
  hx_core* core;                    /* pass to services that take one */
  const char* options_json;         /* borrowed for the call: the plugin's options from the
                                       config (plugins.options.<name>), a JSON object as text
                                       ("{}" when none). Refuse an unknown or malformed option
                                       with an INVALID_ARGUMENT status whose message names the
                                       option; the core fails start-up with that message and
                                       the option's JSON path. The services' option getters
                                       read the same object [since 2.5]. */
  size_t options_json_length;       /* bytes in options_json, excluding its NUL */
  uint32_t intra_op_threads;        /* how many threads one kernel may use (the config's
                                       execution.intra_op_threads, TensorFlow's intra-op
                                       parallelism): a plugin whose kernels run on host
                                       threads (a BLAS, a thread pool of its own) limits each
                                       kernel to this many. 0: the plugin's own default, as
                                       when struct_size does not cover the field (a 2.0 core).
                                       Kernels of different ops may still run at once, each
                                       called from one of the core's inter-op threads.
                                       [since 2.1] */
} hx_plugin_init_args;
#define HX_PLUGIN_INIT_ARGS_STRUCT_SIZE HX_STRUCT_SIZE(hx_plugin_init_args, intra_op_threads)

/* The one exported symbol, named HX_PLUGIN_INIT_SYMBOL [since 1.0]:
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
 * missing, a name already taken); it then calls shutdown and unloads it. A plugin is
 * initialised at most once per load; after shutdown, a new load may init it again. */
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
 * 2.0  Device memory as opaque buffers and byte offsets (allocate, deallocate, copies, memset,
 *      tensor views) with a rule for when deallocate is called; devices describe their memory
 *      kind, largest allocation, alignment and placement class, and memory_info is optional;
 *      kernel instances (create, destroy) and declining kernels (create, check); a kernel runs
 *      only on its own plugin's devices (hx_kernel_def.device_type removed), and several
 *      plugins may provide one device type; broadcast inputs with stride 0; custom ops name
 *      the input that carries T and a summary; typed extension chains replace `void*
 *      extension`; streams, events and host memory are optional sub-tables; enums cross the
 *      boundary as int32_t; status_create never returns NULL.
 * 2.1  hx_plugin_init_args.intra_op_threads: the threads one kernel may use (0: the plugin's
 *      default). A 2.0 plugin ignores it; a 2.1 plugin under a 2.0 core finds struct_size
 *      short of it and keeps its default.
 * 2.2  hx_event_api.elapsed_ns [optional]: the device's own time between two events of one
 *      stream. The events group of a 2.0 or 2.1 plugin ends before it (its struct_size), which
 *      reads as NULL: no device timing; a 2.1 core never calls it.
 * 2.3  No layout change: hx_kernel_check_fn answers from its arguments alone, and the core
 *      keeps each answer for the later calls with the same arguments (the eager path then asks
 *      nothing per call). A plugin of 2.0 to 2.2 is still asked before every call. Documented
 *      since: a call through hx_core after shutdown returns is refused, never undefined.
 * 2.4  hx_plugin_api.recording: an optional group for recorded work (begin, end, replay,
 *      destroy), with the hx_recording handle. The table of a 2.0 to 2.3 plugin ends before the
 *      field (its struct_size), which reads as NULL: the core runs its work as it comes. The
 *      smallest table a core accepts stays 2.0's (HX_PLUGIN_API_REQUIRED_SIZE in
 *      <hxrt/plugin_vocabulary.h>).
 * 2.5  hx_device_properties.max_binding (the most bytes one kernel reaches through one view;
 *      a larger call declines the device's kernels) and cross_device_wait (HX_WAIT_ON_HOST:
 *      the core waits on the host for other devices' events and wait_event sees only the
 *      stream's own device's). A 2.4 plugin writes neither: 0, no limit, waits in the plugin.
 *      hx_host_memory_api: allocate_buffer, copy_to_device and copy_to_host [optional]:
 *      page-locked memory as a buffer object of the plugin, which the core passes to those
 *      copies with an offset instead of a pointer. A 2.4 group ends before them: NULL.
 *      hx_core_services: typed getters of the plugin's options (option_bool, option_int,
 *      option_float, option_string) and option_keys, which refuses an unknown option naming
 *      the closest known one; valid during init. A 2.4 core's services table ends before them
 *      (its struct_size): a plugin reads options_json there, as before.
 * 2.6  Attributes that are lists of floats (Resize's scales and roi), read with
 *      hx_core_services.attr_floats. A 2.5 core's services table ends before the getter (its
 *      struct_size), and no call it makes carries such an attribute.
 * 2.7  The integer dtypes int8, uint8, int16, uint16, uint32 and uint64 (HX_DTYPE_I8 to
 *      HX_DTYPE_U64, values 8 to 13) and ONNX's four 8-bit floats (HX_DTYPE_F8E4M3FN to
 *      HX_DTYPE_F8E5M2FNUZ, 14 to 17). A 2.6 core refuses a kernel registration that names
 *      one (a value outside its hx_dtype): a plugin leaves them out of its registrations under
 *      a core whose core_abi_minor is below hx_dtype_abi_minor of the dtype.
 * 2.8  hx_kernel_args.output_extents: the extents of outputs that depend on values (NonZero),
 *      which the kernel writes. A core ignores a kernel of a 2.7 plugin for such an op (the
 *      plugin could not report them), with a warning naming it.
 * 2.9  No layout change: the core ops FusedGemm and FusedConv (Gemm or Conv, then the
 *      activation their `activation` attribute names), which compile's fusion pass makes of a
 *      Gemm or Conv and its activation where the plugins register a kernel for them. A 2.8
 *      core has no such ops: a plugin registers their kernels only under a core whose
 *      core_abi_minor is 9 or more.
 * 2.10 hx_kernel_args.input_constants: an id per input that is a graph constant, under which
 *      a kernel may keep the input reordered or packed once rather than on every call, and
 *      hx_kernel_def.forget_constants [optional], by which the core says that ids are gone. A
 *      2.9 core's args end before the field (its struct_size): no ids. A 2.9 plugin's
 *      hx_kernel_def ends before forget_constants, which reads as NULL; the smallest
 *      hx_kernel_def a core accepts stays 2.0's (HX_KERNEL_DEF_REQUIRED_SIZE). The core ops
 *      BlockedConv, BlockedMaxPool and BlockedGlobalAveragePool (2-D images whose channels
 *      come in blocks, [N, C / b, H, W, b]), which compile's block_channels pass makes of
 *      chains of convolutions and pools where the plugins register them: a 2.9 core has no
 *      such ops, so a plugin registers them only under a core_abi_minor of 10 or more.
 * 2.11 No layout change: the core op MatMulBias (a stack of rows times a matrix, plus a row
 *      of bias, then an optional activation), which compile's fusion pass makes of a MatMul
 *      and the Add of its bias, and Gelu (exact) among the activations of FusedGemm,
 *      FusedConv, BlockedConv and MatMulBias. A 2.10 core has no MatMulBias and never asks a
 *      fused kernel for Gelu: a plugin registers MatMulBias only under a core_abi_minor of 11
 *      or more.
 * 2.12 No layout change: the core op MultiHeadAttention (softmax(scale Q K^T + mask) V per
 *      head, on Q, K and V of [batch, sequence, heads x size]), which compile's fusion pass
 *      makes of the attention chain exporters write. A 2.11 core has no such op: a plugin
 *      registers it only under a core_abi_minor of 12 or more.
 * 2.13 hx_device_properties.min_alignment: the alignment kernels need, below the one the core
 *      allocates at, so that the core can take memory from outside its allocator (DLPack) in
 *      place. A 2.12 plugin leaves it 0 (the core zeroes the struct): its alignment.
 */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HXRT_PLUGIN_API_H_ */
