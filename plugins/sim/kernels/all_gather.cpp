// AllGather: one tensor per replica, all of one shape, joined along axis 0 in replica order
// (the core copies each replica's tensor to this device first).
#include <cstring>
#include <vector>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {

hx_status* all_gather_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("AllGather")) return status;
  const size_t replicas = call.num_inputs();
  if (replicas == 0) {
    return call.error(HX_INVALID_ARGUMENT, "AllGather: expected at least one input");
  }
  const int64_t each = element_count(call.input(0));
  for (size_t input = 1; input < replicas; ++input) {
    if (element_count(call.input(input)) != each) {
      return call.error(HX_INVALID_ARGUMENT,
                        "AllGather: input %zu has %lld elements, expected %lld", input,
                        static_cast<long long>(element_count(call.input(input))),
                        static_cast<long long>(each));
    }
  }
  // Divided, not multiplied: each * replicas may overflow where the output's count cannot.
  const int64_t gathered = element_count(call.output(0));
  if (gathered % static_cast<int64_t>(replicas) != 0 ||
      gathered / static_cast<int64_t>(replicas) != each) {
    return call.error(HX_INVALID_ARGUMENT,
                      "AllGather: output 0 has %lld elements, expected %zu replicas of %lld",
                      static_cast<long long>(gathered), replicas, static_cast<long long>(each));
  }
  float* out = call.out(0);
  std::vector<const float*> parts;
  for (size_t input = 0; input < replicas; ++input) parts.push_back(call.in(input));
  return call.launch(call.modelled_time(), [out, parts, each] {
    if (each == 0) return;
    const auto size = static_cast<size_t>(each);
    for (size_t r = 0; r < parts.size(); ++r) {
      std::memcpy(out + r * size, parts[r], size * sizeof(float));
    }
  });
}

}  // namespace hxsim
