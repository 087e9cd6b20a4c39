// Element-by-element copies between a dense tensor and a strided view of another, for any dtype
// by the size of its elements: Transpose, Slice and Expand gather from a view of their input,
// Concat scatters each input into its part of the output.
#include "kernels/device_elements.cuh"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// Calls visit(TypeTag<U>{}) with the unsigned integer type of `size` bytes: a copy moves bits,
// whatever the dtype means by them.
template <class Visit>
cudaError_t visit_element_size(size_t size, Visit&& visit) {
  switch (size) {
    case 1: return visit(TypeTag<uint8_t>{});
    case 2: return visit(TypeTag<uint16_t>{});
    case 4: return visit(TypeTag<uint32_t>{});
    case 8: return visit(TypeTag<uint64_t>{});
    default: return cudaErrorNotSupported;
  }
}

// The offset of the view's `index`-th element (last coordinate fastest).
__device__ int64_t view_offset(int64_t index, const StridedLayout& layout) {
  int64_t offset = layout.start;
  for (int axis = layout.rank - 1; axis >= 0; --axis) {
    offset += (index % layout.shape[axis]) * layout.stride[axis];
    index /= layout.shape[axis];
  }
  return offset;
}

template <class E>
__global__ void gather_strided(StridedLayout layout, const E* __restrict__ in,
                               E* __restrict__ out, int64_t count) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    out[i] = in[view_offset(i, layout)];
  }
}

template <class E>
__global__ void scatter_strided(StridedLayout layout, const E* __restrict__ in,
                                E* __restrict__ out, int64_t count) {
  for (int64_t i = first_index(); i < count; i += index_step()) {
    out[view_offset(i, layout)] = in[i];
  }
}

}  // namespace

cudaError_t launch_gather_strided(size_t element_size, const StridedLayout& layout,
                                  const void* in, void* out, int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_element_size(element_size, [&](auto tag) {
    using E = typename decltype(tag)::type;
    gather_strided<E><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        layout, static_cast<const E*>(in), static_cast<E*>(out), count);
    return cudaGetLastError();
  });
}

cudaError_t launch_scatter_strided(size_t element_size, const StridedLayout& layout,
                                   const void* in, void* out, int64_t count,
                                   cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return visit_element_size(element_size, [&](auto tag) {
    using E = typename decltype(tag)::type;
    scatter_strided<E><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        layout, static_cast<const E*>(in), static_cast<E*>(out), count);
    return cudaGetLastError();
  });
}

}  // namespace hxcuda::kernels
