#include "hxplugin/plugin_init.hpp"

#include <hxrt/plugin_vocabulary.h>

#include <iterator>

#include "hxplugin/status.hpp"

namespace hxplugin {
namespace {

// Narrows a registration's list of dtypes to those a core of `core_abi_minor` knows, copying
// them to `kept` (room for every dtype). False when none is left of a list that had some: the
// kernel cannot be registered there. A list longer than `kept` is left for the core to refuse.
bool known_to_core(const int32_t*& dtypes, size_t& count, uint32_t core_abi_minor,
                   int32_t (&kept)[HX_DTYPE_F8E5M2FNUZ]) {
  if (dtypes == nullptr || count == 0 || count > std::size(kept)) return true;
  size_t num_kept = 0;
  for (size_t i = 0; i < count; ++i) {
    if (hx_dtype_abi_minor(dtypes[i]) <= core_abi_minor) kept[num_kept++] = dtypes[i];
  }
  if (num_kept == 0) return false;
  dtypes = kept;
  count = num_kept;
  return true;
}

}  // namespace

hx_status* check_core_abi(const hx_plugin_init_args& args, const char* plugin_name) {
  if (args.core_abi_major == HX_ABI_VERSION_MAJOR) return nullptr;
  return make_status(*args.services, HX_FAILED_PRECONDITION,
                     "plugin '%s' speaks ABI %d.%d, core speaks %u.%u", plugin_name,
                     HX_ABI_VERSION_MAJOR, HX_ABI_VERSION_MINOR, args.core_abi_major,
                     args.core_abi_minor);
}

OptionsText options_text(const hx_plugin_init_args& args) {
  if (args.struct_size < HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length)) {
    return {nullptr, 0};
  }
  return {args.options_json, args.options_json_length};
}

uint32_t intra_op_threads(const hx_plugin_init_args& args) {
  if (args.struct_size < HX_STRUCT_SIZE(hx_plugin_init_args, intra_op_threads)) return 0;
  return args.intra_op_threads;
}

void describe_plugin(hx_plugin_api& api, const char* name, const char* version,
                     const char* device_type, hx_plugin* plugin) {
  api.struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api.abi_major = HX_ABI_VERSION_MAJOR;
  api.abi_minor = HX_ABI_VERSION_MINOR;
  api.name = name;
  api.version = version;
  api.device_type = device_type;
  api.plugin = plugin;
}

hx_status* register_kernel(const hx_core_services& services, hx_core* core,
                           uint32_t core_abi_minor, hx_kernel_def def, const char* owner) {
  int32_t known[HX_DTYPE_F8E5M2FNUZ];
  int32_t known_outputs[HX_DTYPE_F8E5M2FNUZ];
  if (core_abi_minor < HX_ABI_VERSION_MINOR) {
    if (!known_to_core(def.dtypes, def.num_dtypes, core_abi_minor, known) ||
        !known_to_core(def.output_dtypes, def.num_output_dtypes, core_abi_minor,
                       known_outputs)) {
      return nullptr;
    }
  }
  def.struct_size = HX_KERNEL_DEF_STRUCT_SIZE;
  hx_status* status = services.register_kernel(core, &def);
  if (status == nullptr) return nullptr;
  hx_status* described =
      make_status(services, static_cast<hx_status_code>(services.status_code(status)),
                  "registering the %s %s kernel: %s", owner, def.op,
                  services.status_message(status));
  services.status_destroy(status);
  return described;
}

}  // namespace hxplugin
