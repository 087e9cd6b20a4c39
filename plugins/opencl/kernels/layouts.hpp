// The host twins of the layout structs kernels/program.cl takes by value: the same fields in
// the same order, with OpenCL's fixed-size types.
#pragma once

#include <CL/cl.h>

#include <hxrt/plugin_api.h>

namespace hxopencl {

// The output's shape and each input's strides in elements, 0 where an input repeats.
struct BinaryLayout {
  cl_long shape[HX_MAX_RANK];
  cl_long a_stride[HX_MAX_RANK];
  cl_long b_stride[HX_MAX_RANK];
  cl_int rank;
  cl_int unused;
};
static_assert(sizeof(BinaryLayout) == 3 * HX_MAX_RANK * sizeof(cl_long) + 2 * sizeof(cl_int),
              "BinaryLayout must match program.cl");

// The kept dimensions (in output order) and the reduced ones, with the input's strides.
struct SumLayout {
  cl_long kept_shape[HX_MAX_RANK];
  cl_long kept_stride[HX_MAX_RANK];
  cl_long reduced_shape[HX_MAX_RANK];
  cl_long reduced_stride[HX_MAX_RANK];
  cl_long reduced_count;
  cl_int kept_rank;
  cl_int reduced_rank;
};
static_assert(sizeof(SumLayout) == 4 * HX_MAX_RANK * sizeof(cl_long) + sizeof(cl_long) +
                                       2 * sizeof(cl_int),
              "SumLayout must match program.cl");

// An output's shape (Concat: an input's) and the strides, in elements, at which the other
// tensor is read or written along each of its dimensions, from `start`.
struct StridedLayout {
  cl_long shape[HX_MAX_RANK];
  cl_long stride[HX_MAX_RANK];
  cl_long start;
  cl_int rank;
  cl_int unused;
};
static_assert(sizeof(StridedLayout) == 2 * HX_MAX_RANK * sizeof(cl_long) + sizeof(cl_long) +
                                           2 * sizeof(cl_int),
              "StridedLayout must match program.cl");

}  // namespace hxopencl
