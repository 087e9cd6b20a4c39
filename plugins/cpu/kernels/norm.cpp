// BatchNormalization (inference, and training mode's batch statistics), LayerNormalization and
// InstanceNormalization as plain loops:
// each is one or two passes over memory, which loops run at memory speed, and loops also take
// f64, ONNX's broadcast Scale and B of LayerNormalization and any axis, which oneDNN's
// primitives do not. Statistics accumulate in double; elements are computed in float (double
// for f64) and rounded once to the output's dtype; LayerNormalization's Mean and InvStdDev are
// rounded from the double statistics. epsilon and axis are read at create.
#include <hxplugin/kernel_create.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/parallel_rows.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct NormInstance {
  double epsilon = 1e-5;
  int64_t axis = -1;      // LayerNormalization's
  double momentum = 0.9;  // BatchNormalization's, in training mode
  bool training = false;  // BatchNormalization's training_mode
};

template <class T>
using Compute = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Calls visit(TypeTag<T>{}) for f32, f64, f16 and bf16.
template <class Visit>
hx_status* visit_floating(const KernelCall& call, const char* op, Visit&& visit) {
  switch (call.output(0).dtype) {
    case HX_DTYPE_F32: return visit(TypeTag<float>{});
    case HX_DTYPE_F64: return visit(TypeTag<double>{});
    case HX_DTYPE_F16: return visit(TypeTag<Half>{});
    case HX_DTYPE_BF16: return visit(TypeTag<BFloat16>{});
    default:
      return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                        hx_dtype_name(call.output(0).dtype));
  }
}

// Every input of the output's dtype and dense, x and y of one shape, the others of the
// element counts `counts` gives (x first).
hx_status* check_views(const KernelCall& call, const char* op,
                       const std::vector<int64_t>& counts) {
  const hx_tensor_view& y = call.output(0);
  bool fine = call.input(0).rank == y.rank && element_count(y) >= 0;
  for (int32_t axis = 0; fine && axis < y.rank; ++axis) {
    fine = call.input(0).shape[axis] == y.shape[axis];
  }
  for (size_t i = 0; fine && i < call.num_inputs(); ++i) {
    const hx_tensor_view& input = call.input(i);
    fine = input.dtype == y.dtype && hxplugin::is_dense(input) &&
           element_count(input) == counts[i];
  }
  if (!fine) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: the inputs do not match the output's dtype %s and shape, or are "
                      "not dense",
                      op, hx_dtype_name(y.dtype));
  }
  return nullptr;
}

template <class T>
double value_at(const hx_tensor_view& view, int64_t index) {
  return static_cast<double>(convert_element<float>(input_data<T>(view)[index]));
}
template <>
double value_at<double>(const hx_tensor_view& view, int64_t index) {
  return input_data<double>(view)[index];
}

// The sum of term(x) over `length` elements, in double, as kLanes running sums: one sum waits
// out an add's latency per element, which made a transformer's 64-element rows take 145 ns
// each; independent sums also vectorise.
template <class T, class Term>
double lane_sum(const T* row, int64_t length, Term term) {
  constexpr int64_t kLanes = 8;
  double lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= length; i += kLanes) {
    for (int64_t k = 0; k < kLanes; ++k) lanes[k] += term(row[i + k]);
  }
  double sum = 0;
  for (; i < length; ++i) sum += term(row[i]);
  for (const double lane : lanes) sum += lane;
  return sum;
}

// Mean and 1 / sqrt(variance + epsilon) of `length` elements, in two passes.
template <class T>
void row_statistics(const T* row, int64_t length, double epsilon, double* mean,
                    double* inverse) {
  const auto value = [](T x) { return static_cast<double>(convert_element<Compute<T>>(x)); };
  *mean = lane_sum(row, length, value) / static_cast<double>(length);
  const double center = *mean;
  const double squares = lane_sum(row, length, [&](T x) {
    const double deviation = value(x) - center;
    return deviation * deviation;
  });
  *inverse = 1 / std::sqrt(squares / static_cast<double>(length) + epsilon);
}

// y = (x - center) * factor + shift along a row: per element (LayerNormalization's Scale and
// B), or one factor and shift for the row (a channel's). Centred first, so that a large mean
// does not cancel in float.
template <class T>
void affine_row(const T* x, Compute<T> center, const Compute<T>* factor, const Compute<T>* shift,
                int64_t length, T* y) {
  for (int64_t i = 0; i < length; ++i) {
    y[i] = convert_element<T>((convert_element<Compute<T>>(x[i]) - center) * factor[i] +
                              shift[i]);
  }
}
template <class T>
void affine_plane(const T* x, Compute<T> center, Compute<T> factor, Compute<T> shift,
                  int64_t length, T* y) {
  for (int64_t i = 0; i < length; ++i) {
    y[i] = convert_element<T>((convert_element<Compute<T>>(x[i]) - center) * factor + shift);
  }
}

