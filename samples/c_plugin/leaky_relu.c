/* A new op and its kernels: LeakyRelu(x) = x where x > 0, alpha * x elsewhere, with the float
 * attribute "alpha" (default 0.2, as TensorFlow's tf.nn.leaky_relu).
 *
 * The core owns ops: their arity and shape inference decide, before any device is chosen,
 * whether a call is valid and what it returns. A plugin that brings an op of its own registers
 * it with register_op first (name, arity, shape inference), then its kernels with
 * register_kernel, both during init. Host applications then run it like a core op:
 *
 *   rt.execute("LeakyRelu", {x}, {{"alpha", 0.1}});
 *
 * and the placer puts it on a CSAMPLE device, the only type with a kernel for it. */
#include "c_sample.h"

#include <string.h>

#define LEAKY_RELU "LeakyRelu"
#define LEAKY_RELU_DEFAULT_ALPHA 0.2

static const char* dtype_name(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: return "float32";
    case HX_DTYPE_F64: return "float64";
    case HX_DTYPE_F16: return "float16";
    case HX_DTYPE_BF16: return "bfloat16";
    case HX_DTYPE_I32: return "int32";
    case HX_DTYPE_I64: return "int64";
    case HX_DTYPE_BOOL: return "bool";
    default: return "an unknown dtype";
  }
}

/* "alpha", or its default when the call gives none. attr_float also takes an integer
 * attribute; any other type is the caller's mistake (INVALID_ARGUMENT). */
static hx_status* read_alpha(const hx_core_services* services, const hx_kernel_context* context,
                             double* alpha) {
  hx_status* status = services->attr_float(context, "alpha", alpha);
  hx_status* described;
  if (status == NULL) return NULL;
  if (services->status_code(status) == HX_NOT_FOUND) {
    /* Absent: the op's default. The NOT_FOUND status is cheap, but still ours to free. */
    services->status_destroy(status);
    *alpha = LEAKY_RELU_DEFAULT_ALPHA;
    return NULL;
  }
  /* The core's message names the attribute and its type; add the op. */
  described = c_sample_status(services, services->status_code(status), "%s: %s", LEAKY_RELU,
                              services->status_message(status));
  services->status_destroy(status);
  return described;
}

/* Shape inference: one output with the input's dtype and shape. Only the dtypes this plugin
 * has kernels for are accepted, so that an int32 call fails here with the op's own words
 * instead of later with "no kernel". */
static hx_status* infer_leaky_relu(const hx_shape_inference_args* args) {
  const hx_plugin* plugin = (const hx_plugin*)args->user_data;
  const hx_tensor_view* x = &args->inputs[0]; /* the core checked the arity: one input */
  hx_output_spec* y = &args->outputs[0];
  double alpha;
  hx_status* status;
  int32_t d;
  if (x->dtype != HX_DTYPE_F32 && x->dtype != HX_DTYPE_F64) {
    return c_sample_status(plugin->services, HX_INVALID_ARGUMENT,
                           "%s: input 0 must be float32 or float64, got %s", LEAKY_RELU,
                           dtype_name(x->dtype));
  }
  /* A wrong "alpha" is reported before the op is placed, not by the kernel. */
  status = read_alpha(plugin->services, args->context, &alpha);
  if (status != NULL) return status;
  y->dtype = x->dtype;
  y->rank = x->rank;
  for (d = 0; d < x->rank; ++d) y->shape[d] = x->shape[d];
  return NULL;
}

static int64_t element_count(const hx_tensor_view* tensor) {
  int64_t count = 1;
  int32_t d;
  for (d = 0; d < tensor->rank; ++d) count *= tensor->shape[d];
  return count;
}

/* The kernels. Inputs and outputs are on this plugin's device (host memory here), dense and
 * row-major (ABI 1.0), so a flat loop covers every element; a tensor without elements may have
 * NULL data and runs no iteration. The output is allocated by the core with the shape that
 * inference gave. */
static hx_status* leaky_relu_f32(const hx_kernel_args* args) {
  const hx_plugin* plugin = (const hx_plugin*)args->user_data;
  const float* x = (const float*)args->inputs[0].data;
  float* y = (float*)args->outputs[0].data;
  const int64_t count = element_count(&args->inputs[0]);
  double alpha;
  float a;
  int64_t i;
  hx_status* status = read_alpha(plugin->services, args->context, &alpha);
  if (status != NULL) return status;
  a = (float)alpha;
  for (i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : a * x[i];
  return NULL;
}

static hx_status* leaky_relu_f64(const hx_kernel_args* args) {
  const hx_plugin* plugin = (const hx_plugin*)args->user_data;
  const double* x = (const double*)args->inputs[0].data;
  double* y = (double*)args->outputs[0].data;
  const int64_t count = element_count(&args->inputs[0]);
  double alpha;
  int64_t i;
  hx_status* status = read_alpha(plugin->services, args->context, &alpha);
  if (status != NULL) return status;
  for (i = 0; i < count; ++i) y[i] = x[i] > 0.0 ? x[i] : alpha * x[i];
  return NULL;
}

/* Prefixes a registration error with what was being registered. */
static hx_status* describe_failure(const hx_core_services* services, hx_status* status,
                                   const char* what) {
  hx_status* described;
  if (status == NULL) return NULL;
  described = c_sample_status(services, services->status_code(status), "%s plugin: %s: %s",
                              C_SAMPLE_NAME, what, services->status_message(status));
  services->status_destroy(status);
  return described;
}

static hx_status* register_kernel(hx_plugin* plugin, hx_dtype dtype, hx_kernel_fn compute) {
  hx_kernel_def def;
  memset(&def, 0, sizeof def);
  def.struct_size = HX_KERNEL_DEF_STRUCT_SIZE;
  def.op = LEAKY_RELU;
  def.device_type = C_SAMPLE_DEVICE_TYPE;
  def.dtypes = &dtype; /* borrowed: the core copies it before register_kernel returns */
  def.num_dtypes = 1;
  def.priority = 0;
  def.compute = compute;
  def.user_data = plugin;
  return describe_failure(plugin->services, plugin->services->register_kernel(plugin->core, &def),
                          dtype == HX_DTYPE_F32 ? "registering the LeakyRelu float32 kernel"
                                                : "registering the LeakyRelu float64 kernel");
}

hx_status* c_sample_register_leaky_relu(hx_plugin* plugin) {
  hx_op_def op;
  hx_status* status;
  memset(&op, 0, sizeof op);
  op.struct_size = HX_OP_DEF_STRUCT_SIZE;
  op.name = LEAKY_RELU;
  op.min_inputs = 1;
  op.max_inputs = 1;
  op.num_outputs = 1;
  op.infer = infer_leaky_relu;
  op.user_data = plugin;
  /* The op first: a kernel for an op the core does not know is refused. */
  status = describe_failure(plugin->services, plugin->services->register_op(plugin->core, &op),
                            "registering the LeakyRelu op");
  if (status == NULL) status = register_kernel(plugin, HX_DTYPE_F32, leaky_relu_f32);
  if (status == NULL) status = register_kernel(plugin, HX_DTYPE_F64, leaky_relu_f64);
  return status;
}
