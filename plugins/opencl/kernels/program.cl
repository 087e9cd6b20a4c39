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

// Where output element `index` reads each input, by the layout's strides.
inline void binary_offsets(const BinaryLayout* layout, long index, long* a_index,
                           long* b_index) {
  long rest = index;
  *a_index = 0;
  *b_index = 0;
  for (int axis = layout->rank - 1; axis >= 0; --axis) {
    const long coordinate = rest % layout->shape[axis];
    rest /= layout->shape[axis];
    *a_index += coordinate * layout->a_stride[axis];
    *b_index += coordinate * layout->b_stride[axis];
  }
}

// A kernel of `expression` of x (from a) and y (from b), its output `out_type`.
#define HXCL_BROADCAST_KERNEL(name, out_type, expression)                                   \
  __kernel void name(__global const float* a, ulong a_offset, __global const float* b,     \
                     ulong b_offset, __global out_type* out, ulong out_offset,             \
                     BinaryLayout layout) {                                                \
    const long index = get_global_id(0);                                                   \
    long a_index, b_index;                                                                 \
    binary_offsets(&layout, index, &a_index, &b_index);                                    \
    const float x = a[a_offset + a_index];                                                 \
    const float y = b[b_offset + b_index];                                                 \
    out[out_offset + index] = (expression);                                                \
  }
#define HXCL_BINARY_KERNEL(name, expression) HXCL_BROADCAST_KERNEL(name, float, expression)

HXCL_BINARY_KERNEL(add_f32, x + y)
HXCL_BINARY_KERNEL(sub_f32, x - y)
HXCL_BINARY_KERNEL(mul_f32, x * y)
HXCL_BINARY_KERNEL(div_f32, x / y)

// Comparisons: float32 inputs, bool (one byte, 0 or 1) out.
#define HXCL_COMPARE_KERNEL(name, expression) \
  HXCL_BROADCAST_KERNEL(name, uchar, (expression) ? 1 : 0)

// Min and Max propagate NaN, as the CPU plugin's do (fmin and fmax would drop it).
HXCL_BINARY_KERNEL(pow_f32, pow(x, y))
HXCL_BINARY_KERNEL(min_f32, isnan(x) || isnan(y) ? NAN : fmin(x, y))
HXCL_BINARY_KERNEL(max_f32, isnan(x) || isnan(y) ? NAN : fmax(x, y))
HXCL_COMPARE_KERNEL(equal_f32, x == y)
HXCL_COMPARE_KERNEL(less_f32, x < y)
HXCL_COMPARE_KERNEL(greater_f32, x > y)
HXCL_COMPARE_KERNEL(less_or_equal_f32, x <= y)
HXCL_COMPARE_KERNEL(greater_or_equal_f32, x >= y)

// ---- unary and n-ary element-wise ops on dense tensors ----

// One element each; `alpha` and `beta` are the op's attributes where it has them (LeakyRelu's
// slope, HardSigmoid's alpha and beta), unused otherwise.
#define HXCL_UNARY_KERNEL(name, expression)                                                \
  __kernel void name(__global const float* in, ulong in_offset, __global float* out,       \
                     ulong out_offset, float alpha, float beta) {                          \
    const size_t index = get_global_id(0);                                                 \
    const float x = in[in_offset + index];                                                 \
    out[out_offset + index] = (expression);                                                \
  }

