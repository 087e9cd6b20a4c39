#include "hxplugin/plugin_init.hpp"

#include "hxplugin/status.hpp"

namespace hxplugin {

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

hx_status* register_kernel(const hx_core_services& services, hx_core* core, hx_kernel_def def,
                           const char* owner) {
  def.struct_size = HX_KERNEL_DEF_STRUCT_SIZE;
  hx_status* status = services.register_kernel(core, &def);
  if (status == nullptr) return nullptr;
  hx_status* described =
      make_status(services, static_cast<hx_status_code>(services.status_code(status)), "registering the %s %s kernel: %s",
                  owner, def.op, services.status_message(status));
  services.status_destroy(status);
  return described;
}

}  // namespace hxplugin
