// Fill: the output (whose shape the core derived from the `shape` attribute) set to `value`,
// read and rounded to float once, at create.
#include <hxplugin/kernel_create.hpp>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

struct FillInstance {
  float element;
};

}  // namespace

hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const SimPlugin*>(args->user_data)->services);
  double value = 0;
  if (hx_status* status = create.required_attr_float("Fill", "value", &value)) return status;
  // Rounds to nearest, and a value beyond float's range becomes infinity (IEEE conversion).
  *out_instance = hxplugin::to_instance(new FillInstance{static_cast<float>(value)});
  return nullptr;
}

void fill_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<FillInstance>(instance, user_data);
}

hx_status* fill_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("Fill")) return status;
  const float element = hxplugin::instance_of<FillInstance>(call.instance()).element;
  const int64_t count = element_count(call.output(0));
  float* data = call.out(0);
  return call.launch(call.modelled_time(), [data, count, element] {
    for (int64_t i = 0; i < count; ++i) data[i] = element;
  });
}

}  // namespace hxsim