// BatchNormalization in training mode: each channel's mean and population variance over its
// planes (two passes, in double), Y normalized with them, and the running statistics
// input * momentum + batch's * (1 - momentum) in outputs 1 and 2.
template <class T>
void batch_norm_training(const KernelCall& call, const NormInstance& norm, const T* in,
                         int64_t channels, int64_t planes, int64_t length, T* out) {
  const double count = static_cast<double>(planes / channels * length);
  for (int64_t c = 0; c < channels; ++c) {
    double sum = 0;
    for (int64_t plane = c; plane < planes; plane += channels) {
      const T* row = in + plane * length;
      for (int64_t i = 0; i < length; ++i) sum += convert_element<double>(row[i]);
    }
    const double mean = sum / count;
    double squares = 0;
    for (int64_t plane = c; plane < planes; plane += channels) {
      const T* row = in + plane * length;
      for (int64_t i = 0; i < length; ++i) {
        const double deviation = convert_element<double>(row[i]) - mean;
        squares += deviation * deviation;
      }
    }
    const double variance = squares / count;
    const double factor = value_at<T>(call.input(1), c) / std::sqrt(variance + norm.epsilon);
    for (int64_t plane = c; plane < planes; plane += channels) {
      affine_plane(
          in + plane * length, static_cast<Compute<T>>(mean), static_cast<Compute<T>>(factor),
          static_cast<Compute<T>>(value_at<T>(call.input(2), c)), length, out + plane * length);
    }
    const double keep = norm.momentum;
    output_data<T>(call.output(1))[c] =
        convert_element<T>(value_at<T>(call.input(3), c) * keep + mean * (1 - keep));
    output_data<T>(call.output(2))[c] =
        convert_element<T>(value_at<T>(call.input(4), c) * keep + variance * (1 - keep));
  }
}

hx_status* create_norm(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  NormInstance instance;
  if (hx_status* status = create.attr_float("epsilon", &instance.epsilon)) return status;
  if (hx_status* status = create.attr_int("axis", &instance.axis)) return status;
  if (hx_status* status = create.attr_float("momentum", &instance.momentum)) return status;
  int64_t training_mode = 0;
  if (hx_status* status = create.attr_int("training_mode", &training_mode)) return status;
  instance.training = training_mode != 0;
  *out_instance = hxplugin::to_instance(new NormInstance(instance));
  return nullptr;
}

// Elements per channel of x [N, C, ...].
int64_t per_channel(const hx_tensor_view& x) {
  int64_t count = 1;
  for (int32_t axis = 2; axis < x.rank; ++axis) count *= x.shape[axis];
  return count;
}

// The offsets into a dense `operand` broadcast (one way, aligned at the last axes) over the
// dense shape `shape` of `rank` axes, for each of its `count` elements in order.
std::vector<int64_t> broadcast_offsets(const hx_tensor_view& operand, const int64_t* shape,
                                       int32_t rank, int64_t count) {
  int64_t strides[HX_MAX_RANK] = {};
  int64_t stride = 1;
  for (int32_t axis = operand.rank - 1; axis >= 0; --axis) {
    const int32_t aligned = axis + rank - operand.rank;
    strides[aligned] = operand.shape[axis] == 1 ? 0 : stride;
    stride *= operand.shape[axis];
  }
  std::vector<int64_t> offsets(static_cast<size_t>(count));
  int64_t index[HX_MAX_RANK] = {};
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    offsets[static_cast<size_t>(i)] = offset;
    for (int32_t axis = rank - 1; axis >= 0; --axis) {
      offset += strides[axis];
      if (++index[axis] < shape[axis]) break;
      offset -= strides[axis] * shape[axis];
      index[axis] = 0;
    }
  }
  return offsets;
}

