#include "kernels/strided_copy.hpp"

#include <cstring>

#include "kernels/element_types.hpp"

namespace hxcpu {
namespace {

// The view with extent-1 axes dropped and each axis merged into the next where the two walk
// memory as one, so that the inner loop runs as long as it can (a whole dense run is one
// memcpy).
StridedView simplified(const StridedView& view) {
  StridedView plain;
  for (int axis = 0; axis < view.rank; ++axis) {
    if (view.shape[axis] == 1) continue;
    const int last = plain.rank - 1;
    if (last >= 0 && plain.strides[last] == view.strides[axis] * view.shape[axis]) {
      plain.shape[last] *= view.shape[axis];
      plain.strides[last] = view.strides[axis];
    } else {
      plain.push(view.shape[axis], view.strides[axis]);
    }
  }
  return plain;
}

template <class Element>
void copy_rows(const Element* source, const StridedView& view, Element* target) {
  if (view.rank == 0) {
    *target = *source;
    return;
  }
  const int inner = view.rank - 1;
  const int64_t length = view.shape[inner];
  const int64_t step = view.strides[inner];
  int64_t rows = 1;
  for (int axis = 0; axis < inner; ++axis) rows *= view.shape[axis];
  int64_t index[kMaxViewRank] = {};
  int64_t offset = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const Element* from = source + offset;
    if (step == 1) {
      std::memcpy(target, from, static_cast<size_t>(length) * sizeof(Element));
    } else {
      for (int64_t i = 0; i < length; ++i) target[i] = from[i * step];
    }
    target += length;
    for (int axis = inner - 1; axis >= 0; --axis) {  // the next row's offset
      offset += view.strides[axis];
      if (++index[axis] < view.shape[axis]) break;
      offset -= view.strides[axis] * view.shape[axis];
      index[axis] = 0;
    }
  }
}

}  // namespace

void copy_view(const void* source, const StridedView& view, void* target, size_t element_size) {
  for (int axis = 0; axis < view.rank; ++axis) {
    if (view.shape[axis] == 0) return;
  }
  const StridedView plain = simplified(view);
  switch (element_size) {
    case 1:
      copy_rows(static_cast<const uint8_t*>(source), plain, static_cast<uint8_t*>(target));
      break;
    case 2:
      copy_rows(static_cast<const uint16_t*>(source), plain, static_cast<uint16_t*>(target));
      break;
    case 4:
      copy_rows(static_cast<const uint32_t*>(source), plain, static_cast<uint32_t*>(target));
      break;
    default:
      copy_rows(static_cast<const uint64_t*>(source), plain, static_cast<uint64_t*>(target));
      break;
  }
}

hx_status* write_view(const KernelCall& call, const char* op, const StridedView& view,
                      int64_t first, size_t output) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(output);
  int64_t count = 1;
  for (int axis = 0; axis < view.rank; ++axis) count *= view.shape[axis];
  if (in.dtype != out.dtype || count != element_count(out)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: input is %s and output %s with %lld elements, but the op reads %lld "
                      "elements of the input",
                      op, hx_dtype_name(in.dtype), hx_dtype_name(out.dtype),
                      static_cast<long long>(element_count(out)), static_cast<long long>(count));
  }
  const size_t element_size = hx_dtype_size(in.dtype);
  const char* source = input_data<char>(in);
  if (count != 0) {
    copy_view(source + first * static_cast<int64_t>(element_size), view, output_data<void>(out),
              element_size);
  }
  return nullptr;
}

}  // namespace hxcpu
