// MatMul of float32: c = op(a) x op(b) with the transposes read once, at create, which pick
// one of program.cl's four tiled kernels; of matrices, of stacks of one batch shape on both
// sides (a transformer's attention), and of a stack times one matrix (a layer's weights),
// merged into one product.
#include <hxplugin/status.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

// program.cl's HXCL_TILE: work-groups are kTile x kTile items.
constexpr size_t kTile = 16;

struct MatMulInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  bool transpose_a = false;
  bool transpose_b = false;
  // Gemm's; MatMul's are 1 and 0.
  cl_float alpha = 1.0f;
  cl_float beta = 0.0f;
};

// Gemm's C as the kernel reads it: strides along Y's rows and columns, 0 where C repeats (a
// scalar, a row [N] or [1, N], a column [M, 1]).
struct BiasStrides {
  cl_long row = 0, column = 0;
};
BiasStrides bias_strides(const hx_tensor_view& bias) {
  BiasStrides strides;
  if (bias.rank >= 1 && bias.shape[bias.rank - 1] != 1) strides.column = 1;
  if (bias.rank == 2 && bias.shape[0] != 1) strides.row = bias.shape[1];
  return strides;
}

const char* matmul_kernel_name(bool transpose_a, bool transpose_b) {
  if (transpose_a) return transpose_b ? "matmul_f32_at_bt" : "matmul_f32_at";
  return transpose_b ? "matmul_f32_bt" : "matmul_f32";
}

size_t round_up(int64_t extent) {
  return (static_cast<size_t>(extent) + kTile - 1) / kTile * kTile;
}

// A call as `products` products of m x k by k x n, each operand's `*_step` elements after the
// one before, the stored matrices' rows lda and ldb long.
struct Products {
  int64_t products = 1, m = 0, n = 0, k = 0, lda = 0, ldb = 0;
  int64_t a_step = 0, b_step = 0, c_step = 0;
};

// The call's products; false for what the kernel does not take: vectors, and stacks whose
// batch axes differ (broadcast) or a stack times a matrix with `a` transposed.
bool products_of(const hx_tensor_view& a, const hx_tensor_view& b, const hx_tensor_view& c,
                 bool transpose_a, bool transpose_b, Products* out) {
  const int32_t rank = a.rank;
  if (rank < 2 || b.rank < 2 || c.rank != std::max(a.rank, b.rank)) return false;
  Products p;
  p.ldb = b.shape[b.rank - 1];
  p.n = transpose_b ? b.shape[b.rank - 2] : b.shape[b.rank - 1];
  const int64_t b_k = transpose_b ? b.shape[b.rank - 1] : b.shape[b.rank - 2];
  if (b.rank == 2 && !transpose_a) {
    // Every row of the stack times one matrix: one product of all the rows.
    p.k = a.shape[rank - 1];
    p.m = 1;
    for (int32_t axis = 0; axis < rank - 1; ++axis) p.m *= a.shape[axis];
    p.lda = p.k;
  } else {
    if (b.rank != rank) return false;
    for (int32_t axis = 0; axis < rank - 2; ++axis) {
      if (a.shape[axis] != b.shape[axis]) return false;
      p.products *= a.shape[axis];
    }
    p.m = transpose_a ? a.shape[rank - 1] : a.shape[rank - 2];
    p.k = transpose_a ? a.shape[rank - 2] : a.shape[rank - 1];
    p.lda = a.shape[rank - 1];
    p.a_step = a.shape[rank - 2] * a.shape[rank - 1];
    p.b_step = b.shape[rank - 2] * b.shape[rank - 1];
    p.c_step = p.m * p.n;
  }
  int64_t c_count = 1;
  for (int32_t axis = 0; axis < c.rank; ++axis) c_count *= c.shape[axis];
  if (b_k != p.k || c.shape[c.rank - 1] != p.n || c_count != p.products * p.m * p.n) {
    return false;
  }
  *out = p;
  return true;
}

// "[2, 3]" of a view's shape, for messages.
std::string shape_text(const hx_tensor_view& view) {
  std::string text = "[";
  for (int32_t axis = 0; axis < view.rank; ++axis) {
    text += (axis == 0 ? "" : ", ") + std::to_string(view.shape[axis]);
  }
  return text + "]";
}

}  // namespace

