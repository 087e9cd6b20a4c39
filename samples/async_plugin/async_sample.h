/* The async_sample plugin's own state and the functions its files share. Private to the
 * plugin: the core sees only hx_plugin_init and the function table it returns.
 *
 * What this sample shows that samples/c_plugin does not: a device whose memory the core cannot
 * reach (HX_MEMORY_DEVICE, buffers as opaque objects), and work that runs later, in order, on
 * streams, with events to order streams against each other and to let the host wait. It is the
 * shape of a plugin for Vulkan, OpenCL or an NPU's driver, with the driver replaced by a thread
 * per stream and host memory the core never sees. Each file holds one part:
 *
 *   plugin.c   the entry point, the options and the function table
 *   device.c   the two devices, their properties and their memory budget
 *   memory.c   buffers (allocate, deallocate) and the transfers, enqueued or run at once
 *   stream.c   streams: a queue of work and the worker thread that runs it
 *   event.c    events: points in a stream, waited for by the host and by other streams
 *   kernels.c  the Add and Relu kernels for float32, enqueued like a copy
 */
#ifndef HX_ASYNC_SAMPLE_H_
#define HX_ASYNC_SAMPLE_H_

#include <hxrt/plugin_api.h>
#include <pthread.h>

#define ASYNC_SAMPLE_NAME "async_sample"
#define ASYNC_SAMPLE_DEVICE_TYPE "ASYNC"

/* Two devices, so that a stream of one can wait for an event of the other (what the core does
 * when a tensor made on one device is used on the other), and hxrt-conformance checks it. */
#define ASYNC_SAMPLE_DEVICES 2

/* Each device's memory: a budget of host memory that allocate enforces, as a device with
 * memory of its own would (OUT_OF_MEMORY beyond it, memory_info reports what is free). The
 * option "memory_mb" sets it, from 1 to ASYNC_SAMPLE_MAX_MEMORY_MB MiB. */
#define ASYNC_SAMPLE_DEFAULT_MEMORY_MB 256
#define ASYNC_SAMPLE_MAX_MEMORY_MB 65536

/* The alignment allocate gives and the core places tensors at: a cache line. */
#define ASYNC_SAMPLE_ALIGNMENT 64

/* Room for the message of a failed piece of queued work, kept until it is reported. */
#define ASYNC_MESSAGE_SIZE 256

/* One device. Its handle (hx_device*) points here; valid until shutdown. */
struct hx_device_s {
  struct hx_plugin_s* plugin; /* for the services and the lock */
  int32_t ordinal;
  uint64_t bytes_in_use; /* guarded by plugin->lock */
};

/* The whole plugin: created by hx_plugin_init, freed by shutdown; nothing lives in globals.
 *
 * One lock guards everything threads share: every stream's queue and state, every event, the
 * devices' budgets. It is never held while work runs (a copy, a kernel), only while a queue or
 * a state changes, so one lock costs nothing here and leaves no lock order to get wrong.
 * `progress` is broadcast whenever a piece of queued work finishes: everything that waits for
 * work (stream and event synchronize, a stream waiting for an event) waits on it. */
struct hx_plugin_s {
  const hx_core_services* services; /* borrowed from the core until shutdown returns */
  hx_core* core;
  hx_plugin_api api;                /* the table handed to the core */
  pthread_mutex_t lock;
  pthread_cond_t progress;
  uint64_t next_stream_id;          /* guarded by lock; see hx_stream_s.id */
  uint64_t memory_bytes;            /* each device's budget, from the options */
  struct hx_device_s devices[ASYNC_SAMPLE_DEVICES];
};

/* One buffer of device memory. The core holds hx_buffer* handles and passes them back with a
 * byte offset; it never looks inside. A Vulkan plugin would keep a VkBuffer and its
 * VkDeviceMemory here, an OpenCL one a cl_mem. This device's memory is host memory that only
 * the plugin touches. */
struct hx_buffer_s {
  size_t size;
  unsigned char* bytes;
};

/* ---- queued work (stream.c) ----
 * A piece of work on a stream's queue. Copies and kernels put their arguments in a struct of
 * their own whose first member is an async_work, and `run` finds them there. */
