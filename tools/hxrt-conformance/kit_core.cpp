#include "kit_core.hpp"

#include <algorithm>
#include <cstring>
#include <regex>

#include "core_ops.hpp"

namespace hxrt_conformance {
namespace {

struct KitStatus {
  hx_status_code code;
  std::string message;
};

hx_status* status_create(hx_status_code code, const char* message) {
  return reinterpret_cast<hx_status*>(new KitStatus{code, message ? message : ""});
}
void status_destroy(hx_status* status) { delete reinterpret_cast<KitStatus*>(status); }
hx_status_code status_code(const hx_status* status) {
  return status ? reinterpret_cast<const KitStatus*>(status)->code : HX_OK;
}
const char* status_message(const hx_status* status) {
  return status ? reinterpret_cast<const KitStatus*>(status)->message.c_str() : "";
}

const KernelAttrs& attrs_of(const hx_kernel_context* context) {
  return *reinterpret_cast<const KernelAttrs*>(context);
}

// The attribute `name` of type T: NULL and *out set, NOT_FOUND, or INVALID_ARGUMENT.
template <class T>
hx_status* read_attr(const hx_kernel_context* context, const char* name, const T** out) {
  if (context == nullptr || name == nullptr) {
    return status_create(HX_INVALID_ARGUMENT, "attribute getter called without a context or name");
  }
  const KernelAttrs& attrs = attrs_of(context);
  const auto found = attrs.find(name);
  if (found == attrs.end()) {
    return status_create(HX_NOT_FOUND, (std::string("no attribute '") + name + "'").c_str());
  }
  *out = std::get_if<T>(&found->second);
  if (*out == nullptr) {
    return status_create(HX_INVALID_ARGUMENT,
                         (std::string("attribute '") + name + "' has another type").c_str());
  }
  return nullptr;
}

hx_status* attr_bool(const hx_kernel_context* context, const char* name, bool* out) {
  const bool* value = nullptr;
  hx_status* status = read_attr(context, name, &value);
  if (status == nullptr) *out = *value;
  return status;
}

hx_status* attr_int(const hx_kernel_context* context, const char* name, int64_t* out) {
  const int64_t* value = nullptr;
  hx_status* status = read_attr(context, name, &value);
  if (status == nullptr) *out = *value;
  return status;
}

hx_status* attr_float(const hx_kernel_context* context, const char* name, double* out) {
  const double* value = nullptr;
  hx_status* status = read_attr(context, name, &value);
  if (status == nullptr) {
    *out = *value;
    return nullptr;
  }
  const int64_t* integer = nullptr;
  if (status_code(status) == HX_INVALID_ARGUMENT &&
      read_attr(context, name, &integer) == nullptr) {
    status_destroy(status);
    *out = static_cast<double>(*integer);
    return nullptr;
  }
  return status;
}

hx_status* attr_dtype(const hx_kernel_context* context, const char* name, hx_dtype* out) {
  const hx_dtype* value = nullptr;
  hx_status* status = read_attr(context, name, &value);
  if (status == nullptr) *out = *value;
  return status;
}

hx_status* attr_ints(const hx_kernel_context* context, const char* name, const int64_t** out,
                     size_t* count) {
  const std::vector<int64_t>* value = nullptr;
  hx_status* status = read_attr(context, name, &value);
  if (status == nullptr) {
    *out = value->data();
    *count = value->size();
  }
  return status;
}

hx_status* attr_string(const hx_kernel_context* context, const char* name, const char** out,
                       size_t* length) {
  const std::string* value = nullptr;
  hx_status* status = read_attr(context, name, &value);
  if (status == nullptr) {
    *out = value->c_str();
    *length = value->size();
  }
  return status;
}

bool valid_dtype(hx_dtype dtype) { return dtype >= HX_DTYPE_F32 && dtype <= HX_DTYPE_BOOL; }

bool is_core_op(const std::string& name) {
  const std::vector<std::string>& ops = core_ops();
  return std::find(ops.begin(), ops.end(), name) != ops.end();
}

}  // namespace

const char* status_code_name(hx_status_code code) {
  switch (code) {
    case HX_OK: return "OK";
    case HX_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case HX_NOT_FOUND: return "NOT_FOUND";
    case HX_ALREADY_EXISTS: return "ALREADY_EXISTS";
    case HX_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case HX_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case HX_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case HX_UNAVAILABLE: return "UNAVAILABLE";
    case HX_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case HX_INTERNAL: return "INTERNAL";
  }
  return "an unknown status code";
}

std::string dtype_name(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: return "f32";
    case HX_DTYPE_F64: return "f64";
    case HX_DTYPE_F16: return "f16";
    case HX_DTYPE_BF16: return "bf16";
    case HX_DTYPE_I32: return "i32";
    case HX_DTYPE_I64: return "i64";
    case HX_DTYPE_BOOL: return "bool";
    case HX_DTYPE_INVALID: break;
  }
  return "dtype " + std::to_string(static_cast<int>(dtype));
}

