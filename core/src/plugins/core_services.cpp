// The hx_core_services functions. Each is a C entry point: nothing may escape as an exception.
#include <cctype>
#include <cstring>

#include "plugins/core_handle.hpp"
#include "status.hpp"

namespace hxrt::detail {
namespace {

hx_status* status_create(hx_status_code code, const char* message) {
  try {
    return make_status(code == HX_OK ? HX_INTERNAL : code, message ? message : "");
  } catch (...) {
    return nullptr;  // out of memory while reporting an error: nothing better to return
  }
}

void status_destroy(hx_status* status) { free_status(status); }

hx_status_code status_code(const hx_status* status) {
  return status == nullptr ? HX_OK : status->code;
}

const char* status_message(const hx_status* status) {
  return status == nullptr ? "" : status->message.c_str();
}

void log(hx_core* core, hx_log_level level, const char* message) {
  if (core == nullptr || message == nullptr) return;
  try {
    core->logger->log(static_cast<LogLevel>(level),
                      "plugin '" + core->plugin_name + "': " + message);
  } catch (...) {
  }
}

std::vector<DType> copy_dtypes(const hx_dtype* list, size_t count, const char* field) {
  if (count > 0 && list == nullptr) {
    throw Error(StatusCode::kInvalidArgument, std::string(field) + " is NULL but its count is " +
                                                  std::to_string(count));
  }
  std::vector<DType> dtypes;
  for (size_t i = 0; i < count; ++i) {
    if (list[i] < HX_DTYPE_F32 || list[i] > HX_DTYPE_BOOL) {
      throw Error(StatusCode::kInvalidArgument,
                  std::string(field) + "[" + std::to_string(i) + "] is not a dtype (" +
                      std::to_string(static_cast<int>(list[i])) + ")");
    }
    dtypes.push_back(static_cast<DType>(list[i]));
  }
  return dtypes;
}

bool op_known(const hx_core* core, const std::string& op) {
  if (core->core_ops->find(op) != nullptr) return true;
  for (const OpSchema& schema : core->pending_ops) {
    if (schema.name == op) return true;
  }
  return false;
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

void check_open(const hx_core* core) {
  if (core == nullptr) throw Error(StatusCode::kInvalidArgument, "core handle is NULL");
  if (!core->registration_open) {
    throw Error(StatusCode::kFailedPrecondition,
                "registration is only possible during hx_plugin_init");
  }
}

hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
  return guarded("register_kernel", [&] {
    check_open(core);
    if (def == nullptr || def->struct_size < HX_KERNEL_DEF_STRUCT_SIZE) {
      throw Error(StatusCode::kInvalidArgument,
                  "hx_kernel_def is NULL or its struct_size is below HX_KERNEL_DEF_STRUCT_SIZE");
    }
    if (def->op == nullptr || def->device_type == nullptr || def->compute == nullptr) {
      throw Error(StatusCode::kInvalidArgument, "op, device_type and compute must be set");
    }
    std::string op = def->op;
    if (!op_known(core, op)) {
      throw Error(StatusCode::kInvalidArgument,
                  "unknown op '" + op + "': register it with register_op first, or use a "
                  "core op (see hxrt-info for the list)");
    }
    if (def->num_dtypes == 0) {
      throw Error(StatusCode::kInvalidArgument, "kernel for '" + op + "' lists no dtypes");
    }
    KernelEntry entry;
    entry.op = op;
    entry.device_type = def->device_type;
    entry.dtypes = copy_dtypes(def->dtypes, def->num_dtypes, "dtypes");
    entry.output_dtypes =
        copy_dtypes(def->output_dtypes, def->num_output_dtypes, "output_dtypes");
    entry.priority = def->priority;
    entry.compute = def->compute;
    entry.user_data = def->user_data;
    entry.plugin = core->plugin_name;
    core->accepted_kernels->check_no_tie(entry);
    core->pending_kernels.add(std::move(entry));
  });
}

// Adapts a plugin's C shape-inference function to the core's InferFn.
InferFn wrap_infer(hx_shape_inference_fn infer, void* user_data, std::string op,
                   size_t num_outputs) {
  return [infer, user_data, op, num_outputs](const InferContext& call, TensorMeta* outputs) {
    int64_t strides[Shape::kMaxRank] = {};  // not meaningful in shape inference
    std::vector<hx_tensor_view> views(call.num_inputs);
    for (size_t i = 0; i < call.num_inputs; ++i) {
      const TensorMeta& in = call.inputs[i];
      views[i] = hx_tensor_view{HX_TENSOR_VIEW_STRUCT_SIZE, nullptr, nullptr,
                                static_cast<hx_dtype>(in.dtype), in.shape.rank(),
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
                                 user_data};
    hx_status* status = infer(&args);
    if (status != nullptr) {
      StatusCode code = static_cast<StatusCode>(status->code);
      std::string message = status->message;
      free_status(status);
      throw Error(code, message);
    }
    for (size_t i = 0; i < num_outputs; ++i) {
      const hx_output_spec& spec = specs[i];
      if (spec.dtype < HX_DTYPE_F32 || spec.dtype > HX_DTYPE_BOOL || spec.rank < 0 ||
          spec.rank > Shape::kMaxRank) {
        throw Error(StatusCode::kInternal, op + ": shape inference of the plugin wrote an "
                                                "invalid dtype or rank for output " +
                                                std::to_string(i));
      }
      outputs[i].dtype = static_cast<DType>(spec.dtype);
      outputs[i].shape = Shape(spec.shape, spec.rank);
    }
  };
}

hx_status* register_op(hx_core* core, const hx_op_def* def) {
  return guarded("register_op", [&] {
    check_open(core);
    if (def == nullptr || def->struct_size < HX_OP_DEF_STRUCT_SIZE || def->name == nullptr ||
        def->infer == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "hx_op_def needs struct_size >= HX_OP_DEF_STRUCT_SIZE, a name and infer");
    }
    std::string name = def->name;
    bool well_formed = !name.empty() && name[0] >= 'A' && name[0] <= 'Z';
    for (char c : name) {
      well_formed = well_formed && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    }
    if (!well_formed) {
      throw Error(StatusCode::kInvalidArgument,
                  "op name '" + name + "' must match [A-Z][A-Za-z0-9_]*");
    }
    if (op_known(core, name)) {
      throw Error(StatusCode::kAlreadyExists, "op '" + name + "' already exists");
    }
    if (def->min_inputs < 0 || (def->max_inputs != -1 && def->max_inputs < def->min_inputs) ||
        def->num_outputs < 1) {
      throw Error(StatusCode::kInvalidArgument,
                  "op '" + name + "': need 0 <= min_inputs <= max_inputs (or -1) and "
                  "num_outputs >= 1");
    }
    OpSchema schema;
    schema.name = name;
    schema.min_inputs = def->min_inputs;
    schema.max_inputs = def->max_inputs;
    schema.num_outputs = def->num_outputs;
    schema.infer = wrap_infer(def->infer, def->user_data, name,
                              static_cast<size_t>(def->num_outputs));
    schema.owner = core->plugin_name;
    core->pending_ops.push_back(std::move(schema));
  });
}

// ---- attribute getters ----

template <class T, class Convert>
hx_status* read_attr(const hx_kernel_context* ctx, const char* name, const char* expected,
                     Convert convert) {
  if (ctx == nullptr || name == nullptr) {
    return make_status(HX_INVALID_ARGUMENT, "attribute getter: context or name is NULL");
  }
  const AttrValue* value = ctx->attrs->find(name);
  if (value == nullptr) return attribute_not_set_status();
  if (!convert(*value)) {
    return make_status(HX_INVALID_ARGUMENT, std::string("attribute '") + name + "' must be " +
                                                expected + ", got " + attr_type_name(*value) +
                                                " (" + attr_value_to_string(*value) + ")");
  }
  return nullptr;
}

hx_status* attr_bool(const hx_kernel_context* ctx, const char* name, bool* out) {
  return read_attr<bool>(ctx, name, "a bool", [&](const AttrValue& v) {
    if (const bool* b = std::get_if<bool>(&v)) return *out = *b, true;
    return false;
  });
}

hx_status* attr_int(const hx_kernel_context* ctx, const char* name, int64_t* out) {
  return read_attr<int64_t>(ctx, name, "an int", [&](const AttrValue& v) {
    if (const int64_t* i = std::get_if<int64_t>(&v)) return *out = *i, true;
    return false;
  });
}

hx_status* attr_float(const hx_kernel_context* ctx, const char* name, double* out) {
  return read_attr<double>(ctx, name, "a float", [&](const AttrValue& v) {
    if (const double* d = std::get_if<double>(&v)) return *out = *d, true;
    if (const int64_t* i = std::get_if<int64_t>(&v)) return *out = static_cast<double>(*i), true;
    return false;
  });
}

hx_status* attr_dtype(const hx_kernel_context* ctx, const char* name, hx_dtype* out) {
  return read_attr<hx_dtype>(ctx, name, "a dtype", [&](const AttrValue& v) {
    if (const DType* d = std::get_if<DType>(&v)) return *out = static_cast<hx_dtype>(*d), true;
    return false;
  });
}

hx_status* attr_ints(const hx_kernel_context* ctx, const char* name, const int64_t** out,
                     size_t* count) {
  return read_attr<int64_t>(ctx, name, "a list of ints", [&](const AttrValue& v) {
    if (const auto* list = std::get_if<std::vector<int64_t>>(&v)) {
      *out = list->data();
      *count = list->size();
      return true;
    }
    return false;
  });
}

hx_status* attr_string(const hx_kernel_context* ctx, const char* name, const char** out,
                       size_t* length) {
  return read_attr<std::string>(ctx, name, "a string", [&](const AttrValue& v) {
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
};

}  // namespace

const hx_core_services* core_services() { return &kServices; }

}  // namespace hxrt::detail
