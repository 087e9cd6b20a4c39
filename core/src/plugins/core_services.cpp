// The hx_core_services functions. Each is a C entry point: nothing may escape as an exception,
// and nothing a plugin passes may crash the core: pointers are checked, enums are read as
// integers before they are converted, counts and strings are bounded, and text is escaped
// before the core keeps it.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "hxrt/plugin_vocabulary.h"
#include "plugins/core_handle.hpp"
#include "base/plugin_identity.hpp"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_options.hpp"
#include "plugins/plugin_text.hpp"
#include "base/status.hpp"

namespace hxrt::detail {
namespace {

// Never NULL, by the ABI: a plugin returns what it gets, and NULL would read as success.
hx_status* status_create(int32_t value, const char* message) {
  try {
    std::string text = plugin_text(message, kMaxMessageLength);
    if (!hx_status_code_is_error(value)) {
      // Still an error, and one that says what went wrong with it.
      text += " (status_create was given code " + std::to_string(value) +
              ", which is not an hx_status_code error)";
      return make_status(HX_INTERNAL, std::move(text));
    }
    return make_status(static_cast<hx_status_code>(value), std::move(text));
  } catch (...) {
    return out_of_memory_status();  // the only failure of copying a message
  }
}

void status_destroy(hx_status* status) { free_status(status); }

int32_t status_code(const hx_status* status) {
  return status == nullptr ? HX_OK : status->code;
}

const char* status_message(const hx_status* status) {
  return status == nullptr ? "" : status->message.c_str();
}

// A NULL core or message is ignored: there is no one to tell; so is a line logged after the
// plugin's shutdown (the runtime it logged to may be gone). A level outside hx_log_level is
// logged as a warning that says so, rather than dropped.
void log(hx_core* core, int32_t value, const char* message) {
  if (core == nullptr || message == nullptr) return;
  try {
    std::string name;
    std::shared_ptr<Logger> logger;
    {
      std::lock_guard<std::mutex> lock(core->mutex);
      if (core->retired) return;
      name = core->plugin_name;
      logger = core->logger;
    }
    std::string line = "plugin '" + name + "': " + plugin_text(message, kMaxMessageLength);
    LogLevel log_level = static_cast<LogLevel>(value);
    if (value < HX_LOG_DEBUG || value > HX_LOG_ERROR) {
      log_level = LogLevel::kWarning;
      line += " (logged with level " + std::to_string(value) +
              ", which is not an hx_log_level)";
    }
    logger->log(log_level, line);
  } catch (...) {
  }
}

// The dtype a plugin stored, or Error naming `field` when it is none.
DType checked_dtype(int32_t value, const std::string& field) {
  if (!hx_dtype_is_valid(value)) {
    throw Error(StatusCode::kInvalidArgument,
                field + " is " + std::to_string(value) + ", which is not an hx_dtype (" +
                    std::to_string(HX_DTYPE_F32) + " to " +
                    std::to_string(HX_DTYPE_F8E5M2FNUZ) + ")");
  }
  return static_cast<DType>(value);
}

std::vector<DType> copy_dtypes(const int32_t* list, size_t count, const char* field) {
  if (count > 0 && list == nullptr) {
    throw Error(StatusCode::kInvalidArgument, std::string(field) + " is NULL but its count is " +
                                                  std::to_string(count));
  }
  // Every dtype once is the longest list with a meaning; a larger count is garbage, and
  // reading that far would run off the plugin's array.
  if (count > std::size(kAllDTypes)) {
    throw Error(StatusCode::kInvalidArgument,
                std::string(field) + " has " + std::to_string(count) +
                    " entries; there are only " + std::to_string(std::size(kAllDTypes)) +
                    " dtypes, so list each at most once");
  }
  std::vector<DType> dtypes;
  for (size_t i = 0; i < count; ++i) {
    const std::string entry = std::string(field) + "[" + std::to_string(i) + "]";
    const DType dtype = checked_dtype(list[i], entry);
    if (std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end()) {
      throw Error(StatusCode::kInvalidArgument,
                  entry + " is " + dtype_name(dtype) + " again; list each dtype at most once");
    }
    dtypes.push_back(dtype);
  }
  return dtypes;
}

bool op_known(const hx_core* core, const std::string& op) {
  return core->core_ops->find(op) != nullptr || core->pending->ops.find(op) != nullptr;
}

// The NUL-terminated `text` of a registration, refused when it is NULL or longer than
// `max_length` (read no further than that).
std::string registration_text(const char* text, size_t max_length, const char* field) {
  if (text == nullptr) throw Error(StatusCode::kInvalidArgument, std::string(field) + " is NULL");
  std::string read = read_bounded(text, max_length + 1);
  if (read.size() > max_length) {
    throw Error(StatusCode::kInvalidArgument, std::string(field) + " '" +
                                                  plugin_text(text, max_length) +
                                                  "' is longer than " +
                                                  std::to_string(max_length) + " characters");
  }
  return read;
}

// Runs `body`, turning any exception into a status for the plugin.
template <class Body>
hx_status* guarded(const char* what, Body body) {
  try {
    body();
    return nullptr;
  } catch (const Error& e) {
    return make_status(static_cast<hx_status_code>(e.code()), std::string(what) + ": " + e.what());
  } catch (const std::exception& e) {
    return make_status(HX_INTERNAL, std::string(what) + ": " + e.what());
  } catch (...) {
    return make_status(HX_INTERNAL, std::string(what) + ": unknown error");
  }
}

// Locks the plugin's registration state for one registration; refuses one made outside init.
std::unique_lock<std::mutex> open_registration(hx_core* core) {
  if (core == nullptr) throw Error(StatusCode::kInvalidArgument, "core handle is NULL");
  std::unique_lock<std::mutex> lock(core->mutex);
  if (core->retired) {
    throw Error(StatusCode::kFailedPrecondition,
                "plugin '" + core->plugin_name + "' called the core after its shutdown "
                "returned (or after the core refused it); a plugin must stop its threads in "
                "shutdown");
  }
  if (!core->registration_open) {
    throw Error(StatusCode::kFailedPrecondition,
                "plugin '" + core->plugin_name + "' registered after its hx_plugin_init "
                "returned; register ops and kernels only during hx_plugin_init");
  }
  return lock;
}

hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
  return guarded("register_kernel", [&] {
    const auto lock = open_registration(core);
    if (def == nullptr || def->struct_size < HX_KERNEL_DEF_REQUIRED_SIZE) {
      throw Error(StatusCode::kInvalidArgument,
                  "hx_kernel_def is NULL or its struct_size is below 2.0's "
                  "(HX_KERNEL_DEF_REQUIRED_SIZE); set it to HX_KERNEL_DEF_STRUCT_SIZE");
    }
    if (core->pending->kernels.size() >= kMaxKernelsPerPlugin) {
      throw Error(StatusCode::kOutOfRange,
                  "plugin '" + core->plugin_name + "' has registered " +
                      std::to_string(kMaxKernelsPerPlugin) +
                      " kernels, the most one plugin may register; list several dtypes in one "
                      "kernel instead");
    }
    const std::string op = registration_text(def->op, HX_MAX_OP_NAME_LENGTH, "op");
    if (def->compute == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "kernel for '" + printable(op) + "' has no compute function");
    }
    if (def->create != nullptr && def->destroy == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "kernel for '" + printable(op) + "' has create but no destroy; instances "
                  "create makes are freed with destroy, so give both");
    }
    if (!op_known(core, op)) {
      throw Error(StatusCode::kInvalidArgument,
                  "unknown op '" + printable(op) + "': register it with register_op first, or "
                  "use a core op (see hxrt-info for the list)");
    }
    if (def->num_dtypes == 0) {
      throw Error(StatusCode::kInvalidArgument, "kernel for '" + op + "' lists no dtypes");
    }
    KernelEntry entry;
    entry.op = op;
    entry.dtypes = copy_dtypes(def->dtypes, def->num_dtypes, "dtypes");
    entry.output_dtypes =
        copy_dtypes(def->output_dtypes, def->num_output_dtypes, "output_dtypes");
    entry.priority = def->priority;
    entry.compute = def->compute;
    entry.create = def->create;
    entry.check = def->check;
    entry.destroy = def->destroy;
    if (def->struct_size >= HX_KERNEL_DEF_STRUCT_SIZE) {  // else a 2.9 plugin's: none
      entry.forget_constants = def->forget_constants;
    }
    entry.user_data = def->user_data;
    entry.plugin = core->plugin_name;
    core->pending->kernels.add(std::move(entry));
  });
}

