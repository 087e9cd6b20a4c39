// The core services the kit offers the plugin under test (hx_core_services): statuses, a log
// the checks can read, registrations recorded with what was wrong with them, and attribute
// getters that read the attributes a check gives one kernel call. One KitCore is the hx_core*
// of one init .. shutdown.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace hxrt_conformance {

// What a plugin call returned, its status already freed.
struct Outcome {
  hx_status_code code = HX_OK;
  std::string message;
  bool ok() const { return code == HX_OK; }
};

// "INVALID_ARGUMENT", ...
const char* status_code_name(hx_status_code code);
// "f32", ...; "dtype 42" for a value outside the enum.
std::string dtype_name(hx_dtype dtype);
// Bytes of one element; 0 for a value outside the enum.
size_t dtype_size(hx_dtype dtype);
// Every valid dtype, in enum order.
const std::vector<hx_dtype>& all_dtypes();

// One kernel the plugin registered, copied out of its hx_kernel_def.
struct RegisteredKernel {
  std::string op;
  std::string device_type;
  std::vector<hx_dtype> dtypes;
  std::vector<hx_dtype> output_dtypes;  // empty: every dtype
  int32_t priority = 0;
  hx_kernel_fn compute = nullptr;
  void* user_data = nullptr;
};

// One custom op the plugin registered.
struct RegisteredOp {
  std::string name;
  int32_t min_inputs = 0;
  int32_t max_inputs = 0;  // -1: no upper bound
  int32_t num_outputs = 1;
  hx_shape_inference_fn infer = nullptr;
  void* user_data = nullptr;
};

// The attributes of one kernel (or shape-inference) call.
using AttrValue = std::variant<bool, int64_t, double, hx_dtype, std::vector<int64_t>, std::string>;
using KernelAttrs = std::map<std::string, AttrValue>;

// The hx_kernel_context* to put in hx_kernel_args for a call with `attrs` (borrowed: `attrs`
// must outlive the call).
hx_kernel_context* kernel_context(const KernelAttrs& attrs);

class KitCore {
 public:
  // `core_ops`: the ops the kit knows as core ops (a kernel for any other op needs a
  // register_op first). `services_size`: the struct_size the services table claims (larger
  // than this header's to play a newer core).
  explicit KitCore(size_t services_size = HX_CORE_SERVICES_STRUCT_SIZE);
  KitCore(const KitCore&) = delete;
  KitCore& operator=(const KitCore&) = delete;

  const hx_core_services* services() const { return &services_.table; }
  hx_core* handle() { return reinterpret_cast<hx_core*>(this); }

  // Registrations are accepted until close_registration() (called when init returns).
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
  static hx_status* make_status(hx_status_code code, const std::string& message);

 private:
  struct Services {
    hx_core_services table;
    // Room a newer core's table would have, so that services_size may exceed the header's.
    void* newer_fields[8];
  };
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def);
  static hx_status* register_op(hx_core* core, const hx_op_def* def);
  static void log(hx_core* core, hx_log_level level, const char* message);
  hx_status* refuse(hx_status_code code, const std::string& message);

  Services services_;
  bool registration_open_ = true;
  std::vector<RegisteredKernel> kernels_;
  std::vector<RegisteredOp> ops_;
  std::vector<std::string> registration_errors_;
  mutable std::mutex log_mutex_;
  std::vector<std::string> log_lines_;
};

}  // namespace hxrt_conformance