size_t dtype_size(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F32: case HX_DTYPE_I32: return 4;
    case HX_DTYPE_F64: case HX_DTYPE_I64: return 8;
    case HX_DTYPE_F16: case HX_DTYPE_BF16: return 2;
    case HX_DTYPE_BOOL: return 1;
    case HX_DTYPE_INVALID: break;
  }
  return 0;
}

const std::vector<hx_dtype>& all_dtypes() {
  static const std::vector<hx_dtype> dtypes = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F16,
                                               HX_DTYPE_BF16, HX_DTYPE_I32, HX_DTYPE_I64,
                                               HX_DTYPE_BOOL};
  return dtypes;
}

hx_kernel_context* kernel_context(const KernelAttrs& attrs) {
  return reinterpret_cast<hx_kernel_context*>(const_cast<KernelAttrs*>(&attrs));
}

KitCore::KitCore(size_t services_size) {
  std::memset(&services_, 0, sizeof services_);
  services_.table = {services_size, nullptr,    status_create, status_destroy,
                     status_code,   status_message, log,       register_kernel,
                     register_op,   attr_bool,  attr_int,      attr_float,
                     attr_dtype,    attr_ints,  attr_string};
}

void KitCore::close_registration() { registration_open_ = false; }

const RegisteredOp* KitCore::custom_op(const std::string& name) const {
  for (const RegisteredOp& op : ops_) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::vector<std::string> KitCore::log_lines() const {
  std::lock_guard<std::mutex> lock(log_mutex_);
  return log_lines_;
}

Outcome KitCore::take(hx_status* status) {
  Outcome outcome{status_code(status), status_message(status)};
  status_destroy(status);
  return outcome;
}

hx_status* KitCore::make_status(hx_status_code code, const std::string& message) {
  return status_create(code, message.c_str());
}

hx_status* KitCore::refuse(hx_status_code code, const std::string& message) {
  registration_errors_.push_back(message);
  return status_create(code, message.c_str());
}

void KitCore::log(hx_core* core, hx_log_level level, const char* message) {
  static const char* const kLevels[] = {"debug", "info", "warning", "error"};
  auto& kit = *reinterpret_cast<KitCore*>(core);
  const char* level_name = (level >= HX_LOG_DEBUG && level <= HX_LOG_ERROR) ? kLevels[level] : "?";
  std::lock_guard<std::mutex> lock(kit.log_mutex_);
  kit.log_lines_.push_back(std::string(level_name) + ": " + (message ? message : ""));
}

hx_status* KitCore::register_kernel(hx_core* core, const hx_kernel_def* def) {
  auto& kit = *reinterpret_cast<KitCore*>(core);
  if (!kit.registration_open_) {
    return kit.refuse(HX_FAILED_PRECONDITION,
                      "register_kernel called after hx_plugin_init returned; register kernels "
                      "during init");
  }
  if (def == nullptr || def->struct_size < HX_KERNEL_DEF_STRUCT_SIZE) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      "register_kernel: hx_kernel_def is NULL or its struct_size is below "
                      "HX_KERNEL_DEF_STRUCT_SIZE (" + std::to_string(HX_KERNEL_DEF_STRUCT_SIZE) +
                          "); set struct_size = HX_KERNEL_DEF_STRUCT_SIZE");
  }
  const std::string op = def->op ? def->op : "";
  const std::string what = "register_kernel(op '" + op + "')";
  if (op.empty()) return kit.refuse(HX_INVALID_ARGUMENT, what + ": op is NULL or empty");
  if (!is_core_op(op) && kit.custom_op(op) == nullptr) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": no such op; kernels are for core ops or for ops the plugin "
                             "registered with register_op before its kernels");
  }
  static const std::regex kDeviceType("[A-Z][A-Z0-9_]*");
  if (def->device_type == nullptr || !std::regex_match(def->device_type, kDeviceType)) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": device_type must match [A-Z][A-Z0-9_]*, got '" +
                          (def->device_type ? def->device_type : "(NULL)") + "'");
  }
  if (def->dtypes == nullptr || def->num_dtypes == 0) {
    return kit.refuse(HX_INVALID_ARGUMENT, what + ": dtypes is empty; list at least one");
  }
  if (def->compute == nullptr) return kit.refuse(HX_INVALID_ARGUMENT, what + ": compute is NULL");
  if (def->output_dtypes == nullptr && def->num_output_dtypes != 0) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": output_dtypes is NULL but num_output_dtypes is not 0");
  }
  RegisteredKernel kernel{op, def->device_type, {}, {}, def->priority, def->compute,
                          def->user_data};
  for (size_t i = 0; i < def->num_dtypes; ++i) kernel.dtypes.push_back(def->dtypes[i]);
  for (size_t i = 0; i < def->num_output_dtypes; ++i) {
    kernel.output_dtypes.push_back(def->output_dtypes[i]);
  }
  for (hx_dtype dtype : kernel.dtypes) {
    if (!valid_dtype(dtype)) return kit.refuse(HX_INVALID_ARGUMENT, what + ": invalid " + dtype_name(dtype));
  }
  for (hx_dtype dtype : kernel.output_dtypes) {
    if (!valid_dtype(dtype)) {
      return kit.refuse(HX_INVALID_ARGUMENT, what + ": invalid output " + dtype_name(dtype));
    }
  }
  for (const RegisteredKernel& other : kit.kernels_) {
    if (other.op != op || other.device_type != kernel.device_type ||
        other.priority != kernel.priority) {
      continue;
    }
    for (hx_dtype dtype : kernel.dtypes) {
      if (std::find(other.dtypes.begin(), other.dtypes.end(), dtype) != other.dtypes.end()) {
        return kit.refuse(HX_ALREADY_EXISTS,
                          what + ": a " + kernel.device_type + " kernel for " +
                              dtype_name(dtype) + " at priority " +
                              std::to_string(kernel.priority) +
                              " is registered already; give one of them another priority");
      }
    }
  }
  kit.kernels_.push_back(std::move(kernel));
  return nullptr;
}