// A custom op's InferFn: calls the plugin's C shape-inference function (the schema's
// plugin_infer) and checks what it wrote.
void infer_with_plugin(const InferContext& call, TensorMeta* outputs) {
  const OpSchema& schema = *call.schema;
  const hx_shape_inference_fn infer = schema.plugin_infer;
  const std::string& op = schema.name;
  const size_t num_outputs = static_cast<size_t>(schema.num_outputs);
  int64_t strides[Shape::kMaxRank] = {};  // not meaningful in shape inference
  std::vector<hx_tensor_view> views(call.num_inputs);
  for (size_t i = 0; i < call.num_inputs; ++i) {
    const TensorMeta& in = call.inputs[i];
    views[i] = hx_tensor_view{HX_TENSOR_VIEW_STRUCT_SIZE, nullptr, nullptr, 0,
                              static_cast<int32_t>(in.dtype), in.shape.rank(),
                              in.shape.data(), strides, nullptr};
  }
  hx_kernel_context_s context{&call.attrs};
  std::vector<hx_output_spec> specs(num_outputs);
  for (hx_output_spec& spec : specs) {
    std::memset(&spec, 0, sizeof spec);
    spec.struct_size = HX_OUTPUT_SPEC_STRUCT_SIZE;
  }
  hx_shape_inference_args args{HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE, nullptr, &context,
                               call.num_inputs, views.data(), num_outputs, specs.data(),
                               schema.plugin_infer_data};
  hx_status* status = nullptr;
  try {
    status = infer(&args);
  } catch (...) {
    throw Error(StatusCode::kInternal, op + ": the plugin's shape inference threw a C++ "
                                            "exception across the C ABI (a bug in the plugin)");
  }
  if (status != nullptr) {
    StatusCode code = static_cast<StatusCode>(status->code);
    std::string message = status->message;
    free_status(status);
    throw Error(code, message);
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    const hx_output_spec& spec = specs[i];
    const int32_t dtype = spec.dtype;
    if (!hx_dtype_is_valid(dtype) || spec.rank < 0 ||
        spec.rank > Shape::kMaxRank) {
      throw Error(StatusCode::kInternal,
                  op + ": the plugin's shape inference wrote dtype " + std::to_string(dtype) +
                      " and rank " + std::to_string(spec.rank) + " for output " +
                      std::to_string(i) + "; expected an hx_dtype and a rank from 0 to " +
                      std::to_string(Shape::kMaxRank) + " (a bug in the plugin)");
    }
    outputs[i].dtype = static_cast<DType>(dtype);
    try {
      outputs[i].shape = Shape(spec.shape, spec.rank);
    } catch (const Error& e) {
      throw Error(StatusCode::kInternal, op + ": the plugin's shape inference wrote output " +
                                             std::to_string(i) + " as an invalid shape: " +
                                             e.what() + " (a bug in the plugin)");
    }
  }
}