// LayerNormalization's Mean and InvStdDev: `rows` elements each, float32 or bfloat16 alike.
hx_status* check_statistics(const KernelCall& call, int64_t rows) {
  const hx_tensor_view& mean = call.output(1);
  const hx_tensor_view& inverse = call.output(2);
  if ((mean.dtype != HX_DTYPE_F32 && mean.dtype != HX_DTYPE_BF16) ||
      inverse.dtype != mean.dtype || element_count(mean) != rows ||
      element_count(inverse) != rows) {
    return call.error(HX_INVALID_ARGUMENT,
                      "LayerNormalization: Mean and InvStdDev must be float32 or bfloat16 "
                      "tensors of %lld elements, one per normalized run",
                      static_cast<long long>(rows));
  }
  return nullptr;
}

// Writes one run's statistics to Mean and InvStdDev at `row`.
void store_statistics(const KernelCall& call, int64_t row, double mean, double inverse) {
  if (call.output(1).dtype == HX_DTYPE_BF16) {
    output_data<BFloat16>(call.output(1))[row] =
        convert_element<BFloat16>(static_cast<float>(mean));
    output_data<BFloat16>(call.output(2))[row] =
        convert_element<BFloat16>(static_cast<float>(inverse));
  } else {
    output_data<float>(call.output(1))[row] = static_cast<float>(mean);
    output_data<float>(call.output(2))[row] = static_cast<float>(inverse);
  }
}

}  // namespace

hx_status* batch_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_norm(args, out);
}
hx_status* layer_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_norm(args, out);
}
hx_status* instance_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_norm(args, out);
}

void norm_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<NormInstance>(instance, user_data);
}

hx_status* batch_norm_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const NormInstance& norm = hxplugin::instance_of<NormInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  if (x.rank < 2) return call.error(HX_INVALID_ARGUMENT, "BatchNormalization: X has rank < 2");
  const int64_t channels = x.shape[1];
  const std::vector<int64_t> counts = {element_count(x), channels, channels, channels, channels};
  if (hx_status* status = check_views(call, "BatchNormalization", counts)) return status;
  // The count first: output(i) of a call with fewer outputs is past the views' end.
  if (call.num_outputs() != 3) {
    return call.error(HX_INVALID_ARGUMENT, "BatchNormalization: expected 3 outputs, got %zu",
                      call.num_outputs());
  }
  for (size_t i = 1; i < 3; ++i) {
    const hx_tensor_view& running = call.output(i);
    if (running.dtype != x.dtype || element_count(running) != channels ||
        !hxplugin::is_dense(running) || (norm.training && counts[0] == 0)) {
      return call.error(HX_INVALID_ARGUMENT,
                        "BatchNormalization: expected the running statistics as [C] of X's "
                        "dtype (and X with elements, in training mode)");
    }
  }
  return visit_floating(call, "BatchNormalization", [&](auto tag) -> hx_status* {
    using T = typename decltype(tag)::type;
    const int64_t length = per_channel(x);
    const int64_t planes = counts[0] == 0 ? 0 : counts[0] / length;
    const T* in = input_data<T>(x);
    T* out = output_data<T>(call.output(0));
    if (norm.training) {
      batch_norm_training(call, norm, in, channels, planes, length, out);
      return nullptr;
    }
    for (int64_t c = 0; c < channels; ++c) {  // the running statistics: the given ones
      output_data<T>(call.output(1))[c] = input_data<T>(call.input(3))[c];
      output_data<T>(call.output(2))[c] = input_data<T>(call.input(4))[c];
    }
    for (int64_t plane = 0; plane < planes; ++plane) {
      const int64_t c = plane % channels;
      const double factor = value_at<T>(call.input(1), c) /
                            std::sqrt(value_at<T>(call.input(4), c) + norm.epsilon);
      affine_plane(in + plane * length, static_cast<Compute<T>>(value_at<T>(call.input(3), c)),
                   static_cast<Compute<T>>(factor),
                   static_cast<Compute<T>>(value_at<T>(call.input(2), c)), length,
                   out + plane * length);
    }
    return nullptr;
  });
}

