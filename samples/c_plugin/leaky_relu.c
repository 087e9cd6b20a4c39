/* A new op and its kernels: CSample_LeakyRelu(x) = x where x > 0, alpha * x elsewhere, with the
 * float attribute "alpha" (default 0.2, as TensorFlow's tf.nn.leaky_relu).
 *
 * A custom op may not take a core op's name, and the core adopts ONNX's ops and their names
 * (the core's LeakyRelu is ONNX's), so a plugin's op names carry the plugin's prefix: "CSample_"
 * here. ONNX's names have no underscore, so a prefixed name never clashes with a later core op.
 *
 * The core owns ops: their arity and shape inference decide, before any device is chosen,
 * whether a call is valid and what it returns, and `hxrt-info --ops` shows them to users. A
 * plugin that brings an op of its own registers it with register_op first (name, arity, shape
 * inference, a one-line summary, the input that carries its type T), then its kernels with
 * register_kernel, both during init. Host applications then run it like a core op:
 *
 *   rt.execute("CSample_LeakyRelu", {x}, {{"alpha", 0.1}});
 *
 * and the placer puts it on a CSAMPLE device, the only type with a kernel for it.
 *
 * Each kernel has an instance: the core calls create once per combination of attributes and
 * dtypes, which reads "alpha" there, and passes what it made to every compute of that
 * combination, so no call looks an attribute up by name. */
#include "c_sample.h"

#include <hxrt/plugin_vocabulary.h>

#include <stdlib.h>
#include <string.h>

#define LEAKY_RELU "CSample_LeakyRelu"
#define LEAKY_RELU_DEFAULT_ALPHA 0.2

/* Shape inference: one output with the input's dtype and shape. Only the dtypes this plugin
 * has kernels for are accepted, so that an int32 call fails here with the op's own words
 * instead of later with "no kernel". */
static hx_status* infer_leaky_relu(const hx_shape_inference_args* args) {
  const hx_plugin* plugin = (const hx_plugin*)args->user_data;
  const hx_tensor_view* x = &args->inputs[0]; /* the core checked the arity: one input */
  hx_output_spec* y = &args->outputs[0];
  int32_t d;
  if (x->dtype != HX_DTYPE_F32 && x->dtype != HX_DTYPE_F64) {
    return c_sample_status(plugin->services, HX_INVALID_ARGUMENT,
                           "%s: input 0 must be float32 or float64, got %s", LEAKY_RELU,
                           hx_dtype_name(x->dtype));
  }
  y->dtype = x->dtype;
  y->rank = x->rank;
  for (d = 0; d < x->rank; ++d) y->shape[d] = x->shape[d];
  return NULL;
}

/* What create keeps for one combination: alpha, read once. Compute only reads it (one instance
 * serves concurrent calls). */
typedef struct leaky_relu_instance {
  double alpha;
} leaky_relu_instance;

/* "alpha", or its default when the call gives none. attr_float also takes an integer
 * attribute; any other type is the caller's mistake, and INVALID_ARGUMENT from create reaches
 * the caller of the op. */
static hx_status* create_leaky_relu(const hx_kernel_create_args* args,
                                    hx_kernel_instance** out_instance) {
  const hx_core_services* services = ((const hx_plugin*)args->user_data)->services;
  double alpha = LEAKY_RELU_DEFAULT_ALPHA;
  leaky_relu_instance* instance;
  hx_status* status = services->attr_float(args->context, "alpha", &alpha);
  if (status != NULL) {
    hx_status* described;
    if (services->status_code(status) == HX_NOT_FOUND) {
      /* Absent: the op's default. The NOT_FOUND status is cheap, but still ours to free. */
      services->status_destroy(status);
      alpha = LEAKY_RELU_DEFAULT_ALPHA;
    } else {
      /* The core's message names the attribute and its type; add the op. */
      described = c_sample_status(services, services->status_code(status), "%s: %s",
                                  LEAKY_RELU, services->status_message(status));
      services->status_destroy(status);
      return described;
    }
  }
  instance = (leaky_relu_instance*)malloc(sizeof *instance);
  if (instance == NULL) {
    return c_sample_status(services, HX_OUT_OF_MEMORY, "%s: no memory for a kernel instance",
                           LEAKY_RELU);
  }
  instance->alpha = alpha;
  *out_instance = (hx_kernel_instance*)instance;
  return NULL;
}

