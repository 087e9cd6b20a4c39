// The indexing family's kernels: Concat, Split, Slice, Gather, GatherElements and
// ScatterElements.
// Elements move by size (one loop serves every dtype of a size), and every index is checked
// against its axis before anything is read or written through it: an index out of range is
// an INVALID_ARGUMENT naming it, never a read outside the tensor.
#include <hxcommon/slice_bounds.hpp>
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/arithmetic.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernels.hpp"
#include "kernels/strided_copy.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

// The attributes the family's kernels read at create; each reads the ones of its op.
struct IndexingInstance {
  int64_t axis = 0;
  Reduction reduction = Reduction::kNone;
};

struct SliceInstance {
  size_t count = 0;  // how many axes are sliced
  int64_t starts[HX_MAX_RANK] = {};
  int64_t ends[HX_MAX_RANK] = {};
  int64_t axes[HX_MAX_RANK] = {};
  int64_t steps[HX_MAX_RANK] = {};
};

int64_t product(const int64_t* extents, int from, int to) {
  int64_t result = 1;
  for (int axis = from; axis < to; ++axis) result *= extents[axis];
  return result;
}

// `axis` counted from the end when negative, or -1 when it is outside a rank-`rank` tensor.
int resolved_axis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) return -1;
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

// Calls body(indices) with the view's indices as int32_t or int64_t.
template <class Body>
hx_status* with_indices(const KernelCall& call, const char* op, const hx_tensor_view& view,
                        Body body) {
  switch (view.dtype) {
    case HX_DTYPE_I32: return body(input_data<int32_t>(view));
    case HX_DTYPE_I64: return body(input_data<int64_t>(view));
    default:
      return call.error(HX_INVALID_ARGUMENT, "%s: indices are %s; expected int32 or int64", op,
                        hx_dtype_name(view.dtype));
  }
}

// The first of `count` indices outside [-extent, extent-1], as an error; NULL when all fit.
template <class Index>
hx_status* check_indices(const KernelCall& call, const char* op, const Index* indices,
                         int64_t count, int64_t extent, int axis) {
  for (int64_t i = 0; i < count; ++i) {
    if (indices[i] < -extent || indices[i] >= extent) {
      return call.error(HX_INVALID_ARGUMENT,
                        "%s: index %lld (element %lld of indices) is out of range for axis %d "
                        "of extent %lld; an index is from %lld to %lld",
                        op, static_cast<long long>(indices[i]), static_cast<long long>(i), axis,
                        static_cast<long long>(extent), static_cast<long long>(-extent),
                        static_cast<long long>(extent - 1));
    }
  }
  return nullptr;
}

template <class Index>
int64_t from_end(Index index, int64_t extent) {
  return index < 0 ? index + extent : index;
}

hx_status* wrong_shapes(const KernelCall& call, const char* op) {
  return call.error(HX_INVALID_ARGUMENT,
                    "%s: the operands' shapes or dtypes are not what the op's shape inference "
                    "gives for them",
                    op);
}

// Whether the `count` views part(0) ... part(count - 1) are `whole` cut along `axis` (Concat's
// inputs, Split's outputs): of its rank, its extents on every other axis, and extents along
// `axis` that add up to its own.
template <class Part>
bool cuts_along_axis(const hx_tensor_view& whole, int axis, size_t count, Part part) {
  int64_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    const hx_tensor_view& cut = part(i);
    if (cut.rank != whole.rank) return false;
    for (int d = 0; d < whole.rank; ++d) {
      if (d != axis && cut.shape[d] != whole.shape[d]) return false;
    }
    total += cut.shape[axis];
  }
  return total == whole.shape[axis];
}

bool same_shape(const hx_tensor_view& a, const hx_tensor_view& b) {
  return a.rank == b.rank && std::equal(a.shape, a.shape + a.rank, b.shape);
}

// The walk GatherElements and ScatterElements share: for each element of indices, in
// row-major order, visit(position in indices, offset in data without the indexed axis).
template <class Visit>
void walk_elements(const hx_tensor_view& indices, const hx_tensor_view& data, int axis,
                   Visit visit) {
  const int rank = indices.rank;
  const int64_t count = element_count(indices);
  int64_t at[HX_MAX_RANK] = {};
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    visit(i, offset);
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t stride = d == axis ? 0 : data.strides[d];
      offset += stride;
      if (++at[d] < indices.shape[d]) break;
      offset -= stride * indices.shape[d];
      at[d] = 0;
    }
  }
}

