// The normalizations of ONNX: BatchNormalization with given statistics (inference) or the
// batch's own (training mode, which also gives the running statistics), LayerNormalization and
// InstanceNormalization with statistics of the input itself.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void require_channel_vector(const InferContext& call, size_t input, const char* name,
                            int64_t channels) {
  const Shape& shape = call.inputs[input].shape;
  if (shape != Shape{channels}) {
    reject_call(call, std::string("input ") + name + " has shape " + shape.to_string() +
                          "; it holds one value per channel of X: [" +
                          std::to_string(channels) + "]");
  }
}

void require_epsilon(const InferContext& call) {
  const double epsilon = attr_float(call, "epsilon", 1e-5);
  if (!(epsilon >= 0)) {
    reject_call(call, "attribute 'epsilon' is " + std::to_string(epsilon) +
                          "; it is added to a variance and must be at least 0");
  }
}

void same_as_x(const InferContext& call, TensorMeta* outputs) {
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = call.inputs[0].shape;
}

void infer_batch_norm(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  require_epsilon(call);
  const double momentum = attr_float(call, "momentum", 0.9);
  if (!std::isfinite(momentum)) {
    reject_call(call, "attribute 'momentum' is " + std::to_string(momentum) +
                          "; it weighs the running statistics and must be finite");
  }
  const int64_t training_mode = attr_int(call, "training_mode", 0);
  if (training_mode != 0 && training_mode != 1) {
    reject_call(call, "attribute 'training_mode' is " + std::to_string(training_mode) +
                          "; it is 0 (inference, with the given statistics) or 1 (training, "
                          "with the batch's)");
  }
  const Shape& x = call.inputs[0].shape;
  if (x.rank() < 2) {
    reject_call(call, "input X has shape " + x.to_string() + "; it is [N, C, ...], rank >= 2");
  }
  const char* names[] = {"scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) require_channel_vector(call, i, names[i - 1], x[1]);
  if (training_mode == 1 && x.num_elements() == 0) {
    reject_call(call, "input X has shape " + x.to_string() +
                          "; training mode takes the mean and variance of its elements, and it "
                          "has none");
  }
  same_as_x(call, outputs);
  outputs[1] = {call.inputs[0].dtype, Shape{x[1]}};
  outputs[2] = outputs[1];
}

// LayerNormalization's axis, within [0, rank).
int64_t layer_axis(const InferContext& call) {
  const int rank = call.inputs[0].shape.rank();
  const int64_t axis = attr_int(call, "axis", -1);
  if (axis < -rank || axis >= rank) {
    reject_call(call, "attribute 'axis' is " + std::to_string(axis) + " for X of rank " +
                          std::to_string(rank) + "; it is in [" + std::to_string(-rank) + ", " +
                          std::to_string(rank) + ")");
  }
  return axis < 0 ? axis + rank : axis;
}

// The dtype of LayerNormalization's Mean and InvStdDev: ONNX's element type `stash_type`,
// which its type constraint U allows to be float (1) or bfloat16 (16).
DType stash_dtype(const InferContext& call) {
  const int64_t stash_type = attr_int(call, "stash_type", 1);
  if (stash_type == 1) return DType::kF32;
  if (stash_type == 16) return DType::kBF16;
  reject_call(call, "attribute 'stash_type' is " + std::to_string(stash_type) +
                        "; it is ONNX's element type of Mean and InvStdDev: 1 (float) or 16 "
                        "(bfloat16)");
}

void infer_layer_norm(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  require_epsilon(call);
  const DType stash = stash_dtype(call);
  const Shape& x = call.inputs[0].shape;
  if (x.rank() < 1) reject_call(call, "input X is a scalar; it needs an axis to normalize");
  const int64_t axis = layer_axis(call);
  const Shape normalized(x.data() + axis, x.rank() - static_cast<int>(axis));
  const char* names[] = {"Scale", "B"};
  for (size_t i = 1; i < call.num_inputs; ++i) {
    const Shape& shape = call.inputs[i].shape;
    bool fits = shape.rank() <= normalized.rank();
    for (int a = 0; fits && a < shape.rank(); ++a) {
      const int64_t extent = shape[a];
      fits = extent == 1 || extent == normalized[a + normalized.rank() - shape.rank()];
    }
    if (!fits) {
      reject_call(call, std::string("input ") + names[i - 1] + " has shape " +
                            shape.to_string() + ", which does not broadcast to the normalized "
                            "shape " + normalized.to_string() + " (X's axes from axis " +
                            std::to_string(axis) + ")");
    }
  }
  same_as_x(call, outputs);
  // Mean and InvStdDev: one value per normalized run, X's shape with the axes from `axis` 1.
  std::vector<int64_t> statistics(x.data(), x.data() + x.rank());
  std::fill(statistics.begin() + axis, statistics.end(), int64_t{1});
  for (int i = 1; i < 3; ++i) {
    outputs[i].dtype = stash;
    outputs[i].shape = Shape(statistics);
  }
}

void infer_instance_norm(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  require_epsilon(call);
  const Shape& x = call.inputs[0].shape;
  if (x.rank() < 3) {
    reject_call(call, "input X has shape " + x.to_string() +
                          "; it is [N, C, D1, ...] with at least one spatial axis");
  }
  require_channel_vector(call, 1, "scale", x[1]);
  require_channel_vector(call, 2, "B", x[1]);
  same_as_x(call, outputs);
}

OpAttrInfo epsilon_attr() {
  return {"epsilon", AttrType::kFloat, false, AttrValue(1e-5),
          "added to the variance before its square root"};
}

}  // namespace

