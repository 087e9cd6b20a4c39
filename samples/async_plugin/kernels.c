/* Kernels for two of the core's ops on float32: Add (z = x + y, broadcasting) and Relu
 * (y = max(x, 0)). The core owns these ops (their shape inference, `hxrt-info --ops`), so the
 * plugin registers kernels only, no op.
 *
 * A kernel here enqueues its work like a copy (memory.c): compute copies what it needs out of
 * the views (they are borrowed for the call only), turns (buffer, byte_offset) into addresses
 * inside the plugin's buffers, and hands the work to the stream; the worker runs it later.
 *
 * Strides: outputs are dense, and so are inputs, except those of ops that broadcast (Add):
 * the core hands each over already broadcast to the output's shape, with stride 0 along the
 * axes where it repeats. One loop that walks the output in order and each input by its
 * strides runs both ops and every broadcast, so no call needs declining (no check function). */
#include "async_sample.h"

#include <hxrt/plugin_vocabulary.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef enum elementwise_op { OP_ADD, OP_RELU } elementwise_op;

/* One elementwise call, as the worker needs it once the views are gone. */
typedef struct elementwise_work {
  async_work work; /* first: the stream holds a pointer to it */
  elementwise_op op;
  int32_t rank;
  int64_t shape[HX_MAX_RANK];
  size_t num_inputs;
  const float* inputs[2];
  int64_t strides[2][HX_MAX_RANK]; /* in elements */
  float* output;                   /* dense */
} elementwise_work;

static float apply(elementwise_op op, float x, float y) {
  if (op == OP_ADD) return x + y;
  return x < 0.0f ? 0.0f : x; /* Relu; NaN stays NaN (the comparison is false) */
}

static int run_elementwise(async_work* work, char* message, size_t message_size) {
  const elementwise_work* call = (const elementwise_work*)work;
  int64_t index[HX_MAX_RANK] = {0}; /* the output element's index, last axis fastest */
  int64_t at[2] = {0, 0};           /* each input's element at that index */
  int64_t count = 1;
  int64_t i;
  int32_t d;
  (void)message;
  (void)message_size;
  for (d = 0; d < call->rank; ++d) count *= call->shape[d];
  for (i = 0; i < count; ++i) {
    const float x = call->inputs[0][at[0]];
    const float y = call->num_inputs > 1 ? call->inputs[1][at[1]] : 0.0f;
    call->output[i] = apply(call->op, x, y);
    /* Next index: step the last axis; where it wraps, rewind it and step the one before. */
    for (d = call->rank - 1; d >= 0; --d) {
      at[0] += call->strides[0][d];
      at[1] += call->strides[1][d];
      if (++index[d] < call->shape[d]) break;
      at[0] -= call->strides[0][d] * call->shape[d];
      at[1] -= call->strides[1][d] * call->shape[d];
      index[d] = 0;
    }
  }
  return 0;
}

/* The address of a view's element [0, ..., 0], once its last element is known to lie inside
 * its buffer; NULL with *status set otherwise. The core always passes views inside their
 * buffers; a status keeps anyone else's mistake from becoming a crash on the worker. */
static float* view_elements(const hx_kernel_args* args, const hx_tensor_view* view,
                            const char* op, hx_status** status) {
  uint64_t last = 0; /* the element index of the last element */
  int32_t d;
  const hx_buffer* buffer = view->buffer;
  for (d = 0; d < view->rank; ++d) last += (uint64_t)(view->shape[d] - 1) * view->strides[d];
  if (buffer == NULL || view->byte_offset > buffer->size ||
      (last + 1) * sizeof(float) > buffer->size - view->byte_offset) {
    *status = async_status(args->device->plugin, HX_INVALID_ARGUMENT,
                           "%s: a tensor of %s lies outside its buffer", op, ASYNC_SAMPLE_NAME);
    return NULL;
  }
  return (float*)(buffer->bytes + view->byte_offset);
}

static hx_status* compute(const hx_kernel_args* args, elementwise_op op, const char* name) {
  const hx_tensor_view* output = &args->outputs[0];
  elementwise_work* call;
  hx_status* status = NULL;
  int64_t count = 1;
  size_t i;
  int32_t d;
  /* The core checked arity and dtypes against what was registered; these hold by contract. */
  for (d = 0; d < output->rank; ++d) count *= output->shape[d];
  if (count == 0) return NULL; /* nothing to write, and the views may have no buffers */
  call = (elementwise_work*)calloc(1, sizeof *call);
  if (call == NULL) {
    return async_status(args->device->plugin, HX_OUT_OF_MEMORY, "%s: no memory to queue it",
                        name);
  }
  call->work.kind = ASYNC_WORK_RUN;
  call->work.run = run_elementwise;
  call->op = op;
  call->rank = output->rank;
  memcpy(call->shape, output->shape, (size_t)output->rank * sizeof *output->shape);
  call->num_inputs = args->num_inputs;
  call->output = view_elements(args, output, name, &status);
  for (i = 0; i < args->num_inputs && status == NULL; ++i) {
    const hx_tensor_view* input = &args->inputs[i];
    /* Broadcast already: each input has the output's rank and shape (strides may be 0). */
    if (input->rank != output->rank ||
        memcmp(input->shape, output->shape, (size_t)output->rank * sizeof *output->shape) != 0) {
      status = async_status(args->device->plugin, HX_INVALID_ARGUMENT,
                            "%s: input %zu does not have the output's shape", name, i);
      break;
    }
    call->inputs[i] = view_elements(args, input, name, &status);
    memcpy(call->strides[i], input->strides, (size_t)input->rank * sizeof *input->strides);
  }
  if (status != NULL) {
    free(call);
    return status;
  }
  return async_submit(args->device, args->stream, &call->work, name);
}

static hx_status* add_f32(const hx_kernel_args* args) { return compute(args, OP_ADD, "Add"); }
static hx_status* relu_f32(const hx_kernel_args* args) { return compute(args, OP_RELU, "Relu"); }

static hx_status* register_kernel(hx_plugin* plugin, const char* op, hx_kernel_fn compute_fn) {
  const int32_t dtype = HX_DTYPE_F32;
  hx_kernel_def def;
  hx_status* status;
  memset(&def, 0, sizeof def);
  def.struct_size = HX_KERNEL_DEF_STRUCT_SIZE;
  def.extensions = NULL;
  def.op = op;
  def.dtypes = &dtype; /* copied by the core before register_kernel returns */
  def.num_dtypes = 1;
  def.priority = 0;
  def.compute = compute_fn;
  def.user_data = plugin;
  def.create = NULL; /* no attributes to read once: no instances */
  def.check = NULL;  /* every shape and broadcast runs: nothing to decline */
  def.destroy = NULL;
  status = plugin->services->register_kernel(plugin->core, &def);
  if (status != NULL) {
    hx_status* described =
        async_status(plugin, plugin->services->status_code(status),
                     "%s plugin: registering the %s float32 kernel: %s", ASYNC_SAMPLE_NAME, op,
                     plugin->services->status_message(status));
    plugin->services->status_destroy(status);
    return described;
  }
  return NULL;
}

hx_status* async_register_kernels(hx_plugin* plugin) {
  hx_status* status = register_kernel(plugin, "Add", add_f32);
  if (status == NULL) status = register_kernel(plugin, "Relu", relu_f32);
  return status;
}