// GatherElements' and ScatterElements' operands: indices of data's rank, no larger than data
// on the axes they do not index. The axis, or -1.
int elementwise_axis(const IndexingInstance& instance, const hx_tensor_view& data,
                     const hx_tensor_view& indices) {
  const int axis = resolved_axis(instance.axis, data.rank);
  if (axis < 0 || indices.rank != data.rank) return -1;
  for (int d = 0; d < data.rank; ++d) {
    if (d != axis && indices.shape[d] > data.shape[d]) return -1;
  }
  return axis;
}

template <class Element, class Index>
void gather_elements(const hx_tensor_view& data, const hx_tensor_view& indices, int axis,
                     const Index* index, Element* out) {
  const Element* source = input_data<Element>(data);
  const int64_t extent = data.shape[axis];
  const int64_t stride = data.strides[axis];
  walk_elements(indices, data, axis, [&](int64_t i, int64_t offset) {
    out[i] = source[offset + from_end(index[i], extent) * stride];
  });
}

template <class T>
T combine(T a, T b, Reduction reduction) {
  using convert_detail::widen;
  const auto x = widen(a);
  const auto y = widen(b);
  switch (reduction) {
    case Reduction::kAdd: return convert_element<T>(wrapping_add(x, y));
    case Reduction::kMul: return convert_element<T>(wrapping_mul(x, y));
    case Reduction::kMax: return convert_element<T>(std::max(x, y));
    case Reduction::kMin: return convert_element<T>(std::min(x, y));
    case Reduction::kNone: break;
  }
  return b;
}

template <class T, class Index>
void scatter_elements(const hx_tensor_view& indices, const hx_tensor_view& data, int axis,
                      const Index* index, const T* updates, Reduction reduction, T* out) {
  const int64_t extent = data.shape[axis];
  const int64_t stride = data.strides[axis];
  walk_elements(indices, data, axis, [&](int64_t i, int64_t offset) {
    T& target = out[offset + from_end(index[i], extent) * stride];
    target = combine(target, updates[i], reduction);
  });
}

// Calls body(TypeTag<E>) with E an unsigned type of the dtype's size.
template <class Body>
hx_status* by_element_size(int32_t dtype, Body body) {
  switch (hx_dtype_size(dtype)) {
    case 1: return body(TypeTag<uint8_t>{});
    case 2: return body(TypeTag<uint16_t>{});
    case 4: return body(TypeTag<uint32_t>{});
    default: return body(TypeTag<uint64_t>{});
  }
}

hx_status* make_instance(const hx_kernel_create_args* args, hx_kernel_instance** out_instance,
                         bool with_reduction) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  IndexingInstance instance;
  if (hx_status* status = create.attr_int("axis", &instance.axis)) return status;
  if (with_reduction) {
    const char* reduction = "none";
    if (hx_status* status = create.attr_string("reduction", &reduction)) return status;
    const std::string name = reduction;
    if (name == "add") {
      instance.reduction = Reduction::kAdd;
    } else if (name == "mul") {
      instance.reduction = Reduction::kMul;
    } else if (name == "max") {
      instance.reduction = Reduction::kMax;
    } else if (name == "min") {
      instance.reduction = Reduction::kMin;
    } else if (name != "none") {
      return create.error(HX_INVALID_ARGUMENT, "ScatterElements: unknown reduction \"%s\"",
                          reduction);
    }
  }
  *out_instance = hxplugin::to_instance(new IndexingInstance(instance));
  return nullptr;
}

}  // namespace

hx_status* axis_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  return make_instance(args, out_instance, false);
}

hx_status* scatter_elements_create(const hx_kernel_create_args* args,
                                   hx_kernel_instance** out_instance) {
  return make_instance(args, out_instance, true);
}

void indexing_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<IndexingInstance>(instance, user_data);
}

