/* Streams: a queue of work per stream, run in order by a worker thread of the stream's own.
 *
 * A call that enqueues (a copy, a memset, a kernel, an event record, a wait) appends to the
 * queue under the plugin's lock and returns; the worker takes the work from the head, runs it
 * without the lock, and then, under the lock again, counts it done and wakes whoever waits
 * (plugin->progress). A GPU plugin's stream would be the driver's queue (a CUDA stream, a
 * Vulkan queue with a timeline semaphore) and need no thread; the rules it keeps are the same.
 *
 * Errors of queued work (plugin_api.h, at hx_stream_api): work that fails when it runs marks
 * its stream failed; events recorded behind it then report the failure, and so do the
 * stream's synchronize and query, until synchronize clears it. Work queued behind the failure
 * is skipped rather than run: its inputs may be the failed work's output, and the stream
 * reports a failure already. Event marks and waits still run, so that nothing waits forever. */
#include "async_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records a failure on the stream, naming the device; the first failure is the one kept. */
static void fail_locked(hx_stream* stream, int32_t code, const char* message) {
  if (stream->failed) return;
  stream->failed = 1;
  stream->failure_code = code;
  snprintf(stream->failure, sizeof stream->failure, "%s:%d: %s", ASYNC_SAMPLE_DEVICE_TYPE,
           (int)stream->device->ordinal, message);
}

static void* worker_main(void* argument) {
  hx_stream* stream = (hx_stream*)argument;
  hx_plugin* plugin = stream->device->plugin;
  pthread_mutex_lock(&plugin->lock);
  for (;;) {
    async_work* work;
    while (stream->head == NULL && !stream->closing) {
      pthread_cond_wait(&stream->work_ready, &plugin->lock);
    }
    work = stream->head;
    if (work == NULL) break; /* closing, and the queue is drained */
    stream->head = work->next;
    if (stream->head == NULL) stream->tail = NULL;

    if (work->kind == ASYNC_WORK_RUN) {
      if (!stream->failed) {
        char message[ASYNC_MESSAGE_SIZE] = "";
        int failed;
        /* Without the lock: other threads enqueue, synchronize and allocate meanwhile. */
        pthread_mutex_unlock(&plugin->lock);
        failed = work->run(work, message, sizeof message);
        pthread_mutex_lock(&plugin->lock);
        if (failed) fail_locked(stream, HX_INTERNAL, message);
      }
    } else if (work->kind == ASYNC_WORK_MARK) {
      async_complete_mark_locked(stream, work);
      async_release_event_locked(work->event);
    } else {
      /* Waits on plugin->progress, which releases the lock meanwhile. */
      async_run_wait_locked(stream, work);
      async_release_event_locked(work->event);
    }
    free(work);
    --stream->pending;
    pthread_cond_broadcast(&plugin->progress);
  }
  pthread_mutex_unlock(&plugin->lock);
  return NULL;
}

void async_enqueue_locked(hx_stream* stream, async_work* work) {
  work->next = NULL;
  if (stream->tail == NULL) {
    stream->head = work;
  } else {
    stream->tail->next = work;
  }
  stream->tail = work;
  ++stream->pending;
  pthread_cond_signal(&stream->work_ready);
}

hx_status* async_check_stream(hx_device* device, hx_stream* stream, const char* what) {
  if (stream != NULL && stream->device == device) return NULL;
  return async_status(device->plugin, HX_INVALID_ARGUMENT, "%s %s: %s", ASYNC_SAMPLE_NAME, what,
                      stream == NULL ? "NULL stream" : "the stream is another device's");
}