HXCL_UNARY_KERNEL(exp_f32, exp(x))
HXCL_UNARY_KERNEL(log_f32, log(x))
HXCL_UNARY_KERNEL(sqrt_f32, sqrt(x))
HXCL_UNARY_KERNEL(neg_f32, -x)
HXCL_UNARY_KERNEL(abs_f32, fabs(x))
HXCL_UNARY_KERNEL(reciprocal_f32, 1.0f / x)
HXCL_UNARY_KERNEL(erf_f32, erf(x))
HXCL_UNARY_KERNEL(tanh_f32, tanh(x))
HXCL_UNARY_KERNEL(sigmoid_f32, 1.0f / (1.0f + exp(-x)))
HXCL_UNARY_KERNEL(floor_f32, floor(x))
HXCL_UNARY_KERNEL(ceil_f32, ceil(x))
// ONNX's Round: halves to even, which rint does in the default rounding mode.
HXCL_UNARY_KERNEL(round_f32, rint(x))
HXCL_UNARY_KERNEL(sign_f32, isnan(x) ? x : (float)((x > 0.0f) - (x < 0.0f)))
HXCL_UNARY_KERNEL(leaky_relu_f32, x >= 0.0f ? x : alpha * x)
// By comparisons, which NaN fails, so that it stays NaN (fmin and fmax would drop it).
inline float hxcl_clamp01(float y) { return y < 0.0f ? 0.0f : y > 1.0f ? 1.0f : y; }
HXCL_UNARY_KERNEL(hard_sigmoid_f32, hxcl_clamp01(alpha * x + beta))
HXCL_UNARY_KERNEL(hard_swish_f32, x * hxcl_clamp01(x / 6.0f + 0.5f))
HXCL_UNARY_KERNEL(gelu_f32, 0.5f * x * (1.0f + erf(x * 0.70710678118654752f)))
HXCL_UNARY_KERNEL(gelu_tanh_f32,
                  0.5f * x * (1.0f + tanh(0.79788456080286536f * (x + 0.044715f * x * x * x))))

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

// ---- reductions over a set of axes: the layout (kernels below, HXCL_REDUCE_KERNEL) ----

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
// along the columns, dimension 2 along a stack's products (each operand `*_step` elements
// after the one before). Items outside the output load zeros and store nothing. Gemm's
// alpha scales the product and beta times its C (read at bias_row and bias_column strides,
// 0 where C repeats) is added; MatMul's alpha is 1 and it has no C.
#define HXCL_MATMUL_KERNEL(name, A_AT, B_AT)                                                 \
  __kernel __attribute__((reqd_work_group_size(HXCL_TILE, HXCL_TILE, 1))) void name(       \
      __global const float* a, ulong a_offset, __global const float* b, ulong b_offset,    \
      __global float* c, ulong c_offset, long m, long n, long k, long lda, long ldb,       \
      long a_step, long b_step, long c_step, float alpha, __global const float* bias,      \
      ulong bias_offset, long bias_row, long bias_column, float beta, int has_bias) {       \
    __local float a_tile[HXCL_TILE][HXCL_TILE];                                            \
    __local float b_tile[HXCL_TILE][HXCL_TILE];                                            \
    const int local_column = get_local_id(0);                                              \
    const int local_row = get_local_id(1);                                                 \
    const long column = get_global_id(0);                                                 \
    const long row = get_global_id(1);                                                     \
    const long product = get_global_id(2);                                                 \
    a += a_offset + product * a_step;                                                      \
    b += b_offset + product * b_step;                                                      \
    c += c_offset + product * c_step;                                                      \
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
    if (row < m && column < n) {                                                           \
      c[row * n + column] =                                                                \
          alpha * sum +                                                                    \
          (has_bias ? beta * bias[bias_offset + row * bias_row + column * bias_column] : 0.0f); \
    }                                                                                      \
  }

HXCL_MATMUL_KERNEL(matmul_f32, HXCL_A_PLAIN, HXCL_B_PLAIN)
HXCL_MATMUL_KERNEL(matmul_f32_bt, HXCL_A_PLAIN, HXCL_B_TRANSPOSED)
HXCL_MATMUL_KERNEL(matmul_f32_at, HXCL_A_TRANSPOSED, HXCL_B_PLAIN)
HXCL_MATMUL_KERNEL(matmul_f32_at_bt, HXCL_A_TRANSPOSED, HXCL_B_TRANSPOSED)

// ---- Softmax and LogSoftmax along one axis ----

