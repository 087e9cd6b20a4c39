/* Events: a point in a stream that the host (synchronize, query) and other streams (wait_event)
 * wait for, and that elapsed_ns times.
 *
 * record puts a mark in the stream's queue; when the stream's worker reaches it, everything
 * queued before it has run, so the event completes there (async_complete_mark_locked). An
 * event may be recorded again: each record has a number (its generation), and waiting for the
 * event means waiting for the record made last before the wait was asked for.
 *
 * wait_event puts a wait in the waiting stream's queue, which holds that stream's worker until
 * the event completes; the event may be on a stream of the other device, since both devices'
 * streams share the plugin's lock and its `progress` signal. The host's thread never blocks in
 * wait_event. (A plugin whose API cannot wait across contexts may wait on the host instead, as
 * plugin_api.h allows, at the cost of serialising the two devices through the calling thread.)
 *
 * An event queued in a stream (a mark or a wait not yet run) must outlive a destroy the core
 * may call meanwhile, so each holds a reference, and the last one frees it. */
#include "async_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void async_release_event_locked(hx_event* event) {
  if (--event->references == 0) free(event);
}

void async_complete_mark_locked(hx_stream* stream, async_work* mark) {
  hx_event* event = mark->event;
  /* A later record that completed first (on another stream) is not undone. */
  if (mark->generation <= event->completed) return;
  event->completed = mark->generation;
  /* Events recorded behind failed work report its failure (see stream.c). */
  event->failed = stream->failed;
  event->failure_code = stream->failure_code;
  memcpy(event->failure, stream->failure, sizeof event->failure);
  event->time_ns = async_now_ns();
}

void async_run_wait_locked(hx_stream* stream, async_work* wait) {
  hx_plugin* plugin = stream->device->plugin;
  hx_event* event = wait->event;
  while (event->completed < wait->generation) {
    pthread_cond_wait(&plugin->progress, &plugin->lock);
  }
  /* Work computed from a failed work's output must not report success: the waiting stream
   * fails too (plugin_api.h, wait_event). */
  if (event->failed && !stream->failed) {
    stream->failed = 1;
    stream->failure_code = event->failure_code;
    snprintf(stream->failure, sizeof stream->failure, "waited for an event of failed work: %.200s",
             event->failure);
  }
}

/* INVALID_ARGUMENT unless `event` is an event of `device`. */
static hx_status* check_event(hx_device* device, const hx_event* event, const char* what) {
  if (event != NULL && event->device == device) return NULL;
  return async_status(device->plugin, HX_INVALID_ARGUMENT, "%s %s: %s", ASYNC_SAMPLE_NAME, what,
                      event == NULL ? "NULL event" : "the event is another device's");
}

hx_status* async_wait_event(hx_device* device, hx_stream* stream, hx_event* event) {
  hx_plugin* plugin = device->plugin;
  async_work* wait;
  hx_status* status = async_check_stream(device, stream, "wait_event");
  if (status != NULL) return status;
  /* Either device's events: both are this plugin's. */
  if (event == NULL || event->device->plugin != plugin) {
    return async_status(plugin, HX_INVALID_ARGUMENT, "%s wait_event: %s", ASYNC_SAMPLE_NAME,
                        event == NULL ? "NULL event" : "the event is another plugin's");
  }
  wait = (async_work*)calloc(1, sizeof *wait);
  if (wait == NULL) {
    return async_status(plugin, HX_OUT_OF_MEMORY, "%s wait_event: no memory to queue it",
                        ASYNC_SAMPLE_NAME);
  }
  pthread_mutex_lock(&plugin->lock);
  if (event->recorded == 0) {
    free(wait); /* never recorded: nothing to wait for */
  } else {
    wait->kind = ASYNC_WORK_WAIT;
    wait->event = event;
    wait->generation = event->recorded;
    ++event->references;
    async_enqueue_locked(stream, wait);
  }
  pthread_mutex_unlock(&plugin->lock);
  return NULL;
}

/* ---- the events group ---- */

static hx_status* event_create(hx_device* device, hx_event** out_event) {
  hx_event* event = (hx_event*)calloc(1, sizeof *event);
  if (event == NULL) {
    return async_status(device->plugin, HX_OUT_OF_MEMORY, "%s event create: no memory",
                        ASYNC_SAMPLE_NAME);
  }
  event->device = device;
  event->references = 1; /* the owner's, dropped by destroy */
  *out_event = event;
  return NULL;
}

static void event_destroy(hx_device* device, hx_event* event) {
  if (event == NULL) return;
  pthread_mutex_lock(&device->plugin->lock);
  async_release_event_locked(event);
  pthread_mutex_unlock(&device->plugin->lock);
}

static hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream) {
  hx_plugin* plugin = device->plugin;
  async_work* mark = NULL;
  hx_status* status = check_event(device, event, "event record");
  if (status == NULL && stream != NULL) status = async_check_stream(device, stream, "event record");
  if (status != NULL) return status;
  if (stream != NULL) {
    mark = (async_work*)calloc(1, sizeof *mark);
    if (mark == NULL) {
      return async_status(plugin, HX_OUT_OF_MEMORY, "%s event record: no memory to queue it",
                          ASYNC_SAMPLE_NAME);
    }
  }
  pthread_mutex_lock(&plugin->lock);
  ++event->recorded;
  if (stream == NULL) {
    /* The NULL stream's work completes before its calls return: the point is reached. It is
     * on no stream, so elapsed_ns cannot time from it. */
    event->completed = event->recorded;
    event->failed = 0;
    event->stream_id = 0;
    event->time_ns = async_now_ns();
    pthread_cond_broadcast(&plugin->progress);
  } else {
    mark->kind = ASYNC_WORK_MARK;
    mark->event = event;
    mark->generation = event->recorded;
    ++event->references;
    event->stream_id = stream->id;
    event->sequence = ++stream->marks;
    async_enqueue_locked(stream, mark);
  }
  pthread_mutex_unlock(&plugin->lock);
  return NULL;
}

/* The failure the event's point reported, as a status; the caller holds the lock. */
static hx_status* event_failure_locked(const hx_event* event, const char* what) {
  return async_status(event->device->plugin, event->failure_code,
                      "%s %s: work queued before the event failed: %s", ASYNC_SAMPLE_NAME, what,
                      event->failure);
}

static hx_status* event_synchronize(hx_device* device, hx_event* event) {
  hx_plugin* plugin = device->plugin;
  uint64_t target;
  hx_status* status = check_event(device, event, "event synchronize");
  if (status != NULL) return status;
  pthread_mutex_lock(&plugin->lock);
  target = event->recorded; /* 0 when never recorded: returns at once */
  while (event->completed < target) pthread_cond_wait(&plugin->progress, &plugin->lock);
  if (event->failed) status = event_failure_locked(event, "event synchronize");
  pthread_mutex_unlock(&plugin->lock);
  return status;
}

static hx_status* event_query(hx_device* device, hx_event* event, bool* out_done) {
  hx_plugin* plugin = device->plugin;
  hx_status* status = check_event(device, event, "event query");
  if (status != NULL) return status;
  pthread_mutex_lock(&plugin->lock);
  *out_done = event->completed >= event->recorded;
  if (*out_done && event->failed) status = event_failure_locked(event, "event query");
  pthread_mutex_unlock(&plugin->lock);
  return status;
}

/* The device's clock is the host's monotonic clock, read by the worker as it reaches each
 * mark, so the time between two marks of one stream is the time its worker spent between
 * them: what the core's dynamic placer learns a device's speed from. */
static hx_status* event_elapsed_ns(hx_device* device, hx_event* start, hx_event* end,
                                   uint64_t* out_ns) {
  hx_plugin* plugin = device->plugin;
  hx_event copy_of_start;
  hx_event copy_of_end;
  hx_status* status = check_event(device, start, "elapsed_ns");
  if (status == NULL) status = check_event(device, end, "elapsed_ns");
  if (status != NULL) return status;
  pthread_mutex_lock(&plugin->lock);
  copy_of_start = *start;
  copy_of_end = *end;
  pthread_mutex_unlock(&plugin->lock);
  if (copy_of_start.stream_id == 0 || copy_of_end.stream_id == 0) {
    return async_status(plugin, HX_FAILED_PRECONDITION,
                        "%s elapsed_ns: the %s event was never recorded on a stream",
                        ASYNC_SAMPLE_NAME, copy_of_start.stream_id == 0 ? "start" : "end");
  }
  if (copy_of_start.completed < copy_of_start.recorded ||
      copy_of_end.completed < copy_of_end.recorded) {
    return async_status(plugin, HX_FAILED_PRECONDITION,
                        "%s elapsed_ns: the %s event has not completed; synchronize it first",
                        ASYNC_SAMPLE_NAME,
                        copy_of_start.completed < copy_of_start.recorded ? "start" : "end");
  }
  if (copy_of_start.stream_id != copy_of_end.stream_id) {
    return async_status(plugin, HX_INVALID_ARGUMENT,
                        "%s elapsed_ns: the two events were recorded on different streams",
                        ASYNC_SAMPLE_NAME);
  }
  if (copy_of_start.sequence > copy_of_end.sequence) {
    return async_status(plugin, HX_INVALID_ARGUMENT,
                        "%s elapsed_ns: the start event was recorded after the end event",
                        ASYNC_SAMPLE_NAME);
  }
  *out_ns = copy_of_end.time_ns - copy_of_start.time_ns;
  return NULL;
}

const hx_event_api async_event_api = {
    .struct_size = HX_EVENT_API_STRUCT_SIZE,
    .extensions = NULL,
    .create = event_create,
    .destroy = event_destroy,
    .record = event_record,
    .synchronize = event_synchronize,
    .query = event_query,
    .elapsed_ns = event_elapsed_ns,
};
