// The OpenCL plugin's kernels, in OpenCL C 1.2: one program, built once per device.
//
// Tensors arrive as (buffer, offset in elements): the core places tensors inside large buffers
// at byte offsets, and an offset argument costs nothing per call where a sub-buffer would be an
// object created and released per call (and would need the device's base-address alignment).
// Layout structs are passed by value; their host twins are in kernels/layouts.hpp and must
// keep the same fields in the same order.

#define HXCL_MAX_RANK 8

// ---- element-wise binary ops, with NumPy broadcasting as stride-0 dimensions ----

// The output's shape and each input's strides in elements (0 where the input repeats), after
// the host merged the dimensions it could (dense operands become rank 1).
typedef struct {
  long shape[HXCL_MAX_RANK];
  long a_stride[HXCL_MAX_RANK];
  long b_stride[HXCL_MAX_RANK];
  int rank;
  int unused;
} BinaryLayout;

#define HXCL_BINARY_KERNEL(name, expression)                                               \
  __kernel void name(__global const float* a, ulong a_offset, __global const float* b,     \
                     ulong b_offset, __global float* out, ulong out_offset,                \
                     BinaryLayout layout) {                                                \
    const long index = get_global_id(0);                                                   \
    long rest = index;                                                                     \
    long a_index = 0;                                                                      \
    long b_index = 0;                                                                      \
    for (int axis = layout.rank - 1; axis >= 0; --axis) {                                  \
      const long coordinate = rest % layout.shape[axis];                                   \
      rest /= layout.shape[axis];                                                          \
      a_index += coordinate * layout.a_stride[axis];                                       \
      b_index += coordinate * layout.b_stride[axis];                                       \
    }                                                                                      \
    const float x = a[a_offset + a_index];                                                 \
    const float y = b[b_offset + b_index];                                                 \
    out[out_offset + index] = (expression);                                                \
  }

HXCL_BINARY_KERNEL(add_f32, x + y)
HXCL_BINARY_KERNEL(sub_f32, x - y)
HXCL_BINARY_KERNEL(mul_f32, x * y)
HXCL_BINARY_KERNEL(div_f32, x / y)

// ---- unary and n-ary element-wise ops on dense tensors ----

// `x < 0` is false for NaN, so NaN passes through (as on the CPU plugin).
__kernel void relu_f32(__global const float* in, ulong in_offset, __global float* out,
                       ulong out_offset) {
  const size_t index = get_global_id(0);
  const float x = in[in_offset + index];
  out[out_offset + index] = x < 0.0f ? 0.0f : x;
}

// AddN adds its inputs one at a time into the output, which starts as a copy of input 0, so
// the sums round in the order the inputs are given.
__kernel void accumulate_f32(__global const float* in, ulong in_offset, __global float* out,
                             ulong out_offset) {
  const size_t index = get_global_id(0);
  out[out_offset + index] += in[in_offset + index];
}

// ---- Sum over a set of axes ----

// The kept dimensions (the output's, in order) and the reduced ones, each with the input's
// strides in elements.
typedef struct {
  long kept_shape[HXCL_MAX_RANK];
  long kept_stride[HXCL_MAX_RANK];
  long reduced_shape[HXCL_MAX_RANK];
  long reduced_stride[HXCL_MAX_RANK];
  long reduced_count;
  int kept_rank;
  int reduced_rank;
} SumLayout;

// One work-item per output element, walking every input element that adds into it.
__kernel void sum_f32(__global const float* in, ulong in_offset, __global float* out,
                      ulong out_offset, SumLayout layout) {
  const long index = get_global_id(0);
  long rest = index;
  long base = 0;
  for (int axis = layout.kept_rank - 1; axis >= 0; --axis) {
    base += (rest % layout.kept_shape[axis]) * layout.kept_stride[axis];
    rest /= layout.kept_shape[axis];
  }
  float sum = 0.0f;
  for (long step = 0; step < layout.reduced_count; ++step) {
    long reduced_rest = step;
    long offset = base;
    for (int axis = layout.reduced_rank - 1; axis >= 0; --axis) {
      offset += (reduced_rest % layout.reduced_shape[axis]) * layout.reduced_stride[axis];
      reduced_rest /= layout.reduced_shape[axis];
    }
    sum += in[in_offset + offset];
  }
  out[out_offset + index] = sum;
}

// ---- Cast from float32, with the CPU plugin's rules ----

