// The shape family's kernels: Reshape, Flatten, Squeeze and Unsqueeze keep the elements' order
// (a copy); Transpose, Expand and Tile read their input as a strided view (strided_copy.hpp).
#include <hxplugin/kernel_create.hpp>

#include <cstring>

#include "kernels/element_types.hpp"
#include "kernels/kernels.hpp"
#include "kernels/strided_copy.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

hx_status* same_order_copy(const hx_kernel_args* args, const char* op) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(op, count, out.dtype)) return status;
  const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(out.dtype);
  if (bytes != 0) std::memcpy(output_data<char>(out), input_data<char>(call.input(0)), bytes);
  return nullptr;
}

// perm as given; absent reverses the axes of whatever rank the call has.
struct TransposeInstance {
  bool reversed = true;
  size_t rank = 0;
  int64_t perm[HX_MAX_RANK] = {};
};

}  // namespace

hx_status* reshape_kernel(const hx_kernel_args* args) { return same_order_copy(args, "Reshape"); }
hx_status* flatten_kernel(const hx_kernel_args* args) { return same_order_copy(args, "Flatten"); }
hx_status* squeeze_kernel(const hx_kernel_args* args) { return same_order_copy(args, "Squeeze"); }
hx_status* unsqueeze_kernel(const hx_kernel_args* args) {
  return same_order_copy(args, "Unsqueeze");
}

hx_status* transpose_create(const hx_kernel_create_args* args,
                            hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const int64_t* perm = nullptr;
  size_t rank = 0;
  bool given = false;
  if (hx_status* status = create.attr_ints("perm", &perm, &rank, &given)) return status;
  if (given && rank > HX_MAX_RANK) {
    return create.error(HX_INVALID_ARGUMENT, "Transpose: perm has %zu axes; a tensor has at "
                        "most %d", rank, HX_MAX_RANK);
  }
  TransposeInstance instance;
  instance.reversed = !given;
  instance.rank = given ? rank : 0;
  for (size_t i = 0; i < instance.rank; ++i) instance.perm[i] = perm[i];
  *out_instance = hxplugin::to_instance(new TransposeInstance(instance));
  return nullptr;
}

void transpose_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<TransposeInstance>(instance, user_data);
}

hx_status* transpose_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const TransposeInstance& instance = hxplugin::instance_of<TransposeInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int rank = in.rank;
  bool matches =
      out.rank == rank && (instance.reversed || instance.rank == static_cast<size_t>(rank));
  StridedView view;
  for (int axis = 0; matches && axis < rank; ++axis) {
    const int64_t from = instance.reversed ? rank - 1 - axis : instance.perm[axis];
    matches = from >= 0 && from < rank && out.shape[axis] == in.shape[from];
    if (matches) view.push(in.shape[from], in.strides[from]);
  }
  if (!matches) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Transpose: perm does not permute the input of rank %d into the output "
                      "of rank %d",
                      rank, static_cast<int>(out.rank));
  }
  return write_view(call, "Transpose", view);
}

// The core hands the input over broadcast to the output's shape (Expand broadcasts), so the
// view is the input's own.
hx_status* expand_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  bool matches = in.rank == out.rank;
  StridedView view;
  for (int axis = 0; matches && axis < in.rank; ++axis) {
    matches = in.shape[axis] == out.shape[axis];
    view.push(in.shape[axis], in.strides[axis]);
  }
  if (!matches) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Expand: the input of rank %d does not arrive broadcast to the output's "
                      "rank %d and shape",
                      static_cast<int>(in.rank), static_cast<int>(out.rank));
  }
  return write_view(call, "Expand", view);
}

// Each axis read as two: the repeats (stride 0) outside the input's own extent. The repeats
// are the output's extents over the input's, so the kernel needs no attribute.
hx_status* tile_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  bool matches = in.rank == out.rank;
  bool empty = false;
  StridedView view;
  for (int axis = 0; matches && axis < in.rank; ++axis) {
    const int64_t extent = in.shape[axis];
    empty = empty || extent == 0 || out.shape[axis] == 0;
    matches = extent == 0 ? out.shape[axis] == 0 : out.shape[axis] % extent == 0;
    if (matches && extent != 0) {
      view.push(out.shape[axis] / extent, 0);
      view.push(extent, in.strides[axis]);
    }
  }
  if (!matches) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Tile: the output's extents are not multiples of the input's");
  }
  if (empty) return nullptr;
  return write_view(call, "Tile", view);
}

}  // namespace hxcpu
