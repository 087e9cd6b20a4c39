// AllGather on one device: the replicas' tensors one after another (the core copies each
// replica's tensor here first), as bytes, for every dtype.
#include <cstring>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

hx_status* all_gather_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const size_t replicas = call.num_inputs();
  const int64_t each = replicas == 0 ? -1 : element_count(call.input(0));
  bool matches = each >= 0 && element_count(out) == each * static_cast<int64_t>(replicas);
  for (size_t i = 0; i < replicas; ++i) {
    matches = matches && call.input(i).dtype == out.dtype && element_count(call.input(i)) == each;
  }
  if (!matches) {
    return call.error(HX_INVALID_ARGUMENT,
                      "AllGather: expected replicas of one dtype and element count, and an "
                      "output of their dtype with their elements all");
  }
  const size_t bytes = static_cast<size_t>(each) * hx_dtype_size(out.dtype);
  char* gathered = output_data<char>(out);
  for (size_t i = 0; i < replicas && bytes != 0; ++i) {
    std::memcpy(gathered + i * bytes, input_data<char>(call.input(i)), bytes);
  }
  return nullptr;
}

}  // namespace hxcpu
