#include "kit_core.hpp"

#include <hxrt/op_info.hpp>

#include <algorithm>
#include <cstring>


namespace hxrt_conformance {
namespace {

struct KitStatus {
  int32_t code;
  std::string message;
};

// As the core's: a code that is not an error makes an INTERNAL status saying which it was, so
// that a plugin's mistake is never read as success.
hx_status* status_create(int32_t code, const char* message) {
  if (!hx_status_code_is_error(code)) {
    return reinterpret_cast<hx_status*>(
        new KitStatus{HX_INTERNAL, "status_create was given code " + std::to_string(code) +
                                       " (" + hx_status_code_name(code) +
                                       "), which is not an error code; message: " +
                                       (message ? message : "")});
  }
  return reinterpret_cast<hx_status*>(new KitStatus{code, message ? message : ""});
}
void status_destroy(hx_status* status) { delete reinterpret_cast<KitStatus*>(status); }
int32_t status_code(const hx_status* status) {
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

hx_status* attr_dtype(const hx_kernel_context* context, const char* name, int32_t* out) {
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

hx_status* attr_floats(const hx_kernel_context* context, const char* name, const double** out,
                       size_t* count) {
  const std::vector<double>* value = nullptr;
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

}  // namespace

std::string dtype_name(int32_t dtype) {
  if (hx_dtype_is_valid(dtype)) return hx_dtype_name(dtype);
  return "dtype " + std::to_string(dtype);
}

const hxrt::OpInfo* core_op(const std::string& name) {
  static const std::vector<hxrt::OpInfo> ops = hxrt::core_ops();
  const auto found = std::find_if(ops.begin(), ops.end(),
                                  [&](const hxrt::OpInfo& op) { return op.name == name; });
  return found == ops.end() ? nullptr : &*found;
}

const std::vector<hx_dtype>& all_dtypes() {
  static const std::vector<hx_dtype> dtypes = [] {
    std::vector<hx_dtype> valid;
    for (int32_t dtype = HX_DTYPE_INVALID + 1; hx_dtype_is_valid(dtype); ++dtype) {
      valid.push_back(static_cast<hx_dtype>(dtype));
    }
    return valid;
  }();
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
                     attr_dtype,    attr_ints,  attr_string,   option_bool,
                     option_int,    option_float, option_string, option_keys,
                     attr_floats};
  // A table smaller than this header's plays an older core, whose table ends there: the
  // fields past it are NULL, so that a plugin that reads them without checking struct_size
  // fails its check (a crash, in that section's child process) instead of passing by luck.
  if (services_size < sizeof services_.table) {
    std::memset(reinterpret_cast<char*>(&services_.table) + services_size, 0,
                sizeof services_.table - services_size);
  }
}

void KitCore::set_options(const std::string& options_json) {
  options_ = nlohmann::json::object();
  options_problem_.clear();
  if (options_json.find_first_not_of(" \t\r\n") == std::string::npos) return;
  nlohmann::json parsed = nlohmann::json::parse(options_json, nullptr, false);
  if (parsed.is_object()) {
    options_ = std::move(parsed);
  } else {
    options_problem_ = parsed.is_discarded() ? "not valid JSON" : "expected a JSON object";
  }
}

void KitCore::close_registration() {
  registration_open_ = false;
  options_ = nlohmann::json::object();
}

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

hx_status* KitCore::make_status(int32_t code, const std::string& message) {
  return status_create(code, message.c_str());
}

hx_status* KitCore::refuse(int32_t code, const std::string& message) {
  registration_errors_.push_back(message);
  return status_create(code, message.c_str());
}

void KitCore::log(hx_core* core, int32_t level, const char* message) {
  static const char* const kLevels[] = {"debug", "info", "warning", "error"};
  auto& kit = *reinterpret_cast<KitCore*>(core);
  const char* level_name = (level >= HX_LOG_DEBUG && level <= HX_LOG_ERROR) ? kLevels[level] : "?";
  std::lock_guard<std::mutex> lock(kit.log_mutex_);
  kit.log_lines_.push_back(std::string(level_name) + ": " + (message ? message : ""));
}

// The most dtypes a kernel lists: each valid one once (plugin_api.h).
constexpr size_t kMostDtypes = HX_DTYPE_F8E5M2FNUZ;

hx_status* KitCore::register_kernel(hx_core* core, const hx_kernel_def* def) {
  auto& kit = *reinterpret_cast<KitCore*>(core);
  if (!kit.registration_open_) {
    return kit.refuse(HX_FAILED_PRECONDITION,
                      "register_kernel called after hx_plugin_init returned; register kernels "
                      "during init");
  }
  if (def == nullptr || def->struct_size < HX_KERNEL_DEF_REQUIRED_SIZE) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      "register_kernel: hx_kernel_def is NULL or its struct_size is below "
                      "2.0's (HX_KERNEL_DEF_REQUIRED_SIZE, " +
                          std::to_string(HX_KERNEL_DEF_REQUIRED_SIZE) +
                          "); set struct_size = HX_KERNEL_DEF_STRUCT_SIZE");
  }
  const std::string op =
      def->op ? std::string(def->op, strnlen(def->op, HX_MAX_OP_NAME_LENGTH + 1)) : std::string();
  const std::string what = "register_kernel(op '" + op + "')";
  if (op.empty()) return kit.refuse(HX_INVALID_ARGUMENT, what + ": op is NULL or empty");
  if (op.size() > HX_MAX_OP_NAME_LENGTH) {
    return kit.refuse(HX_INVALID_ARGUMENT, what + ": op is longer than " +
                                               std::to_string(HX_MAX_OP_NAME_LENGTH) + " bytes");
  }
  if (core_op(op) == nullptr && kit.custom_op(op) == nullptr) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": no such op; kernels are for core ops or for ops the plugin "
                             "registered with register_op before its kernels");
  }
  if (def->dtypes == nullptr || def->num_dtypes == 0 || def->num_dtypes > kMostDtypes) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": " + std::to_string(def->num_dtypes) +
                          " dtypes; list 1 to " + std::to_string(kMostDtypes) +
                          ", each at most once");
  }
  if (def->compute == nullptr) return kit.refuse(HX_INVALID_ARGUMENT, what + ": compute is NULL");
  if (def->create != nullptr && def->destroy == nullptr) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": create is set but destroy is NULL, so its instances could never "
                             "be freed; set destroy too");
  }
  if ((def->output_dtypes == nullptr) != (def->num_output_dtypes == 0) ||
      def->num_output_dtypes > kMostDtypes) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": output_dtypes and num_output_dtypes disagree (NULL with 0, or "
                             "1 to " + std::to_string(kMostDtypes) + " dtypes)");
  }
  RegisteredKernel kernel{op,           {},          {},           def->priority, def->compute,
                          def->user_data, def->create, def->check, def->destroy};
  if (def->struct_size >= HX_KERNEL_DEF_STRUCT_SIZE) {  // else a 2.9 plugin's: none
    kernel.forget_constants = def->forget_constants;
  }
  for (size_t i = 0; i < def->num_output_dtypes; ++i) {
    if (!hx_dtype_is_valid(def->output_dtypes[i])) {
      return kit.refuse(HX_INVALID_ARGUMENT,
                        what + ": invalid output " + dtype_name(def->output_dtypes[i]));
    }
    kernel.output_dtypes.push_back(static_cast<hx_dtype>(def->output_dtypes[i]));
  }
  for (size_t i = 0; i < def->num_dtypes; ++i) {
    const int32_t dtype = def->dtypes[i];
    if (!hx_dtype_is_valid(dtype)) {
      return kit.refuse(HX_INVALID_ARGUMENT, what + ": invalid " + dtype_name(dtype));
    }
    if (std::find(kernel.dtypes.begin(), kernel.dtypes.end(), dtype) != kernel.dtypes.end()) {
      return kit.refuse(HX_INVALID_ARGUMENT, what + ": lists " + dtype_name(dtype) + " twice");
    }
    kernel.dtypes.push_back(static_cast<hx_dtype>(dtype));
  }
  for (const RegisteredKernel& other : kit.kernels_) {
    if (other.op != op || other.priority != kernel.priority) continue;
    for (hx_dtype dtype : kernel.dtypes) {
      if (std::find(other.dtypes.begin(), other.dtypes.end(), dtype) != other.dtypes.end()) {
        return kit.refuse(HX_ALREADY_EXISTS,
                          what + ": a kernel for " + dtype_name(dtype) + " at priority " +
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
  const std::string name =
      def->name ? std::string(def->name, strnlen(def->name, HX_MAX_OP_NAME_LENGTH + 1)) : "";
  const std::string what = "register_op('" + name + "')";
  if (!hx_is_op_name(def->name)) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": the name must match [A-Z][A-Za-z0-9_]* in at most " +
                          std::to_string(HX_MAX_OP_NAME_LENGTH) + " bytes");
  }
  if (core_op(name) != nullptr || kit.custom_op(name) != nullptr) {
    return kit.refuse(HX_ALREADY_EXISTS, what + ": an op of that name exists; choose another name");
  }
  if (def->min_inputs < 0 || (def->max_inputs != -1 && def->max_inputs < def->min_inputs) ||
      def->num_outputs < 1 || def->num_outputs > 64) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": arity must be 0 <= min_inputs <= max_inputs (or max_inputs -1) "
                             "and 1 <= num_outputs <= 64");
  }
  if (def->infer == nullptr) return kit.refuse(HX_INVALID_ARGUMENT, what + ": infer is NULL");
  // -1 (T is the first output's dtype) for an op that may be called without inputs.
  const bool type_input_valid = def->type_input == -1
                                    ? def->min_inputs == 0
                                    : def->type_input >= 0 && def->type_input < def->min_inputs;
  if (!type_input_valid) {
    return kit.refuse(HX_INVALID_ARGUMENT,
                      what + ": type_input is " + std::to_string(def->type_input) +
                          "; name an input every call has (0 to min_inputs-1), or -1 for an op "
                          "without inputs");
  }
  if (def->summary != nullptr &&
      strnlen(def->summary, HX_MAX_OP_SUMMARY_LENGTH + 1) > HX_MAX_OP_SUMMARY_LENGTH) {
    return kit.refuse(HX_INVALID_ARGUMENT, what + ": summary is longer than " +
                                               std::to_string(HX_MAX_OP_SUMMARY_LENGTH) +
                                               " bytes");
  }
  kit.ops_.push_back(RegisteredOp{name, def->min_inputs, def->max_inputs, def->num_outputs,
                                  def->infer, def->user_data, def->type_input});
  return nullptr;
}

}  // namespace hxrt_conformance
