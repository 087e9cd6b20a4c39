// Reference cases of the pools: each window's taps walked one by one. A tap inside the input
// contributes its element; a tap in the padding contributes nothing to the maximum and counts
// as a zero for count_include_pad's divisor; a tap past the end padding (ceil_mode's last
// window) counts for neither. MaxPool's Indices: the first largest tap's index in X, its
// spatial axes flattened row-major, or column-major with storage_order 1.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"
#include "ops/reference/windows.hpp"

namespace hxrt::detail {
namespace {

using Ints = std::vector<int64_t>;

struct PoolCall {
  Shape x;
  Attrs attrs;
};

enum class Pool { kMax, kAverage };

// X's spatial position `at` (of extents `in`) flattened as storage_order says.
int64_t flat_position(const std::vector<int64_t>& at, const std::vector<int64_t>& in,
                      bool column_major) {
  int64_t position = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const size_t axis = column_major ? in.size() - 1 - k : k;
    position = position * in[axis] + at[axis];
  }
  return position;
}

// Y, and MaxPool's Indices in `indices` when it is not null.
ReferenceTensor pool_reference(const std::string& op, const ReferenceCase& call, Pool pool,
                               ReferenceTensor* indices = nullptr) {
  const ReferenceTensor& x = call.inputs[0];
  const AttrValue* ceil_mode = call.attrs.find("ceil_mode");
  const WindowGeometry window =
      case_window(op, call, {}, ceil_mode != nullptr && std::get<int64_t>(*ceil_mode) == 1);
  const AttrValue* include_pad = call.attrs.find("count_include_pad");
  const bool count_pads = include_pad != nullptr && std::get<int64_t>(*include_pad) == 1;
  const std::vector<int64_t> x_dims = x.shape.to_vector();
  const std::vector<int64_t> in(x_dims.begin() + 2, x_dims.end());
  ReferenceTensor y = empty_reference(x.dtype, windowed_shape(x.shape, window));
  const AttrValue* storage_order = call.attrs.find("storage_order");
  const bool column_major = storage_order != nullptr && std::get<int64_t>(*storage_order) == 1;
  if (indices != nullptr) *indices = empty_reference(DType::kI64, y.shape);
  const int64_t planes = x.shape[0] * x.shape[1];
  const int64_t in_count = count_of(in);
  const int64_t taps = count_of(window.kernel);
  for (int64_t plane = 0; plane < planes; ++plane) {
    for (int64_t o = 0; o < count_of(window.output); ++o) {
      const std::vector<int64_t> at = coordinates(o, window.output);
      double max = -std::numeric_limits<double>::infinity();
      int64_t max_index = -1;
      double sum = 0;
      int64_t inside_count = 0;
      int64_t padded_count = 0;
      for (int64_t tap = 0; tap < taps; ++tap) {
        const std::vector<int64_t> offset = coordinates(tap, window.kernel);
        std::vector<int64_t> source(in.size());
        bool inside = true;
        bool padded = true;
        for (size_t axis = 0; axis < in.size(); ++axis) {
          const int64_t i = at[axis] * window.strides[axis] - window.pads_begin[axis] +
                            offset[axis] * window.dilations[axis];
          inside = inside && i >= 0 && i < in[axis];
          padded = padded && i >= -window.pads_begin[axis] &&
                   i < in[axis] + window.pads_end[axis];
          source[axis] = i;
        }
        if (padded) ++padded_count;
        if (!inside) continue;
        const int64_t position = flat_position(source, in, false);
        const double value = x.values[static_cast<size_t>(plane * in_count + position)];
        if (max_index < 0 || value > max) {
          max = value;
          max_index = plane * in_count + flat_position(source, in, column_major);
        }
        sum += value;
        ++inside_count;
      }
      const int64_t divisor = count_pads ? padded_count : inside_count;
      y.values.push_back(pool == Pool::kMax ? max : sum / static_cast<double>(divisor));
      if (indices != nullptr) indices->values.push_back(static_cast<double>(max_index));
    }
  }
  return y;
}

std::vector<ReferenceCase> pool_cases(const std::string& op, Pool pool, DType type,
                                      RandomValues& random, const std::vector<PoolCall>& calls) {
  std::vector<ReferenceCase> cases;
  for (const PoolCall& call : calls) {
    ReferenceCase pooled;
    pooled.inputs = {random.tensor(type, call.x)};
    pooled.attrs = call.attrs;
    const AttrValue* outputs = call.attrs.find("num_outputs");
    if (outputs != nullptr && std::get<int64_t>(*outputs) == 2) {
      pooled.more_expected.resize(1);
      pooled.expected = pool_reference(op, pooled, pool, &pooled.more_expected[0]);
    } else {
      pooled.expected = pool_reference(op, pooled, pool);
    }
    const std::vector<int64_t> kernel = std::get<Ints>(*call.attrs.find("kernel_shape"));
    pooled.tolerance = pool == Pool::kMax ? 0 : reduction_tolerance(type, count_of(kernel));
    cases.push_back(std::move(pooled));
  }
  return cases;
}

// The windows both pools are checked on.
std::vector<PoolCall> common_calls() {
  const std::string same_upper = "SAME_UPPER";
  const std::string same_lower = "SAME_LOWER";
  return {
      {{1, 1, 5, 5}, {{"kernel_shape", Ints{2, 2}}}},
      {{2, 3, 6, 7}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}}},
      {{1, 2, 5, 6}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}}},
      {{1, 2, 6, 5}, {{"kernel_shape", Ints{3, 2}}, {"pads", Ints{2, 0, 0, 1}},
                      {"strides", Ints{2, 1}}}},
      {{1, 2, 6, 6}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}},
                      {"ceil_mode", int64_t{1}}}},
      // ceil_mode's third window would start in the end padding: dropped, 2 per axis remain.
      {{1, 1, 4, 4}, {{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}},
                      {"pads", Ints{0, 0, 1, 1}}, {"ceil_mode", int64_t{1}}}},
      {{1, 2, 7, 6}, {{"kernel_shape", Ints{2, 2}}, {"dilations", Ints{2, 2}}}},
      {{1, 2, 5, 5}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}},
                      {"auto_pad", same_upper}}},
      {{1, 1, 4, 5}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", same_lower}}},
      {{1, 2, 5, 5}, {{"kernel_shape", Ints{2, 3}}, {"auto_pad", std::string("VALID")}}},
      {{2, 3, 9}, {{"kernel_shape", Ints{3}}, {"strides", Ints{2}}, {"pads", Ints{1, 1}}}},
      {{1, 2, 4, 4, 4}, {{"kernel_shape", Ints{2, 2, 2}}, {"strides", Ints{2, 1, 2}}}},
      {{1, 1, 1, 1}, {{"kernel_shape", Ints{1, 1}}}},
      {{0, 2, 4, 4}, {{"kernel_shape", Ints{2, 2}}}},
  };
}

