// AddN: the element-wise sum of n >= 1 tensors of one shape, in chunks of at most
// kMaxAddNChunk inputs per launch (addn.cu).
#include <algorithm>

#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* addn_kernel(const GpuKernelCall& call) {
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (call.num_inputs() == 0) {
    return call.error(HX_INVALID_ARGUMENT, "AddN: expected at least one input");
  }
  if (hx_status* status = call.expect_elements("AddN", count, out.dtype)) return status;
  for (size_t first = 0; first < call.num_inputs(); first += kMaxAddNChunk) {
    const size_t chunk_size = std::min(kMaxAddNChunk, call.num_inputs() - first);
    const void* chunk[kMaxAddNChunk];
    for (size_t i = 0; i < chunk_size; ++i) chunk[i] = hxplugin::element_address(call.input(first + i));
    if (hx_status* status =
            call.cuda_status(launch_addn_chunk(out.dtype, chunk, chunk_size, first > 0,
                                               hxplugin::element_address(out), count,
                                               call.stream()),
                             "AddN")) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxcuda::kernels