hx_status* register_op(hx_core* core, const hx_op_def* def) {
  return guarded("register_op", [&] {
    const auto lock = open_registration(core);
    if (def == nullptr || def->struct_size < HX_OP_DEF_STRUCT_SIZE || def->infer == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "hx_op_def needs struct_size >= HX_OP_DEF_STRUCT_SIZE, a name and infer");
    }
    if (core->pending->ops.size() >= kMaxOpsPerPlugin) {
      throw Error(StatusCode::kOutOfRange, "plugin '" + core->plugin_name + "' has registered " +
                                               std::to_string(kMaxOpsPerPlugin) +
                                               " ops, the most one plugin may register");
    }
    const std::string name = registration_text(def->name, HX_MAX_OP_NAME_LENGTH, "op name");
    if (op_known(core, name)) {
      throw Error(StatusCode::kAlreadyExists,
                  "op '" + name + "' already exists; a custom op needs a name of its own");
    }
    OpSchema schema;
    schema.name = name;
    schema.min_inputs = def->min_inputs;
    schema.max_inputs = def->max_inputs;
    schema.num_outputs = def->num_outputs;
    schema.infer = infer_with_plugin;
    schema.plugin_infer = def->infer;
    schema.plugin_infer_data = def->user_data;
    schema.owner = core->plugin_name;
    if (def->summary != nullptr) {
      schema.summary = plugin_text(def->summary, HX_MAX_OP_SUMMARY_LENGTH);
    }
    // -1: an op without inputs, whose T is its first output's dtype. The registry checks that
    // an index names an input every call has; below -1 there is no meaning to check.
    if (def->type_input < -1) {
      throw Error(StatusCode::kInvalidArgument,
                  "op '" + printable(name) + "': type_input is " +
                      std::to_string(def->type_input) +
                      "; expected the index of the input that carries T, or -1 for T from the "
                      "first output");
    }
    if (def->type_input == -1) {
      schema.type_parameter.source = TypeParameter::Source::kOutput;
    } else {
      schema.type_parameter.input = def->type_input;
    }
    core->pending->ops.add(std::move(schema));  // checks the name's form, arity and outputs
  });
}