ReferenceTensor global_reference(const ReferenceTensor& x, Pool pool) {
  Shape y_shape{x.shape[0], x.shape[1]};
  for (int axis = 2; axis < x.shape.rank(); ++axis) y_shape.push_back(1);
  ReferenceTensor y = empty_reference(x.dtype, y_shape);
  const int64_t planes = x.shape[0] * x.shape[1];
  const int64_t per_plane = planes == 0 ? 0 : x.shape.num_elements() / planes;
  for (int64_t plane = 0; plane < planes; ++plane) {
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0;
    for (int64_t i = 0; i < per_plane; ++i) {
      const double value = x.values[static_cast<size_t>(plane * per_plane + i)];
      max = std::max(max, value);
      sum += value;
    }
    y.values.push_back(pool == Pool::kMax ? max : sum / static_cast<double>(per_plane));
  }
  return y;
}

std::vector<ReferenceCase> global_cases(Pool pool, DType type, RandomValues& random) {
  const std::vector<Shape> shapes = {{1, 1, 3, 3}, {2, 3, 5}, {2, 2, 3, 4, 2}, {1, 3, 1, 1},
                                     {0, 2, 3, 3}, {2, 3, 17, 19}};
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : shapes) {
    ReferenceCase pooled;
    pooled.inputs = {random.tensor(type, shape)};
    pooled.expected = global_reference(pooled.inputs[0], pool);
    int64_t per_plane = 1;
    for (int axis = 2; axis < shape.rank(); ++axis) per_plane *= shape[axis];
    pooled.tolerance = pool == Pool::kMax ? 0 : reduction_tolerance(type, per_plane);
    cases.push_back(std::move(pooled));
  }
  return cases;
}

}  // namespace

