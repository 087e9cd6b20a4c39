// The kernels the sim plugin implements, and their registration with the core.
#pragma once

#include <hxrt/plugin_api.h>

#include <string>
#include <vector>

namespace hxsim {

struct SimPlugin;

// The ops the plugin has kernels for, in a fixed order; and the same as "MatMul, Add, ...".
std::vector<std::string> implemented_ops();
std::string implemented_op_list();
bool implements_op(const std::string& op);

// Registers the float32 kernel (priority 0) of every op in
// plugin.options.ops. Returns the first failure, its message prefixed by the op it concerned.
hx_status* register_kernels(SimPlugin& plugin);

}  // namespace hxsim