hx_status* KitCore::register_op(hx_core* core, const hx_op_def* def) {
  auto& kit = *reinterpret_cast<KitCore*>(core);
  if (!kit.registration_open_) {
    return kit.refuse(HX_FAILED_PRECONDITION,
                      "register_op called after hx_plugin_init returned; register ops during "
                      "init");
  }
  if (def == nullptr || def->struct_size < HX_OP_DEF_STRUCT_SIZE) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      "register_op: hx_op_def is NULL or its struct_size is below "
                      "HX_OP_DEF_STRUCT_SIZE; set struct_size = HX_OP_DEF_STRUCT_SIZE");
  }
  static const std::regex kOpName("[A-Z][A-Za-z0-9_]*");
  const std::string name = def->name ? def->name : "";
  const std::string what = "register_op('" + name + "')";
  if (!std::regex_match(name, kOpName)) {
    return kit.refuse(HX_INVALID_ARGUMENT, what + ": the name must match [A-Z][A-Za-z0-9_]*");
  }
  if (is_core_op(name) || kit.custom_op(name) != nullptr) {
    return kit.refuse(HX_ALREADY_EXISTS, what + ": an op of that name exists; choose another name");
  }
  if (def->min_inputs < 0 || (def->max_inputs != -1 && def->max_inputs < def->min_inputs) ||
      def->num_outputs < 1) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": arity must be 0 <= min_inputs <= max_inputs (or max_inputs -1) "
                             "and num_outputs >= 1");
  }
  if (def->infer == nullptr) return kit.refuse(HX_INVALID_ARGUMENT, what + ": infer is NULL");
  kit.ops_.push_back(RegisteredOp{name, def->min_inputs, def->max_inputs, def->num_outputs,
                                  def->infer, def->user_data});
  return nullptr;
}

}  // namespace hxrt_conformance
