// Gather along one axis on the GPU, for elements of 2, 4 or 8 bytes and int32 or int64 indices.
//
// An index out of range gives 0 in the elements it would have picked, as TensorFlow's GPU
// kernels do, where the CPU plugin fails the call: a device kernel has no way to fail one
// element, and the indices are on the device, where the host would have to wait to read them.
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

template <class E, class Index>
__global__ void gather_axis(const E* __restrict__ data, const Index* __restrict__ indices,
                            E* __restrict__ out, int64_t count, int64_t index_count,
                            int64_t extent, int64_t inner) {
  for (int64_t o = first_index(); o < count; o += index_step()) {
    const int64_t within = o % inner;
    const int64_t line = o / inner;
    const int64_t j = line % index_count;
    const int64_t outer = line / index_count;
    int64_t at = static_cast<int64_t>(indices[j]);
    if (at < 0) at += extent;
    out[o] = at >= 0 && at < extent ? data[(outer * extent + at) * inner + within] : E{0};
  }
}

template <class Visit>
cudaError_t visit_gathered_element(size_t size, Visit&& visit) {
  switch (size) {
    case 2: return visit(TypeTag<uint16_t>{});
    case 4: return visit(TypeTag<uint32_t>{});
    case 8: return visit(TypeTag<uint64_t>{});
    default: return cudaErrorNotSupported;
  }
}

template <class Visit>
cudaError_t visit_index_dtype(int32_t dtype, Visit&& visit) {
  switch (dtype) {
    case HX_DTYPE_I32: return visit(TypeTag<int32_t>{});
    case HX_DTYPE_I64: return visit(TypeTag<int64_t>{});
    default: return cudaErrorNotSupported;
  }
}

}  // namespace

cudaError_t launch_gather_axis(size_t element_size, int32_t index_dtype, const void* data,
                               const void* indices, void* out, int64_t count,
                               int64_t index_count, int64_t extent, int64_t inner,
                               cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (index_count <= 0 || inner <= 0) return cudaErrorInvalidValue;
  return visit_gathered_element(element_size, [&](auto element_tag) {
    using E = typename decltype(element_tag)::type;
    return visit_index_dtype(index_dtype, [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      gather_axis<E, Index><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
          static_cast<const E*>(data), static_cast<const Index*>(indices), static_cast<E*>(out),
          count, index_count, extent, inner);
      return cudaGetLastError();
    });
  });
}

}  // namespace hxcuda::kernels