std::vector<ReferenceCase> max_pool_cases(DType type, DType, RandomValues& random) {
  std::vector<PoolCall> calls = common_calls();
  calls.push_back({{1, 2, 4, 4}, {{"kernel_shape", Ints{2, 2}}, {"storage_order", int64_t{0}}}});
  // With Indices: on every window of the common calls, then column-major.
  const size_t common = calls.size();
  for (size_t i = 0; i < common; ++i) {
    PoolCall with_indices = calls[i];
    with_indices.attrs.set("num_outputs", int64_t{2});
    calls.push_back(with_indices);
  }
  calls.push_back({{2, 2, 5, 4}, {{"kernel_shape", Ints{3, 2}}, {"pads", Ints{1, 0, 1, 1}},
                                  {"storage_order", int64_t{1}}, {"num_outputs", int64_t{2}}}});
  calls.push_back({{1, 2, 3, 4, 5}, {{"kernel_shape", Ints{2, 2, 3}}, {"strides", Ints{1, 2, 2}},
                                     {"storage_order", int64_t{1}}, {"num_outputs", int64_t{2}}}});
  return pool_cases("MaxPool", Pool::kMax, type, random, calls);
}

std::vector<ReferenceCase> average_pool_cases(DType type, DType, RandomValues& random) {
  std::vector<PoolCall> calls = common_calls();
  calls.push_back({{1, 2, 5, 6}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}},
                                  {"count_include_pad", int64_t{1}}}});
  calls.push_back({{1, 2, 5, 5}, {{"kernel_shape", Ints{2, 3}}, {"pads", Ints{1, 0, 0, 2}},
                                  {"strides", Ints{2, 2}}, {"count_include_pad", int64_t{1}}}});
  calls.push_back({{1, 1, 5, 5}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}},
                                  {"auto_pad", std::string("SAME_UPPER")},
                                  {"count_include_pad", int64_t{1}}}});
  calls.push_back({{1, 2, 5, 5}, {{"kernel_shape", Ints{3, 3}}, {"count_include_pad", int64_t{0}},
                                  {"pads", Ints{1, 1, 1, 1}}}});
  // ceil_mode's last window reaches past the end padding, whose taps count for no divisor.
  calls.push_back({{1, 2, 6, 6, 6}, {{"kernel_shape", Ints{2, 2, 2}}, {"strides", Ints{2, 2, 2}},
                                     {"dilations", Ints{2, 2, 2}},
                                     {"pads", Ints{1, 1, 1, 1, 1, 1}}, {"ceil_mode", int64_t{1}},
                                     {"count_include_pad", int64_t{1}}}});
  return pool_cases("AveragePool", Pool::kAverage, type, random, calls);
}

std::vector<ReferenceCase> global_max_pool_cases(DType type, DType, RandomValues& random) {
  return global_cases(Pool::kMax, type, random);
}

std::vector<ReferenceCase> global_average_pool_cases(DType type, DType, RandomValues& random) {
  return global_cases(Pool::kAverage, type, random);
}

}  // namespace hxrt::detail
