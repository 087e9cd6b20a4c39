#include "plugins/init_args.hpp"

#include "plugins/core_handle.hpp"
#include "plugins/plugin_options.hpp"

namespace hxrt::detail {

hx_plugin_init_args plugin_init_args(hx_core* core, const std::string& options,
                                     uint32_t intra_op_threads) {
  {
    ParsedOptions parsed = parse_options(options);
    std::lock_guard<std::mutex> lock(core->mutex);
    core->options = std::move(parsed.object);
    core->options_problem = std::move(parsed.problem);
  }
  hx_plugin_init_args args{};
  args.struct_size = HX_PLUGIN_INIT_ARGS_STRUCT_SIZE;
  args.extensions = nullptr;
  args.core_abi_major = HX_ABI_VERSION_MAJOR;
  args.core_abi_minor = HX_ABI_VERSION_MINOR;
  args.services = core_services();
  args.core = core;
  args.options_json = options.c_str();
  args.options_json_length = options.size();
  args.intra_op_threads = intra_op_threads;
  return args;
}

}  // namespace hxrt::detail