namespace {

hx_status* create_product(const hx_kernel_create_args* args, bool gemm,
                          hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  if (device.facts.max_work_group_size < kTile * kTile) {
    return hxplugin::make_status(
        device.services(), HX_UNIMPLEMENTED,
        "MatMul on %s: its work-groups hold at most %zu items (CL_DEVICE_MAX_WORK_GROUP_SIZE) "
        "and the tiled kernel needs %zu",
        device.facts.name.c_str(), device.facts.max_work_group_size, kTile * kTile);
  }
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<MatMulInstance>(device);
    const hxplugin::KernelCreate create = create_call(*args);
    if (gemm) {
      int64_t trans_a = 0, trans_b = 0;
      double alpha = 1.0, beta = 1.0;
      for (hx_status* status :
           {create.attr_int("transA", &trans_a), create.attr_int("transB", &trans_b),
            create.attr_float("alpha", &alpha), create.attr_float("beta", &beta)}) {
        if (status != nullptr) return status;
      }
      instance->transpose_a = trans_a != 0;
      instance->transpose_b = trans_b != 0;
      instance->alpha = static_cast<cl_float>(alpha);
      instance->beta = static_cast<cl_float>(beta);
    } else {
      if (hx_status* status = create.attr_bool("transpose_a", &instance->transpose_a)) {
        return status;
      }
      if (hx_status* status = create.attr_bool("transpose_b", &instance->transpose_b)) {
        return status;
      }
    }
    const char* name = matmul_kernel_name(instance->transpose_a, instance->transpose_b);
    return finish_instance(std::move(instance), name, out_instance);
  });
}

}  // namespace

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  return create_product(args, false, out_instance);
}

hx_status* gemm_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  return create_product(args, true, out_instance);
}

hx_status* matmul_check(const hx_kernel_args* args) {
  const MatMulInstance& instance = instance_of<MatMulInstance>(*args);
  Products products;
  if (products_of(args->inputs[0], args->inputs[1], args->outputs[0], instance.transpose_a,
                  instance.transpose_b, &products)) {
    return nullptr;
  }
  return hxplugin::make_status(instance.device.services(), HX_UNIMPLEMENTED,
                               "MatMul on OpenCL: matrices, stacks of one batch shape, or a "
                               "stack times a matrix; got ranks %d, %d -> %d",
                               static_cast<int>(args->inputs[0].rank),
                               static_cast<int>(args->inputs[1].rank),
                               static_cast<int>(args->outputs[0].rank));
}

hx_status* matmul_compute(const hx_kernel_args* args) {
  const MatMulInstance& instance = instance_of<MatMulInstance>(*args);
  const hx_tensor_view& a = args->inputs[0];
  const hx_tensor_view& b = args->inputs[1];
  const hx_tensor_view& c = args->outputs[0];
  Products p;
  if (!products_of(a, b, c, instance.transpose_a, instance.transpose_b, &p)) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "MatMul on OpenCL: shapes %s x %s -> %s do not agree, or are "
                                 "a form its check declines",
                                 shape_text(a).c_str(), shape_text(b).c_str(),
                                 shape_text(c).c_str());
  }
  if (p.m == 0 || p.n == 0 || p.products == 0) return nullptr;
  const size_t global[3] = {round_up(p.n), round_up(p.m), static_cast<size_t>(p.products)};
  const size_t local[3] = {kTile, kTile, 1};
  // Gemm's C, its third input.
  const bool bias = args->num_inputs == 3;
  const BiasStrides strides = bias ? bias_strides(args->inputs[2]) : BiasStrides{};
  return Launch(instance, args->stream)
      .run(3, global, local, operand(a), operand(b), operand(c), cl_long{p.m}, cl_long{p.n},
           cl_long{p.k}, cl_long{p.lda}, cl_long{p.ldb}, cl_long{p.a_step},
           cl_long{p.b_step}, cl_long{p.c_step}, instance.alpha,
           bias ? operand(args->inputs[2]) : Operand{nullptr, 0}, strides.row, strides.column,
           instance.beta, cl_int{bias ? 1 : 0});
}

}  // namespace hxopencl