typedef struct async_work async_work;
typedef enum async_work_kind {
  ASYNC_WORK_RUN = 0,  /* run(): a copy, a memset, a kernel */
  ASYNC_WORK_MARK = 1, /* an event's recorded point: completes the event (event.c) */
  ASYNC_WORK_WAIT = 2  /* the stream waits here until an event completes (event.c) */
} async_work_kind;
struct async_work {
  async_work* next;
  async_work_kind kind;
  /* ASYNC_WORK_RUN: does the work, on the stream's worker thread (or at once for a NULL
   * stream). Returns 0, or nonzero with what failed written to `message`. */
  int (*run)(async_work* work, char* message, size_t message_size);
  /* ASYNC_WORK_MARK and ASYNC_WORK_WAIT: the event and which of its records is meant. */
  hx_event* event;
  uint64_t generation;
};

/* A stream: a queue of work run in order by a worker thread of its own. */
struct hx_stream_s {
  hx_device* device;
  uint64_t id;         /* never reused, unlike an address: what an event remembers */
  pthread_t worker;
  /* Everything below is guarded by the plugin's lock. */
  pthread_cond_t work_ready; /* signalled when work is queued or the stream closes */
  async_work* head;          /* the next work to run; NULL when the queue is empty */
  async_work* tail;
  size_t pending;            /* queued or running: 0 means all work so far has completed */
  uint64_t marks;            /* event records so far, to order events for elapsed_ns */
  int closing;               /* set by destroy: the worker drains the queue and ends */
  /* "Errors of queued work" (plugin_api.h): work that failed marks the stream failed until
   * synchronize reports and clears it; work queued meanwhile is skipped, as its inputs may be
   * the failed work's output. */
  int failed;
  int32_t failure_code;
  char failure[ASYNC_MESSAGE_SIZE];
};

/* An event: the latest point recorded on a stream and whether it has completed. */
struct hx_event_s {
  hx_device* device;
  /* Everything below is guarded by the plugin's lock. */
  int references;       /* the owner's (until destroy) and one per queued mark or wait */
  uint64_t recorded;    /* records so far; 0: never recorded */
  uint64_t completed;   /* the latest record whose point has completed */
  int failed;           /* the stream was failed when that point was reached */
  int32_t failure_code;
  char failure[ASYNC_MESSAGE_SIZE];
  /* For elapsed_ns: the stream of the latest record (0: none, or the NULL stream), the mark's
   * number on it, and the time its point was reached. */
  uint64_t stream_id;
  uint64_t sequence;
  uint64_t time_ns;
};

/* ---- shared helpers ---- */

/* A status made by the core from a printf-style message. `code` must not be HX_OK. */
hx_status* async_status(const hx_plugin* plugin, int32_t code, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The host's monotonic clock in nanoseconds: this device's own clock (event.c, stream.c). */
uint64_t async_now_ns(void);

/* device.c */
void async_init_devices(hx_plugin* plugin);
void async_fill_device_functions(hx_plugin_api* api);
/* Takes or gives back `size` bytes of a device's budget; reserve is 0 when too few are left. */
int async_reserve(hx_device* device, size_t size);
void async_give_back(hx_device* device, size_t size);

/* memory.c */
void async_fill_memory_functions(hx_plugin_api* api);

/* stream.c: the streams group, and how work gets onto a stream. */
extern const hx_stream_api async_stream_api;
/* Hands `work` (malloc'ed; the stream frees it once done) to `stream`, or runs it at once and
 * frees it when `stream` is NULL. `what` names the call in the status of a refusal or, for a
 * NULL stream, of the work's failure. */
hx_status* async_submit(hx_device* device, hx_stream* stream, async_work* work,
                        const char* what);
/* Appends work to a stream's queue; the caller holds the plugin's lock. */
void async_enqueue_locked(hx_stream* stream, async_work* work);
/* INVALID_ARGUMENT unless `stream` is a stream of `device`; NULL when it is. */
hx_status* async_check_stream(hx_device* device, hx_stream* stream, const char* what);

/* event.c: the events group, streams.wait_event, and what a worker does with the marks and
 * waits it meets in its queue (holding the plugin's lock). */
extern const hx_event_api async_event_api;
hx_status* async_wait_event(hx_device* device, hx_stream* stream, hx_event* event);
void async_complete_mark_locked(hx_stream* stream, async_work* mark);
void async_run_wait_locked(hx_stream* stream, async_work* wait);
/* Drops one reference to an event and frees it at the last; the caller holds the lock. */
void async_release_event_locked(hx_event* event);

/* kernels.c: registers Add and Relu for float32, during init. */
hx_status* async_register_kernels(hx_plugin* plugin);

#endif /* HX_ASYNC_SAMPLE_H_ */
