// AllReduce: the element-wise sum, mean, maximum or minimum of one tensor per replica, all of
// one shape, folded in replica order; the reduction read once, at create.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

enum class Reduction { kSum, kMean, kMax, kMin };

struct AllReduceInstance {
  Reduction reduction;
};

}  // namespace

hx_status* all_reduce_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const SimPlugin*>(args->user_data)->services);
  const char* name = "sum";
  if (hx_status* status = create.attr_string("reduction", &name)) return status;
  Reduction reduction = Reduction::kSum;
  if (std::strcmp(name, "mean") == 0) {
    reduction = Reduction::kMean;
  } else if (std::strcmp(name, "max") == 0) {
    reduction = Reduction::kMax;
  } else if (std::strcmp(name, "min") == 0) {
    reduction = Reduction::kMin;
  } else if (std::strcmp(name, "sum") != 0) {
    return create.error(HX_INVALID_ARGUMENT,
                        "AllReduce: reduction is \"%s\"; expected sum, mean, max or min", name);
  }
  *out_instance = hxplugin::to_instance(new AllReduceInstance{reduction});
  return nullptr;
}

void all_reduce_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<AllReduceInstance>(instance, user_data);
}

hx_status* all_reduce_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("AllReduce")) return status;
  const Reduction reduction = hxplugin::instance_of<AllReduceInstance>(call.instance()).reduction;
  const int64_t count = element_count(call.output(0));
  if (hx_status* status = call.expect_elements("AllReduce", count)) return status;
  float* reduced = call.out(0);
  std::vector<const float*> replicas;
  for (size_t input = 0; input < call.num_inputs(); ++input) replicas.push_back(call.in(input));
  return call.launch(call.modelled_time(), [reduced, replicas, count, reduction] {
    for (int64_t i = 0; i < count; ++i) {
      float value = replicas[0][i];
      for (size_t r = 1; r < replicas.size(); ++r) {
        const float next = replicas[r][i];
        value = reduction == Reduction::kMax   ? std::max(value, next)
                : reduction == Reduction::kMin ? std::min(value, next)
                                               : value + next;
      }
      reduced[i] = reduction == Reduction::kMean
                       ? value / static_cast<float>(replicas.size())
                       : value;
    }
  });
}

}  // namespace hxsim