hx_status* layer_norm_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const NormInstance& norm = hxplugin::instance_of<NormInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  const int64_t axis = norm.axis < 0 ? norm.axis + x.rank : norm.axis;
  const bool bias = call.num_inputs() == 3;
  if (axis < 0 || axis >= x.rank || call.input(1).rank > x.rank - axis ||
      (bias && call.input(2).rank > x.rank - axis)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "LayerNormalization: axis %lld does not fit X of rank %d and Scale, B",
                      static_cast<long long>(norm.axis), static_cast<int>(x.rank));
  }
  const int32_t normalized_rank = static_cast<int32_t>(x.rank - axis);
  const int64_t* normalized = x.shape + axis;
  int64_t length = 1;
  for (int32_t a = 0; a < normalized_rank; ++a) length *= normalized[a];
  std::vector<int64_t> counts = {element_count(x), element_count(call.input(1))};
  if (bias) counts.push_back(element_count(call.input(2)));
  if (hx_status* status = check_views(call, "LayerNormalization", counts)) return status;
  for (size_t i = 1; i < call.num_inputs(); ++i) {  // each extent 1 or the normalized one
    const hx_tensor_view& operand = call.input(i);
    for (int32_t a = 0; a < operand.rank; ++a) {
      const int64_t extent = operand.shape[a];
      if (extent != 1 && extent != normalized[a + normalized_rank - operand.rank]) {
        return call.error(HX_INVALID_ARGUMENT,
                          "LayerNormalization: input %zu does not broadcast to X's axes from "
                          "%lld on",
                          i, static_cast<long long>(axis));
      }
    }
  }
  if (call.num_outputs() != 3) {
    return call.error(HX_INVALID_ARGUMENT, "LayerNormalization: expected 3 outputs, got %zu",
                      call.num_outputs());
  }
  // Runs of no elements (an extent 0 from axis on) have no mean: NaN, as NumPy's.
  const int64_t rows = length == 0 ? element_count(call.output(1)) : counts[0] / length;
  if (hx_status* status = check_statistics(call, rows)) return status;
  if (length == 0) {
    const double nan = std::nan("");
    for (int64_t row = 0; row < rows; ++row) store_statistics(call, row, nan, nan);
    return nullptr;
  }
  if (counts[0] == 0) return nullptr;
  const std::vector<int64_t> scale_at =
      broadcast_offsets(call.input(1), normalized, normalized_rank, length);
  const std::vector<int64_t> bias_at =
      bias ? broadcast_offsets(call.input(2), normalized, normalized_rank, length)
           : std::vector<int64_t>();
  return visit_floating(call, "LayerNormalization", [&](auto tag) -> hx_status* {
    using T = typename decltype(tag)::type;
    std::vector<double> scale(static_cast<size_t>(length));
    std::vector<Compute<T>> shift(static_cast<size_t>(length), 0);
    for (size_t i = 0; i < scale.size(); ++i) {
      scale[i] = value_at<T>(call.input(1), scale_at[i]);
      if (bias) shift[i] = static_cast<Compute<T>>(value_at<T>(call.input(2), bias_at[i]));
    }
    const T* in = input_data<T>(x);
    T* out = output_data<T>(call.output(0));
    for_row_ranges(call, rows, counts[0], [&](int64_t first, int64_t end) {
      std::vector<Compute<T>> factor(static_cast<size_t>(length));
      for (int64_t row = first; row < end; ++row) {
        double mean = 0;
        double inverse = 0;
        row_statistics(in + row * length, length, norm.epsilon, &mean, &inverse);
        store_statistics(call, row, mean, inverse);
        for (size_t i = 0; i < factor.size(); ++i) {
          factor[i] = static_cast<Compute<T>>(inverse * scale[i]);
        }
        affine_row(in + row * length, static_cast<Compute<T>>(mean), factor.data(),
                   shift.data(), length, out + row * length);
      }
    });
    return nullptr;
  });
}

hx_status* instance_norm_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const NormInstance& norm = hxplugin::instance_of<NormInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  if (x.rank < 3) {
    return call.error(HX_INVALID_ARGUMENT, "InstanceNormalization: X has rank < 3");
  }
  const int64_t channels = x.shape[1];
  if (hx_status* status = check_views(call, "InstanceNormalization",
                                      {element_count(x), channels, channels})) {
    return status;
  }
  const int64_t length = per_channel(x);
  const int64_t planes = length == 0 ? 0 : element_count(x) / length;
  return visit_floating(call, "InstanceNormalization", [&](auto tag) -> hx_status* {
    using T = typename decltype(tag)::type;
    const T* in = input_data<T>(x);
    T* out = output_data<T>(call.output(0));
    for (int64_t plane = 0; plane < planes; ++plane) {
      double mean = 0;
      double inverse = 0;
      row_statistics(in + plane * length, length, norm.epsilon, &mean, &inverse);
      const int64_t c = plane % channels;
      affine_plane(in + plane * length, static_cast<Compute<T>>(mean),
                   static_cast<Compute<T>>(value_at<T>(call.input(1), c) * inverse),
                   static_cast<Compute<T>>(value_at<T>(call.input(2), c)), length,
                   out + plane * length);
    }
    return nullptr;
  });
}

}  // namespace hxcpu
