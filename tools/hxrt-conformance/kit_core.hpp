// The core services the kit offers the plugin under test (hx_core_services): statuses, a log
// the checks can read, registrations recorded with what was wrong with them, and attribute
// getters that read the attributes a check gives one kernel call. One KitCore is the hx_core*
// of one init .. shutdown.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/plugin_vocabulary.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include <hxrt/op_info.hpp>
#include <nlohmann/json.hpp>

namespace hxrt_conformance {

// What a plugin call returned, its status already freed.
struct Outcome {
  int32_t code = HX_OK;  // an hx_status_code
  std::string message;
  bool ok() const { return code == HX_OK; }
};

// NumPy's name of a dtype (hx_dtype_name), as a string to build messages with; a value
// outside the enum is named by its number ("dtype 42").
std::string dtype_name(int32_t dtype);
// Every valid dtype, in enum order.
const std::vector<hx_dtype>& all_dtypes();

// The core's description of its op `name` (hxrt::core_ops()), or nullptr for any other name:
// the kit takes its list of ops, and what it knows of each, from the core it is built with.
const hxrt::OpInfo* core_op(const std::string& name);

// One kernel the plugin registered, copied out of its hx_kernel_def.
struct RegisteredKernel {
  std::string op;
  std::vector<hx_dtype> dtypes;
  std::vector<hx_dtype> output_dtypes;  // empty: every dtype
  int32_t priority = 0;
  hx_kernel_fn compute = nullptr;
  void* user_data = nullptr;
  hx_kernel_create_fn create = nullptr;  // NULL: no instances
  hx_kernel_check_fn check = nullptr;    // NULL: accepts every call of its dtypes
  hx_kernel_destroy_fn destroy = nullptr;
  hx_kernel_forget_constants_fn forget_constants = nullptr;  // NULL: keeps nothing under ids
};

// One custom op the plugin registered.
struct RegisteredOp {
  std::string name;
  int32_t min_inputs = 0;
  int32_t max_inputs = 0;  // -1: no upper bound
  int32_t num_outputs = 1;
  hx_shape_inference_fn infer = nullptr;
  void* user_data = nullptr;
  int32_t type_input = 0;  // the input that carries T; -1: the first output's dtype
};

// The attributes of one kernel (or shape-inference) call.
using AttrValue = std::variant<bool, int64_t, double, hx_dtype, std::vector<int64_t>, std::string,
                               std::vector<double>>;
using KernelAttrs = std::map<std::string, AttrValue>;

// The hx_kernel_context* to put in hx_kernel_args for a call with `attrs` (borrowed: `attrs`
// must outlive the call).
hx_kernel_context* kernel_context(const KernelAttrs& attrs);

class KitCore {
 public:
  // `services_size`: the struct_size the services table claims (larger
  // than this header's to play a newer core).
  explicit KitCore(size_t services_size = HX_CORE_SERVICES_STRUCT_SIZE);
  KitCore(const KitCore&) = delete;
  KitCore& operator=(const KitCore&) = delete;

  const hx_core_services* services() const { return &services_.table; }
  hx_core* handle() { return reinterpret_cast<hx_core*>(this); }

  // The options init is given, which the option getters read until close_registration().
  void set_options(const std::string& options_json);
  // Registrations and option reads are accepted until close_registration() (called when init
  // returns).
  void close_registration();

  const std::vector<RegisteredKernel>& kernels() const { return kernels_; }
  const std::vector<RegisteredOp>& ops() const { return ops_; }
  // The op the plugin registered under `name`, or nullptr.
  const RegisteredOp* custom_op(const std::string& name) const;
  // One line per registration the kit refused, saying what was wrong with it.
  const std::vector<std::string>& registration_errors() const { return registration_errors_; }
  // The plugin's log lines, "warning: text".
  std::vector<std::string> log_lines() const;

  // Takes ownership of `status` (made by these services) and frees it.
  static Outcome take(hx_status* status);
  // A status made by these services, for code that stands in for a plugin.
  static hx_status* make_status(int32_t code, const std::string& message);
  // The option `name` while init runs: NULL and *found set, else the status a getter returns.
  hx_status* find_option(const char* name, bool outs_given, const nlohmann::json** found);

 private:
  struct Services {
    hx_core_services table;
    // Room a newer core's table would have, so that services_size may exceed the header's.
    void* newer_fields[8];
  };
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def);
  static hx_status* register_op(hx_core* core, const hx_op_def* def);
  static void log(hx_core* core, int32_t level, const char* message);
  // The option getters (kit_options.cpp), as the core's: plugins/plugin_options.hpp.
  static hx_status* option_bool(hx_core* core, const char* name, bool* out);
  static hx_status* option_int(hx_core* core, const char* name, int64_t* out);
  static hx_status* option_float(hx_core* core, const char* name, double* out);
  static hx_status* option_string(hx_core* core, const char* name, const char** out,
                                  size_t* length);
  static hx_status* option_keys(hx_core* core, const char* const* known, size_t count);
  hx_status* refuse(int32_t code, const std::string& message);

  Services services_;
  bool registration_open_ = true;
  nlohmann::json options_ = nlohmann::json::object();
  std::string options_problem_;  // why the options text is no object; "" when it is one
  std::vector<RegisteredKernel> kernels_;
  std::vector<RegisteredOp> ops_;
  std::vector<std::string> registration_errors_;
  mutable std::mutex log_mutex_;
  std::vector<std::string> log_lines_;
};

}  // namespace hxrt_conformance
