// MultiHeadAttention of f32: on oneDNN (dnnl/dnnl_attention.cpp) where it has kernels for the
// call and the scores are many enough to pay for its calls (kOneDnnLeastElements), and in loops
// otherwise: each query's scores of a head, their softmax in double, and the weighted sum of
// the values, read at the views' strides.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "dnnl/dnnl_attention.hpp"
#include "kernels/attention_scores.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/parallel_rows.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

constexpr const char* kOp = "MultiHeadAttention";

struct AttentionInstance {
  int64_t heads = 1;
  double scale = 1;
  uint32_t threads = 0;
  mutable hxplugin::BoundedCache<std::vector<int64_t>, AttentionPlan> plans{kPrimitivesKept};
};

// The element of `view` (rank 3) at [b, s, column].
float at(const hx_tensor_view& view, int64_t b, int64_t s, int64_t column) {
  return input_data<float>(view)[b * view.strides[0] + s * view.strides[1] +
                                 column * view.strides[2]];
}

// Every head's scores of one query at a time, from their dot products (scaled, then masked)
// through the softmax to the weighted sum of the values.
void attention_loops(const KernelCall& call, const AttentionExtents& extents, double scale) {
  const hx_tensor_view& q = call.input(0);
  const hx_tensor_view& k = call.input(1);
  const hx_tensor_view& v = call.input(2);
  const hx_tensor_view& y = call.output(0);
  const int64_t rows = extents.batch * extents.heads * extents.queries;
  for_row_ranges(call, rows, extents.scores(), [&](int64_t first, int64_t end) {
    std::vector<float> scores(static_cast<size_t>(extents.keys));
    std::vector<double> sums(static_cast<size_t>(extents.value_size));
    for (int64_t row = first; row < end; ++row) {
      const int64_t s = row % extents.queries;
      const int64_t h = row / extents.queries % extents.heads;
      const int64_t b = row / extents.queries / extents.heads;
      for (int64_t l = 0; l < extents.keys; ++l) {
        double dot = 0;
        for (int64_t d = 0; d < extents.size; ++d) {
          const int64_t column = h * extents.size + d;
          dot += static_cast<double>(at(q, b, s, column)) * at(k, b, l, column);
        }
        scores[static_cast<size_t>(l)] = static_cast<float>(scale * dot);
      }
      add_attention_mask_row(call, extents, b, h, s, scores.data());
      double most = -INFINITY;
      for (float score : scores) most = std::max<double>(most, score);
      double total = 0;
      std::fill(sums.begin(), sums.end(), 0.0);
      for (int64_t l = 0; l < extents.keys; ++l) {
        const double weight = std::exp(scores[static_cast<size_t>(l)] - most);
        total += weight;
        for (int64_t e = 0; e < extents.value_size; ++e) {
          sums[static_cast<size_t>(e)] += weight * at(v, b, l, h * extents.value_size + e);
        }
      }
      float* out = output_data<float>(y) + b * y.strides[0] + s * y.strides[1];
      for (int64_t e = 0; e < extents.value_size; ++e) {
        out[(h * extents.value_size + e) * y.strides[2]] =
            extents.keys == 0 ? 0.0f : static_cast<float>(sums[static_cast<size_t>(e)] / total);
      }
    }
  });
}

}  // namespace

AttentionExtents attention_extents(const KernelCall& call, int64_t heads) {
  const hx_tensor_view& q = call.input(0);
  const hx_tensor_view& k = call.input(1);
  const hx_tensor_view& v = call.input(2);
  return {q.shape[0], q.shape[1], k.shape[1], heads, q.shape[2] / heads, v.shape[2] / heads};
}

hx_status* attention_create(const hx_kernel_create_args* args,
                            hx_kernel_instance** out_instance) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  auto instance = std::make_unique<AttentionInstance>();
  instance->threads = plugin.intra_op_threads;
  if (hx_status* status = create.attr_int("num_heads", &instance->heads)) return status;
  if (hx_status* status = create.attr_float("scale", &instance->scale)) return status;
  if (instance->heads < 1) {
    return create.error(HX_INVALID_ARGUMENT, "%s: num_heads is %lld; it is 1 or more", kOp,
                        static_cast<long long>(instance->heads));
  }
  *out_instance = hxplugin::to_instance(instance.release());
  return nullptr;
}

void attention_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<AttentionInstance>(instance, user_data);
}

hx_status* attention_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const AttentionInstance& instance = hxplugin::instance_of<AttentionInstance>(call.instance());
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    const hx_tensor_view& input = call.input(i);
    if (input.dtype != HX_DTYPE_F32 || (i < 3 && input.rank != 3) || input.rank > 4) {
      return call.error(HX_INVALID_ARGUMENT,
                        "%s: input %zu is %s of rank %d; the CPU kernel takes f32 Q, K and V "
                        "of rank 3 and a mask of rank 4 at most",
                        kOp, i, hx_dtype_name(input.dtype), static_cast<int>(input.rank));
    }
  }
  const AttentionExtents extents = attention_extents(call, instance.heads);
  if (extents.batch == 0 || extents.queries == 0 || extents.value_size == 0) return nullptr;
  const bool on_onednn = extents.keys > 0 && extents.size > 0 &&
                         extents.scores() >= kOneDnnLeastElements;
  if (on_onednn) {
    try {
      const std::shared_ptr<const AttentionPlan> plan = instance.plans.get(shapes_key(call), [&] {
        return prepare_dnnl_attention(call, extents, instance.scale, instance.threads);
      });
      if (plan->scores) return run_dnnl_attention(call, *plan, extents, instance.threads);
    } catch (const dnnl::error& error) {
      return dnnl_error(call, kOp, error);
    }
  }
  attention_loops(call, extents, instance.scale);
  return nullptr;
}

}  // namespace hxcpu