// One work-item per (outer, inner) position, walking the axis at stride `inner`: the largest
// element first, so that exp never overflows.
#define HXCL_SOFTMAX_KERNEL(name, LOG)                                                     \
  __kernel void name(__global const float* in, ulong in_offset, __global float* out,       \
                     ulong out_offset, long extent, long inner) {                          \
    const long index = get_global_id(0);                                                   \
    const long base = (index / inner) * extent * inner + index % inner;                    \
    in += in_offset + base;                                                                \
    out += out_offset + base;                                                              \
    float largest = -INFINITY;                                                             \
    for (long i = 0; i < extent; ++i) largest = fmax(largest, in[i * inner]);              \
    float sum = 0.0f;                                                                      \
    for (long i = 0; i < extent; ++i) sum += exp(in[i * inner] - largest);                 \
    if (LOG) {                                                                             \
      const float shift = largest + log(sum);                                              \
      for (long i = 0; i < extent; ++i) out[i * inner] = in[i * inner] - shift;            \
    } else {                                                                               \
      for (long i = 0; i < extent; ++i) out[i * inner] = exp(in[i * inner] - largest) / sum; \
    }                                                                                      \
  }

HXCL_SOFTMAX_KERNEL(softmax_f32, 0)
HXCL_SOFTMAX_KERNEL(log_softmax_f32, 1)

// ---- reductions over a set of axes (SumLayout, as Sum) ----

#define HXCL_REDUCE_KERNEL(name, START, ACCUMULATE, FINISH)                                \
  __kernel void name(__global const float* in, ulong in_offset, __global float* out,       \
                     ulong out_offset, SumLayout layout) {                                 \
    const long index = get_global_id(0);                                                   \
    long rest = index;                                                                     \
    long base = 0;                                                                         \
    for (int axis = layout.kept_rank - 1; axis >= 0; --axis) {                             \
      base += (rest % layout.kept_shape[axis]) * layout.kept_stride[axis];                 \
      rest /= layout.kept_shape[axis];                                                     \
    }                                                                                      \
    float value = START;                                                                   \
    for (long step = 0; step < layout.reduced_count; ++step) {                             \
      long reduced_rest = step;                                                            \
      long offset = base;                                                                  \
      for (int axis = layout.reduced_rank - 1; axis >= 0; --axis) {                        \
        offset += (reduced_rest % layout.reduced_shape[axis]) * layout.reduced_stride[axis]; \
        reduced_rest /= layout.reduced_shape[axis];                                        \
      }                                                                                    \
      const float x = in[in_offset + offset];                                              \
      value = ACCUMULATE;                                                                  \
    }                                                                                      \
    out[out_offset + index] = FINISH;                                                      \
  }

// Max and Min of nothing are -inf and +inf, and NaN wins, as on the CPU plugin.
HXCL_REDUCE_KERNEL(reduce_sum_f32, 0.0f, value + x, value)
HXCL_REDUCE_KERNEL(reduce_mean_f32, 0.0f, value + x, value / (float)layout.reduced_count)
HXCL_REDUCE_KERNEL(reduce_max_f32, -INFINITY, isnan(x) || x > value ? x : value, value)
HXCL_REDUCE_KERNEL(reduce_min_f32, INFINITY, isnan(x) || x < value ? x : value, value)
HXCL_REDUCE_KERNEL(reduce_l2_f32, 0.0f, value + x * x, sqrt(value))

// ---- data movement: elements of any dtype, by their size ----

// An output's shape, and for each of its dimensions the stride in elements at which the input
// is read along it (permuted for Transpose, scaled by the step for Slice, 0 where Expand
// repeats); `start` is where element [0, ...] is read.
typedef struct {
  long shape[HXCL_MAX_RANK];
  long stride[HXCL_MAX_RANK];
  long start;
  int rank;
  int unused;
} StridedLayout;

