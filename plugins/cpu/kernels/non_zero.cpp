// NonZero: the coordinates of the nonzero elements, counted first so that the output is
// written dense for its actual extents [rank, count] (hx_kernel_args.output_extents).
#include <hxrt/plugin_vocabulary.h>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {
namespace {

// The bits of an element of `dtype` that make it nonzero: every bit but the sign of a float
// (-0.0 is zero), every bit of an integer, bool and the 8-bit floats without a negative zero
// (the *fnuz, whose 0x80 is NaN).
uint64_t value_bits(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F64:
      return ~(uint64_t{1} << 63);
    case HX_DTYPE_F32:
      return 0x7fffffffu;
    case HX_DTYPE_F16:
    case HX_DTYPE_BF16:
      return 0x7fffu;
    case HX_DTYPE_F8E4M3FN:
    case HX_DTYPE_F8E5M2:
      return 0x7fu;
    default:
      return ~uint64_t{0};
  }
}

template <class Bits>
int64_t count_nonzero(const Bits* x, int64_t count, Bits mask) {
  int64_t found = 0;
  for (int64_t i = 0; i < count; ++i) found += (x[i] & mask) != 0;
  return found;
}

// Writes the coordinate of each nonzero element of `x` (of `shape`) into column j of `out`,
// [rows, found], j counting them in row-major order.
template <class Bits>
void write_coordinates(const Bits* x, const hx_tensor_view& in, Bits mask, int64_t found,
                       int64_t* out) {
  const int rank = in.rank;
  const int64_t count = element_count(in);
  int64_t at[HX_MAX_RANK] = {};
  int64_t column = 0;
  for (int64_t i = 0; i < count; ++i) {
    if ((x[i] & mask) != 0) {
      for (int d = 0; d < rank; ++d) out[d * found + column] = at[d];
      if (rank == 0) out[column] = 0;
      ++column;
    }
    for (int d = rank; d-- > 0;) {  // the next row-major coordinate
      if (++at[d] < in.shape[d]) break;
      at[d] = 0;
    }
  }
}

template <class Bits>
void non_zero(const hx_tensor_view& in, const hx_tensor_view& out, int64_t* extents) {
  const Bits* x = input_data<Bits>(in);
  const auto mask = static_cast<Bits>(value_bits(in.dtype));
  const int64_t found = count_nonzero(x, element_count(in), mask);
  write_coordinates(x, in, mask, found, output_data<int64_t>(out));
  extents[1] = found;
}

}  // namespace

hx_status* non_zero_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  if (args->struct_size < HX_STRUCT_SIZE(hx_kernel_args, output_extents) ||
      args->output_extents == nullptr) {
    return call.error(HX_INVALID_ARGUMENT,
                      "NonZero: the core passed no output_extents; it needs a core of ABI 2.8 "
                      "or later, which reads the count of nonzero elements back");
  }
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t rows = in.rank == 0 ? 1 : in.rank;
  if (out.dtype != HX_DTYPE_I64 || out.rank != 2 || out.shape[0] != rows ||
      out.shape[1] != element_count(in)) {
    return call.error(HX_INVALID_ARGUMENT, "NonZero: the output is not int64 [%lld, %lld]",
                      static_cast<long long>(rows), static_cast<long long>(element_count(in)));
  }
  switch (hx_dtype_size(in.dtype)) {
    case 1:
      non_zero<uint8_t>(in, out, args->output_extents);
      break;
    case 2:
      non_zero<uint16_t>(in, out, args->output_extents);
      break;
    case 4:
      non_zero<uint32_t>(in, out, args->output_extents);
      break;
    default:
      non_zero<uint64_t>(in, out, args->output_extents);
      break;
  }
  return nullptr;
}

}  // namespace hxcpu
