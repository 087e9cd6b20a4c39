// Identity of float32: a copy of the input's bytes, on the device.
#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"

namespace hxopencl {

hx_status* identity_compute(const hx_kernel_args* args) {
  return copy_tensor(from_handle(args->device), args->stream, args->inputs[0],
                     args->outputs[0], element_count(args->outputs[0]) * sizeof(float));
}

}  // namespace hxopencl