// ---- attribute getters ----

// `outs_given`: the getter's out pointers are not NULL. A C entry point: the only exception
// making a message can raise is running out of memory, which becomes the shared status.
template <class Convert>
hx_status* read_attr(const hx_kernel_context* ctx, const char* name, bool outs_given,
                     const char* expected, Convert convert) {
  try {
    if (ctx == nullptr || name == nullptr) {
      return make_status(HX_INVALID_ARGUMENT, "attribute getter: context or name is NULL; pass "
                                              "the kernel's context and an attribute name");
    }
    if (!outs_given) {
      return make_status(HX_INVALID_ARGUMENT, "attribute getter for '" + printable(name) +
                                                  "': an out pointer is NULL; pass where the "
                                                  "value goes");
    }
    const AttrValue* value = ctx->attrs->find(name);
    if (value == nullptr) return attribute_not_set_status();
    if (!convert(*value)) {
      return make_status(HX_INVALID_ARGUMENT, "attribute '" + printable(name) + "' must be " +
                                                  expected + ", got " + attr_type_name(*value) +
                                                  " (" + attr_value_to_string(*value) + ")");
    }
    return nullptr;
  } catch (...) {
    return out_of_memory_status();
  }
}

hx_status* attr_bool(const hx_kernel_context* ctx, const char* name, bool* out) {
  return read_attr(ctx, name, out != nullptr, "a bool", [&](const AttrValue& v) {
    if (const bool* b = std::get_if<bool>(&v)) return *out = *b, true;
    return false;
  });
}

hx_status* attr_int(const hx_kernel_context* ctx, const char* name, int64_t* out) {
  return read_attr(ctx, name, out != nullptr, "an int", [&](const AttrValue& v) {
    if (const int64_t* i = std::get_if<int64_t>(&v)) return *out = *i, true;
    return false;
  });
}

hx_status* attr_float(const hx_kernel_context* ctx, const char* name, double* out) {
  return read_attr(ctx, name, out != nullptr, "a float", [&](const AttrValue& v) {
    if (const double* d = std::get_if<double>(&v)) return *out = *d, true;
    if (const int64_t* i = std::get_if<int64_t>(&v)) return *out = static_cast<double>(*i), true;
    return false;
  });
}

hx_status* attr_dtype(const hx_kernel_context* ctx, const char* name, int32_t* out) {
  return read_attr(ctx, name, out != nullptr, "a dtype", [&](const AttrValue& v) {
    if (const DType* d = std::get_if<DType>(&v)) return *out = static_cast<int32_t>(*d), true;
    return false;
  });
}

hx_status* attr_ints(const hx_kernel_context* ctx, const char* name, const int64_t** out,
                     size_t* count) {
  return read_attr(ctx, name, out != nullptr && count != nullptr, "a list of ints",
                   [&](const AttrValue& v) {
                     if (const auto* list = std::get_if<std::vector<int64_t>>(&v)) {
                       *out = list->data();
                       *count = list->size();
                       return true;
                     }
                     return false;
                   });
}

hx_status* attr_floats(const hx_kernel_context* ctx, const char* name, const double** out,
                       size_t* count) {
  return read_attr(ctx, name, out != nullptr && count != nullptr, "a list of floats",
                   [&](const AttrValue& v) {
                     if (const auto* list = std::get_if<std::vector<double>>(&v)) {
                       *out = list->data();
                       *count = list->size();
                       return true;
                     }
                     return false;
                   });
}

hx_status* attr_string(const hx_kernel_context* ctx, const char* name, const char** out,
                       size_t* length) {
  return read_attr(ctx, name, out != nullptr && length != nullptr, "a string",
                   [&](const AttrValue& v) {
                     if (const auto* text = std::get_if<std::string>(&v)) {
                       *out = text->c_str();
                       *length = text->size();
                       return true;
                     }
                     return false;
                   });
}

const hx_core_services kServices = {
    HX_CORE_SERVICES_STRUCT_SIZE,
    nullptr,
    status_create,
    status_destroy,
    status_code,
    status_message,
    log,
    register_kernel,
    register_op,
    attr_bool,
    attr_int,
    attr_float,
    attr_dtype,
    attr_ints,
    attr_string,
    option_bool,
    option_int,
    option_float,
    option_string,
    option_keys,
    attr_floats,
};

}  // namespace

const hx_core_services* core_services() { return &kServices; }

}  // namespace hxrt::detail