// out[i] = in[start + sum(coordinate[d] * stride[d])], the output dense: a gather. The same
// layout read the other way writes a dense input into a strided output (Concat's parts).
#define HXCL_STRIDED_KERNELS(type)                                                          \
  __kernel void gather_##type(__global const type* in, ulong in_offset, __global type* out, \
                              ulong out_offset, StridedLayout layout) {                     \
    const long index = get_global_id(0);                                                    \
    long rest = index;                                                                      \
    long from = layout.start;                                                               \
    for (int axis = layout.rank - 1; axis >= 0; --axis) {                                   \
      from += (rest % layout.shape[axis]) * layout.stride[axis];                            \
      rest /= layout.shape[axis];                                                           \
    }                                                                                       \
    out[out_offset + index] = in[in_offset + from];                                         \
  }                                                                                         \
  __kernel void scatter_##type(__global const type* in, ulong in_offset,                    \
                               __global type* out, ulong out_offset,                        \
                               StridedLayout layout) {                                      \
    const long index = get_global_id(0);                                                    \
    long rest = index;                                                                      \
    long to = layout.start;                                                                 \
    for (int axis = layout.rank - 1; axis >= 0; --axis) {                                   \
      to += (rest % layout.shape[axis]) * layout.stride[axis];                              \
      rest /= layout.shape[axis];                                                           \
    }                                                                                       \
    out[out_offset + to] = in[in_offset + index];                                           \
  }

HXCL_STRIDED_KERNELS(uchar)
HXCL_STRIDED_KERNELS(ushort)
HXCL_STRIDED_KERNELS(uint)
HXCL_STRIDED_KERNELS(ulong)

// Gather along one axis: out[outer, j, inner] = data[outer, indices[j], inner], indices of
// int64 or int32, negative ones counting from the end. An index out of range gives 0, as
// TensorFlow's GPU kernels do: a device kernel has no way to fail one element, and the
// indices are on the device, where the host would have to wait to read them.
#define HXCL_GATHER_AXIS_KERNEL(name, type, index_type)                                     \
  __kernel void name(__global const type* data, ulong data_offset,                          \
                     __global const index_type* indices, ulong indices_offset,              \
                     __global type* out, ulong out_offset, long index_count, long extent,   \
                     long inner) {                                                          \
    const long index = get_global_id(0);                                                    \
    const long i = index % inner;                                                           \
    const long j = (index / inner) % index_count;                                           \
    const long outer = index / inner / index_count;                                         \
    long at = (long)indices[indices_offset + j];                                            \
    if (at < 0) at += extent;                                                               \
    out[out_offset + index] =                                                               \
        at >= 0 && at < extent ? data[data_offset + (outer * extent + at) * inner + i] : 0;  \
  }

HXCL_GATHER_AXIS_KERNEL(gather_axis_uint_i64, uint, long)
HXCL_GATHER_AXIS_KERNEL(gather_axis_uint_i32, uint, int)
HXCL_GATHER_AXIS_KERNEL(gather_axis_ulong_i64, ulong, long)
HXCL_GATHER_AXIS_KERNEL(gather_axis_ulong_i32, ulong, int)

// ---- LayerNormalization over the axes from `axis` on ----

// One work-item per run of `length` elements: its mean, then its variance about it (two passes
// over the run, as the CPU plugin's), then y = (x - mean) / sqrt(var + epsilon) * scale + b.
// Scale and B hold `length` elements (b may be absent: has_bias 0); mean and inv_std_dev, one
// per run, only where has_statistics.
__kernel void layer_norm_f32(__global const float* x, ulong x_offset,
                             __global const float* scale, ulong scale_offset,
                             __global const float* bias, ulong bias_offset,
                             __global float* y, ulong y_offset, __global float* mean_out,
                             ulong mean_offset, __global float* inv_std_out,
                             ulong inv_std_offset, long length, float epsilon, int has_bias,
                             int has_statistics) {
  const long run = get_global_id(0);
  x += x_offset + run * length;
  y += y_offset + run * length;
  scale += scale_offset;
  float sum = 0.0f;
  for (long i = 0; i < length; ++i) sum += x[i];
  const float mean = sum / (float)length;
  float squares = 0.0f;
  for (long i = 0; i < length; ++i) {
    const float centred = x[i] - mean;
    squares += centred * centred;
  }
  const float inv_std = 1.0f / sqrt(squares / (float)length + epsilon);
  for (long i = 0; i < length; ++i) {
    const float normalized = (x[i] - mean) * inv_std * scale[i];
    y[i] = has_bias ? normalized + bias[bias_offset + i] : normalized;
  }
  if (has_statistics) {
    mean_out[mean_offset + run] = mean;
    inv_std_out[inv_std_offset + run] = inv_std;
  }
}