// Integers: truncation toward zero, saturating, NaN to 0 (OpenCL's _sat_rtz conversions).
__kernel void cast_f32_to_i32(__global const float* in, ulong in_offset, __global int* out,
                              ulong out_offset) {
  const size_t index = get_global_id(0);
  out[out_offset + index] = convert_int_sat_rtz(in[in_offset + index]);
}

__kernel void cast_f32_to_i64(__global const float* in, ulong in_offset, __global long* out,
                              ulong out_offset) {
  const size_t index = get_global_id(0);
  out[out_offset + index] = convert_long_sat_rtz(in[in_offset + index]);
}

// bool is one byte, 1 for every value but zero (NaN included).
__kernel void cast_f32_to_bool(__global const float* in, ulong in_offset, __global uchar* out,
                               ulong out_offset) {
  const size_t index = get_global_id(0);
  out[out_offset + index] = in[in_offset + index] != 0.0f ? 1 : 0;
}

// float16 rounds to nearest even; vstore_half is core OpenCL 1.2, no cl_khr_fp16 needed.
__kernel void cast_f32_to_f16(__global const float* in, ulong in_offset, __global half* out,
                              ulong out_offset) {
  const size_t index = get_global_id(0);
  vstore_half_rte(in[in_offset + index], out_offset + index, out);
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void cast_f32_to_f64(__global const float* in, ulong in_offset, __global double* out,
                              ulong out_offset) {
  const size_t index = get_global_id(0);
  out[out_offset + index] = (double)in[in_offset + index];
}
#endif

// ---- MatMul: c[m, n] = op(a) x op(b), tiled through local memory ----

#define HXCL_TILE 16

// op(a)[row, inner] and op(b)[inner, column] for each transpose; lda and ldb are the stored
// matrices' row lengths.
#define HXCL_A_PLAIN(row, inner) a[(row) * lda + (inner)]
#define HXCL_A_TRANSPOSED(row, inner) a[(inner) * lda + (row)]
#define HXCL_B_PLAIN(inner, column) b[(inner) * ldb + (column)]
#define HXCL_B_TRANSPOSED(inner, column) b[(column) * ldb + (inner)]

// Work-groups of HXCL_TILE x HXCL_TILE items, one output element each; dimension 0 runs
// along the columns. Items outside the output load zeros and store nothing.
#define HXCL_MATMUL_KERNEL(name, A_AT, B_AT)                                                 \
  __kernel __attribute__((reqd_work_group_size(HXCL_TILE, HXCL_TILE, 1))) void name(       \
      __global const float* a, ulong a_offset, __global const float* b, ulong b_offset,    \
      __global float* c, ulong c_offset, long m, long n, long k, long lda, long ldb) {     \
    __local float a_tile[HXCL_TILE][HXCL_TILE];                                            \
    __local float b_tile[HXCL_TILE][HXCL_TILE];                                            \
    const int local_column = get_local_id(0);                                              \
    const int local_row = get_local_id(1);                                                 \
    const long column = get_global_id(0);                                                 \
    const long row = get_global_id(1);                                                     \
    a += a_offset;                                                                         \
    b += b_offset;                                                                         \
    float sum = 0.0f;                                                                      \
    for (long start = 0; start < k; start += HXCL_TILE) {                                  \
      const long a_inner = start + local_column;                                           \
      const long b_inner = start + local_row;                                              \
      a_tile[local_row][local_column] =                                                    \
          row < m && a_inner < k ? A_AT(row, a_inner) : 0.0f;                              \
      b_tile[local_row][local_column] =                                                    \
          b_inner < k && column < n ? B_AT(b_inner, column) : 0.0f;                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                                        \
      for (int inner = 0; inner < HXCL_TILE; ++inner) {                                    \
        sum += a_tile[local_row][inner] * b_tile[inner][local_column];                     \
      }                                                                                    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                        \
    }                                                                                      \
    if (row < m && column < n) c[c_offset + row * n + column] = sum;                       \
  }

HXCL_MATMUL_KERNEL(matmul_f32, HXCL_A_PLAIN, HXCL_B_PLAIN)
HXCL_MATMUL_KERNEL(matmul_f32_bt, HXCL_A_PLAIN, HXCL_B_TRANSPOSED)
HXCL_MATMUL_KERNEL(matmul_f32_at, HXCL_A_TRANSPOSED, HXCL_B_PLAIN)
HXCL_MATMUL_KERNEL(matmul_f32_at_bt, HXCL_A_TRANSPOSED, HXCL_B_TRANSPOSED)