void add_norm_ops(OpRegistry& registry) {
  const std::vector<DType>& floating = floating_dtypes();
  // Always three outputs, as LayerNormalization: in inference mode the running statistics are
  // the given ones, which costs two copies of C values and spares every caller a count that
  // depends on an attribute.
  OpSchema batch{"BatchNormalization", 5, 5, 3, infer_batch_norm, ""};
  batch.summary =
      "Y = (X - mean) / sqrt(var + epsilon) * scale + B per channel (axis 1), "
      "with the given statistics (inference), or in training mode with the "
      "batch's mean and (population) variance over every axis but 1, which also "
      "gives the running statistics: input_mean * momentum + mean * (1 - "
      "momentum), and the same of the variances.";
  batch.inputs = {
      {"X", "T", floating, "[N, C, ...]", false},
      {"scale", "T", floating, "[C]", false},
      {"B", "T", floating, "[C]", false},
      {"input_mean", "T", floating, "[C]", false},
      {"input_var", "T", floating, "[C]", false},
  };
  batch.outputs = {
      {"Y", "T", floating, "X's shape", false},
      {"running_mean", "T", floating,
       "[C]: in training mode the running mean, in inference input_mean", false},
      {"running_var", "T", floating,
       "[C]: in training mode the running variance, in inference input_var", false},
  };
  batch.attrs = {epsilon_attr(),
                 {"momentum", AttrType::kFloat, false, AttrValue(0.9),
                  "the weight of the given statistics in the running ones (training mode); "
                  "no effect in inference"},
                 {"training_mode", AttrType::kInt, false, AttrValue(int64_t{0}),
                  "0: inference, with the given statistics, one output; 1: training, with "
                  "the batch's, three outputs"}};
  batch.shape_rule =
      "X has rank >= 2 (and elements, in training mode); scale, B, input_mean "
      "and input_var are [C], all of X's dtype; Y has X's shape, running_mean "
      "and running_var are [C].";
  batch.reference_cases = batch_norm_cases;
  batch.onnx.versions = {15};
  registry.add(std::move(batch));

  OpSchema layer{"LayerNormalization", 2, 3, 3, infer_layer_norm, ""};
  layer.summary = "Normalizes X over its axes from `axis` on: Y = (X - mean) / sqrt(var + "
                  "epsilon) * Scale + B, with the mean and 1 / sqrt(var + epsilon) of each "
                  "normalized run.";
  layer.inputs = {
      {"X", "T", floating, "any shape of rank >= 1", false},
      {"Scale", "T", floating, "broadcasts to X's shape from axis on", false},
      {"B", "T", floating, "optional: broadcasts to X's shape from axis on", false},
  };
  const std::vector<DType> stash_dtypes = {DType::kF32, DType::kBF16};
  layer.outputs = {
      {"Y", "T", floating, "X's shape", false},
      {"Mean", "stash_type", stash_dtypes, "X's shape with the axes from axis on 1", false},
      {"InvStdDev", "stash_type", stash_dtypes,
       "1 / sqrt(var + epsilon), of Mean's shape", false},
  };
  layer.attrs = {{"axis", AttrType::kInt, false, AttrValue(int64_t{-1}),
                  "the first normalized axis; negative counts from the end"},
                 epsilon_attr(),
                 {"stash_type", AttrType::kInt, false, AttrValue(int64_t{1}),
                  "ONNX's element type of Mean and InvStdDev: 1 (float32) or 16 (bfloat16). "
                  "The statistics are computed in double whatever it says"}};
  layer.shape_rule = "axis is in [-rank, rank); Scale and B broadcast one way to X's shape "
                     "from axis on; Y has X's shape; Mean and InvStdDev have X's shape with "
                     "the axes from axis on 1, of stash_type's dtype.";
  layer.reference_cases = layer_norm_cases;
  layer.onnx.versions = {17};
  registry.add(std::move(layer));

  OpSchema instance{"InstanceNormalization", 3, 3, 1, infer_instance_norm, ""};
  instance.summary = "Normalizes each channel of each item over its spatial axes: Y = (X - "
                     "mean) / sqrt(var + epsilon) * scale + B, scale and B per channel.";
  instance.inputs = {
      {"X", "T", floating, "[N, C, D1, ...]", false},
      {"scale", "T", floating, "[C]", false},
      {"B", "T", floating, "[C]", false},
  };
  instance.outputs = {{"Y", "T", floating, "X's shape", false}};
  instance.attrs = {epsilon_attr()};
  instance.shape_rule = "X has rank >= 3; scale and B are [C]; Y has X's shape.";
  instance.reference_cases = instance_norm_cases;
  instance.onnx.versions = {6};
  registry.add(std::move(instance));
}

}  // namespace hxrt::detail
