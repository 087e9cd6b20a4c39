#include "kernels/direct_pool.hpp"

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"

namespace hxcpu {
namespace {

// The odometer of a window's taps or of Y's positions: the next of `index` within `extents`,
// false after the last.
bool next_position(std::vector<int64_t>& index, const std::vector<int64_t>& extents) {
  for (size_t axis = index.size(); axis-- > 0;) {
    if (++index[axis] < extents[axis]) return true;
    index[axis] = 0;
  }
  return false;
}

template <class T>
void pool_planes(const KernelCall& call, const DirectPoolWindow& window) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.output(0);
  const size_t spatial = window.kernel.size();
  const std::vector<int64_t> in(x.shape + 2, x.shape + x.rank);
  const std::vector<int64_t> out(y.shape + 2, y.shape + y.rank);
  int64_t in_count = 1;
  int64_t out_count = 1;
  for (size_t axis = 0; axis < spatial; ++axis) {
    in_count *= in[axis];
    out_count *= out[axis];
  }
  const T* source = input_data<T>(x);
  T* target = output_data<T>(y);
  int64_t* indices = call.num_outputs() == 2 ? output_data<int64_t>(call.output(1)) : nullptr;
  const int64_t planes = x.shape[0] * x.shape[1];
  std::vector<int64_t> at(spatial), tap(spatial), from(spatial);
  for (int64_t plane = 0; plane < planes; ++plane) {
    std::fill(at.begin(), at.end(), 0);
    for (int64_t o = 0; o < out_count; ++o, next_position(at, out)) {
      double best = 0;
      int64_t best_index = -1;
      double sum = 0;
      int64_t inside = 0;
      int64_t padded = 0;
      std::fill(tap.begin(), tap.end(), 0);
      do {
        bool in_x = true;
        bool in_padding = true;
        for (size_t axis = 0; axis < spatial; ++axis) {
          from[axis] = at[axis] * window.strides[axis] - window.pad_begin[axis] +
                       tap[axis] * window.dilations[axis];
          in_x = in_x && from[axis] >= 0 && from[axis] < in[axis];
          in_padding = in_padding && from[axis] >= -window.pad_begin[axis] &&
                       from[axis] < in[axis] + window.pad_end[axis];
        }
        padded += in_padding;
        if (!in_x) continue;
        int64_t position = 0;
        for (size_t axis = 0; axis < spatial; ++axis) position = position * in[axis] + from[axis];
        const double value = convert_element<double>(source[plane * in_count + position]);
        ++inside;
        sum += value;
        if (best_index < 0 || value > best) {
          best = value;
          best_index = position;
          if (window.column_major) {
            best_index = 0;
            for (size_t axis = spatial; axis-- > 0;) {
              best_index = best_index * in[axis] + from[axis];
            }
          }
        }
      } while (next_position(tap, window.kernel));
      const int64_t divisor = window.count_include_pad ? padded : inside;
      target[plane * out_count + o] =
          convert_element<T>(window.average ? sum / static_cast<double>(divisor) : best);
      if (indices != nullptr) indices[plane * out_count + o] = plane * in_count + best_index;
    }
  }
}

}  // namespace

hx_status* direct_pool(const KernelCall& call, const DirectPoolWindow& window, const char* op) {
  switch (call.input(0).dtype) {
    case HX_DTYPE_F32: pool_planes<float>(call, window); return nullptr;
    case HX_DTYPE_F64: pool_planes<double>(call, window); return nullptr;
    case HX_DTYPE_F16: pool_planes<Half>(call, window); return nullptr;
    case HX_DTYPE_BF16: pool_planes<BFloat16>(call, window); return nullptr;
    case HX_DTYPE_I8: pool_planes<int8_t>(call, window); return nullptr;
    case HX_DTYPE_U8: pool_planes<uint8_t>(call, window); return nullptr;
    default:
      return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                        hx_dtype_name(call.input(0).dtype));
  }
}

}  // namespace hxcpu