hx_status* async_submit(hx_device* device, hx_stream* stream, async_work* work,
                        const char* what) {
  hx_plugin* plugin = device->plugin;
  hx_status* status;
  if (stream == NULL) {
    /* The NULL stream: run now, on this thread, and report the failure to this caller. */
    char message[ASYNC_MESSAGE_SIZE] = "";
    const int failed = work->run(work, message, sizeof message);
    free(work);
    if (!failed) return NULL;
    return async_status(plugin, HX_INTERNAL, "%s %s on %s:%d: %s", ASYNC_SAMPLE_NAME, what,
                        ASYNC_SAMPLE_DEVICE_TYPE, (int)device->ordinal, message);
  }
  status = async_check_stream(device, stream, what);
  if (status != NULL) {
    free(work);
    return status;
  }
  pthread_mutex_lock(&plugin->lock);
  async_enqueue_locked(stream, work);
  pthread_mutex_unlock(&plugin->lock);
  return NULL;
}

/* ---- the streams group ---- */

static hx_status* stream_create(hx_device* device, hx_stream** out_stream) {
  hx_plugin* plugin = device->plugin;
  hx_stream* stream = (hx_stream*)calloc(1, sizeof *stream);
  int rc;
  if (stream == NULL) {
    return async_status(plugin, HX_OUT_OF_MEMORY, "%s stream create: no memory",
                        ASYNC_SAMPLE_NAME);
  }
  stream->device = device;
  pthread_cond_init(&stream->work_ready, NULL);
  pthread_mutex_lock(&plugin->lock);
  stream->id = plugin->next_stream_id++;
  pthread_mutex_unlock(&plugin->lock);
  /* Everything the worker reads was written above, before it starts. */
  rc = pthread_create(&stream->worker, NULL, worker_main, stream);
  if (rc != 0) {
    pthread_cond_destroy(&stream->work_ready);
    free(stream);
    return async_status(plugin, HX_UNAVAILABLE,
                        "%s stream create: could not start its worker thread (error %d)",
                        ASYNC_SAMPLE_NAME, rc);
  }
  *out_stream = stream;
  return NULL;
}

/* Lets the worker finish what is queued, then joins it: no thread of the plugin outlives its
 * stream, and shutdown (after the core destroyed every stream) has none left to stop. */
static void stream_destroy(hx_device* device, hx_stream* stream) {
  hx_plugin* plugin;
  (void)device;
  if (stream == NULL) return;
  plugin = stream->device->plugin;
  pthread_mutex_lock(&plugin->lock);
  stream->closing = 1;
  pthread_cond_signal(&stream->work_ready);
  pthread_mutex_unlock(&plugin->lock);
  pthread_join(stream->worker, NULL);
  pthread_cond_destroy(&stream->work_ready);
  free(stream);
}

/* The failure the stream holds, as a status; the caller holds the lock. */
static hx_status* stream_failure_locked(const hx_stream* stream, const char* what) {
  return async_status(stream->device->plugin, stream->failure_code,
                      "%s %s: work queued on the stream failed: %s", ASYNC_SAMPLE_NAME, what,
                      stream->failure);
}

static hx_status* stream_synchronize(hx_device* device, hx_stream* stream) {
  hx_plugin* plugin = device->plugin;
  hx_status* status = async_check_stream(device, stream, "stream synchronize");
  if (status != NULL) return status;
  pthread_mutex_lock(&plugin->lock);
  while (stream->pending > 0) pthread_cond_wait(&plugin->progress, &plugin->lock);
  if (stream->failed) {
    status = stream_failure_locked(stream, "stream synchronize");
    stream->failed = 0; /* reported: later work reports only its own failures */
  }
  pthread_mutex_unlock(&plugin->lock);
  return status;
}

static hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done) {
  hx_plugin* plugin = device->plugin;
  hx_status* status = async_check_stream(device, stream, "stream query");
  if (status != NULL) return status;
  pthread_mutex_lock(&plugin->lock);
  *out_done = stream->pending == 0;
  if (stream->failed) status = stream_failure_locked(stream, "stream query");
  pthread_mutex_unlock(&plugin->lock);
  return status;
}

const hx_stream_api async_stream_api = {
    .struct_size = HX_STREAM_API_STRUCT_SIZE,
    .extensions = NULL,
    .create = stream_create,
    .destroy = stream_destroy,
    .synchronize = stream_synchronize,
    .query = stream_query,
    .wait_event = async_wait_event, /* event.c: it is about events as much as streams */
};