/* Called once per instance, after its last compute; accepts NULL like every destroy. */
static void destroy_leaky_relu(hx_kernel_instance* instance, void* user_data) {
  (void)user_data;
  free(instance);
}

static int64_t element_count(const hx_tensor_view* tensor) {
  int64_t count = 1;
  int32_t d;
  for (d = 0; d < tensor->rank; ++d) count *= tensor->shape[d];
  return count;
}

/* Where a view's element [0, ..., 0] is: this device's buffer handles are host addresses
 * (HX_MEMORY_HOST), and a tensor starts byte_offset bytes into its buffer. A tensor without
 * elements may have no buffer; it runs no iteration below. */
static void* elements(const hx_tensor_view* view) {
  return view->buffer == NULL ? NULL : (char*)view->buffer + view->byte_offset;
}

/* The kernels. Inputs and outputs are on this plugin's device, dense and row-major (only the
 * inputs of ops that broadcast have other strides), so a flat loop covers every element. The
 * output is allocated by the core with the shape that inference gave. */
static hx_status* leaky_relu_f32(const hx_kernel_args* args) {
  const leaky_relu_instance* instance = (const leaky_relu_instance*)args->instance;
  const float* x = (const float*)elements(&args->inputs[0]);
  float* y = (float*)elements(&args->outputs[0]);
  const int64_t count = element_count(&args->inputs[0]);
  const float alpha = (float)instance->alpha;
  int64_t i;
  for (i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : alpha * x[i];
  return NULL;
}

static hx_status* leaky_relu_f64(const hx_kernel_args* args) {
  const leaky_relu_instance* instance = (const leaky_relu_instance*)args->instance;
  const double* x = (const double*)elements(&args->inputs[0]);
  double* y = (double*)elements(&args->outputs[0]);
  const int64_t count = element_count(&args->inputs[0]);
  const double alpha = instance->alpha;
  int64_t i;
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

/* A kernel runs on the devices of the plugin that registers it: no device type to name. */
static hx_status* register_kernel(hx_plugin* plugin, int32_t dtype, hx_kernel_fn compute) {
  hx_kernel_def def;
  memset(&def, 0, sizeof def);
  def.struct_size = HX_KERNEL_DEF_STRUCT_SIZE;
  def.extensions = NULL;
  def.op = LEAKY_RELU;
  def.dtypes = &dtype; /* borrowed: the core copies it before register_kernel returns */
  def.num_dtypes = 1;
  def.priority = 0;
  def.compute = compute;
  def.user_data = plugin;
  def.create = create_leaky_relu;
  def.check = NULL; /* every shape is fine: nothing to decline per call */
  def.destroy = destroy_leaky_relu;
  return describe_failure(plugin->services, plugin->services->register_kernel(plugin->core, &def),
                          dtype == HX_DTYPE_F32
                              ? "registering the CSample_LeakyRelu float32 kernel"
                              : "registering the CSample_LeakyRelu float64 kernel");
}

hx_status* c_sample_register_leaky_relu(hx_plugin* plugin) {
  hx_op_def op;
  hx_status* status;
  memset(&op, 0, sizeof op);
  op.struct_size = HX_OP_DEF_STRUCT_SIZE;
  op.extensions = NULL;
  op.name = LEAKY_RELU;
  op.min_inputs = 1;
  op.max_inputs = 1;
  op.num_outputs = 1;
  op.infer = infer_leaky_relu;
  op.user_data = plugin;
  op.summary = "x where x > 0, alpha * x elsewhere (float attribute alpha, default 0.2)";
  op.type_input = 0; /* T is the dtype of input 0, x: the dtype each kernel registers for */
  /* The op first: a kernel for an op the core does not know is refused. */
  status = describe_failure(plugin->services, plugin->services->register_op(plugin->core, &op),
                            "registering the CSample_LeakyRelu op");
  if (status == NULL) status = register_kernel(plugin, HX_DTYPE_F32, leaky_relu_f32);
  if (status == NULL) status = register_kernel(plugin, HX_DTYPE_F64, leaky_relu_f64);
  return status;
}