hx_status* concat_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const IndexingInstance& instance = hxplugin::instance_of<IndexingInstance>(call.instance());
  const hx_tensor_view& out = call.output(0);
  const int axis = resolved_axis(instance.axis, out.rank);
  if (axis < 0) return wrong_shapes(call, "Concat");
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    if (call.input(i).dtype != out.dtype) return wrong_shapes(call, "Concat");
  }
  const auto input = [&](size_t i) -> const hx_tensor_view& { return call.input(i); };
  if (!cuts_along_axis(out, axis, call.num_inputs(), input)) return wrong_shapes(call, "Concat");
  // Each input is `outer` rows, which go side by side into the output's rows.
  const size_t element_size = hx_dtype_size(out.dtype);
  const int64_t outer = product(out.shape, 0, axis);
  const auto inner_bytes = static_cast<size_t>(product(out.shape, axis + 1, out.rank)) *
                           element_size;
  const size_t out_row = static_cast<size_t>(out.shape[axis]) * inner_bytes;
  char* target = output_data<char>(out);
  size_t column = 0;
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    const hx_tensor_view& in = call.input(i);
    const size_t in_row = static_cast<size_t>(in.shape[axis]) * inner_bytes;
    if (in_row == 0 || outer == 0) continue;
    const char* source = input_data<char>(in);
    for (int64_t row = 0; row < outer; ++row) {
      std::memcpy(target + static_cast<size_t>(row) * out_row + column,
                  source + static_cast<size_t>(row) * in_row, in_row);
    }
    column += in_row;
  }
  return nullptr;
}

hx_status* split_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const IndexingInstance& instance = hxplugin::instance_of<IndexingInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const int axis = resolved_axis(instance.axis, in.rank);
  if (axis < 0) return wrong_shapes(call, "Split");
  const auto output = [&](size_t i) -> const hx_tensor_view& { return call.output(i); };
  if (!cuts_along_axis(in, axis, call.num_outputs(), output)) return wrong_shapes(call, "Split");
  // Each output is the input's view from its part's first index along the axis, as Concat's
  // inputs are the parts of its output.
  int64_t start = 0;
  for (size_t i = 0; i < call.num_outputs(); ++i) {
    const hx_tensor_view& out = call.output(i);
    StridedView view;
    for (int d = 0; d < in.rank; ++d) view.push(out.shape[d], in.strides[d]);
    if (hx_status* status = write_view(call, "Split", view, start * in.strides[axis], i)) {
      return status;
    }
    start += out.shape[axis];
  }
  return nullptr;
}

hx_status* slice_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const char* const names[] = {"starts", "ends", "axes", "steps"};
  const int64_t* lists[4] = {};
  size_t counts[4] = {};
  bool given[4] = {};
  for (int i = 0; i < 4; ++i) {
    if (hx_status* status = create.attr_ints(names[i], &lists[i], &counts[i], &given[i])) {
      return status;
    }
  }
  const size_t count = counts[0];
  // More axes than a tensor has must name one twice, which shape inference refuses.
  if (count > HX_MAX_RANK || counts[1] != count || (given[2] && counts[2] != count) ||
      (given[3] && counts[3] != count)) {
    return create.error(HX_INVALID_ARGUMENT,
                        "Slice: starts, ends, axes and steps must have one length, at most %d",
                        HX_MAX_RANK);
  }
  SliceInstance instance;
  instance.count = count;
  for (size_t i = 0; i < count; ++i) {
    instance.starts[i] = lists[0][i];
    instance.ends[i] = lists[1][i];
    instance.axes[i] = given[2] ? lists[2][i] : static_cast<int64_t>(i);
    instance.steps[i] = given[3] ? lists[3][i] : 1;
    if (instance.steps[i] == 0) {
      return create.error(HX_INVALID_ARGUMENT, "Slice: a step is 0; steps are nonzero");
    }
  }
  *out_instance = hxplugin::to_instance(new SliceInstance(instance));
  return nullptr;
}

void slice_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<SliceInstance>(instance, user_data);
}

hx_status* slice_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const SliceInstance& instance = hxplugin::instance_of<SliceInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (out.rank != in.rank) return wrong_shapes(call, "Slice");
  int64_t starts[HX_MAX_RANK] = {};
  int64_t steps[HX_MAX_RANK] = {};
  int64_t counts[HX_MAX_RANK] = {};
  std::copy(in.shape, in.shape + in.rank, counts);
  std::fill(steps, steps + in.rank, 1);
  for (size_t i = 0; i < instance.count; ++i) {
    const int axis = resolved_axis(instance.axes[i], in.rank);
    if (axis < 0) return wrong_shapes(call, "Slice");
    const hxcommon::SliceAxis taken = hxcommon::slice_axis(
        in.shape[axis], instance.starts[i], instance.ends[i], instance.steps[i]);
    starts[axis] = taken.start;
    counts[axis] = taken.count;
    steps[axis] = instance.steps[i];
  }
  StridedView view;
  int64_t first = 0;
  for (int axis = 0; axis < in.rank; ++axis) {
    if (counts[axis] != out.shape[axis]) return wrong_shapes(call, "Slice");
    first += starts[axis] * in.strides[axis];
    // One element along an axis needs no step, which keeps the stride of INT64_MIN steps
    // from overflowing.
    view.push(counts[axis], counts[axis] > 1 ? steps[axis] * in.strides[axis] : 0);
  }
  return write_view(call, "Slice", view, first);
}

hx_status* gather_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const IndexingInstance& instance = hxplugin::instance_of<IndexingInstance>(call.instance());
  const hx_tensor_view& data = call.input(0);
  const hx_tensor_view& indices = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const int axis = resolved_axis(instance.axis, data.rank);
  if (axis < 0 || out.dtype != data.dtype || out.rank != data.rank - 1 + indices.rank) {
    return wrong_shapes(call, "Gather");
  }
  const int64_t outer = product(data.shape, 0, axis);
  const int64_t extent = data.shape[axis];
  const int64_t inner = product(data.shape, axis + 1, data.rank);
  const int64_t count = element_count(indices);
  if (element_count(out) != outer * count * inner) return wrong_shapes(call, "Gather");
  const size_t element_size = hx_dtype_size(data.dtype);
  const size_t run = static_cast<size_t>(inner) * element_size;
  const char* source = input_data<char>(data);
  char* target = output_data<char>(out);
  return with_indices(call, "Gather", indices, [&](const auto* index) -> hx_status* {
    if (hx_status* status = check_indices(call, "Gather", index, count, extent, axis)) {
      return status;
    }
    if (run == 0) return nullptr;
    for (int64_t row = 0; row < outer; ++row) {
      for (int64_t j = 0; j < count; ++j) {
        const int64_t from = row * extent + from_end(index[j], extent);
        std::memcpy(target + static_cast<size_t>(row * count + j) * run,
                    source + static_cast<size_t>(from) * run, run);
      }
    }
    return nullptr;
  });
}

hx_status* gather_elements_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const IndexingInstance& instance = hxplugin::instance_of<IndexingInstance>(call.instance());
  const hx_tensor_view& data = call.input(0);
  const hx_tensor_view& indices = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const int axis = elementwise_axis(instance, data, indices);
  if (axis < 0 || out.dtype != data.dtype || !same_shape(out, indices)) {
    return wrong_shapes(call, "GatherElements");
  }
  return with_indices(call, "GatherElements", indices, [&](const auto* index) -> hx_status* {
    if (hx_status* status = check_indices(call, "GatherElements", index,
                                          element_count(indices), data.shape[axis], axis)) {
      return status;
    }
    return by_element_size(data.dtype, [&](auto tag) -> hx_status* {
      using Element = typename decltype(tag)::type;
      gather_elements(data, indices, axis, index, output_data<Element>(out));
      return nullptr;
    });
  });
}

hx_status* scatter_elements_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const IndexingInstance& instance = hxplugin::instance_of<IndexingInstance>(call.instance());
  const hx_tensor_view& data = call.input(0);
  const hx_tensor_view& indices = call.input(1);
  const hx_tensor_view& updates = call.input(2);
  const hx_tensor_view& out = call.output(0);
  const int axis = elementwise_axis(instance, data, indices);
  if (axis < 0 || out.dtype != data.dtype || updates.dtype != data.dtype ||
      !same_shape(out, data) || !same_shape(updates, indices)) {
    return wrong_shapes(call, "ScatterElements");
  }
  const int64_t count = element_count(indices);
  return with_indices(call, "ScatterElements", indices, [&](const auto* index) -> hx_status* {
    if (hx_status* status = check_indices(call, "ScatterElements", index, count,
                                          data.shape[axis], axis)) {
      return status;
    }
    const size_t bytes = static_cast<size_t>(element_count(data)) * hx_dtype_size(data.dtype);
    if (bytes != 0) std::memcpy(output_data<char>(out), input_data<char>(data), bytes);
    const auto scatter = [&](auto tag) -> hx_status* {
      using T = typename decltype(tag)::type;
      scatter_elements(indices, data, axis, index, input_data<T>(updates), instance.reduction,
                       output_data<T>(out));
      return nullptr;
    };
    return visit_any(data.dtype, scatter, [&] { return wrong_shapes(call, "ScatterElements"); });
  });
}

}  // namespace hxcpu
