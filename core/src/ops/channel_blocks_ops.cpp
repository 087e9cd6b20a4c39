// BlockedConv, BlockedMaxPool and BlockedGlobalAveragePool (ops/channel_blocks.hpp): their
// base op's schema and shape inference on the plain shapes, with X and Y in blocks of
// channels. Ops of the core's own, not importable: the block_channels pass makes them.
#include <algorithm>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/builtin_registry.hpp"
#include "ops/channel_blocks.hpp"
#include "ops/fused_activation.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

Shape blocked_shape(const Shape& plain, int64_t block) {
  return Shape{plain[0], (plain[1] + block - 1) / block, plain[2], plain[3], block};
}

namespace {

// Blocks of channels are a layout of the vector units' floats: f32 alone.
const std::vector<DType> kBlockedDtypes = {DType::kF32};

// A blocked X's block and its plain shape with `channels` channels; rejects a malformed one.
int64_t block_of(const InferContext& call, const Shape& x) {
  if (x.rank() != 5 || x[4] < 1) {
    reject_call(call, "input X has shape " + x.to_string() +
                          "; in blocks of channels it is [N, C / b, H, W, b]");
  }
  return x[4];
}

// The base op's inference on `inputs` (X plain), then Y in blocks unless plain_output.
void infer_as(const InferContext& call, const char* base_op, TensorMeta* inputs,
              int64_t block, int64_t channels_out, TensorMeta* outputs) {
  require_inputs_in(call, kBlockedDtypes);
  const OpSchema& base = *builtin_registry().find(base_op);
  TensorMeta base_outputs[2];
  const InferContext base_call{call.op, inputs, call.num_inputs, call.attrs, &base, 1};
  base.infer(base_call, base_outputs);
  outputs[0] = base_outputs[0];
  if (base_outputs[0].shape.rank() != 4) {
    reject_call(call, "takes 2-D images: X of rank 4 in plain channels, 5 in blocks");
  }
  const Shape& y = base_outputs[0].shape;
  const Shape plain{y[0], channels_out, y[2], y[3]};
  outputs[0].shape = attr_int(call, "plain_output", 0) != 0 ? plain : blocked_shape(plain, block);
}

void infer_blocked_conv(const InferContext& call, TensorMeta* outputs) {
  if (call.num_inputs < 2) reject_call(call, "takes X, W and an optional B");
  TensorMeta inputs[3] = {call.inputs[0], call.inputs[1],
                          call.num_inputs > 2 ? call.inputs[2] : TensorMeta{}};
  const Shape& w = inputs[1].shape;
  if (w.rank() != 4) reject_call(call, "input W has shape " + w.to_string() + "; [M, C/g, kh, kw]");
  const int64_t block = attr_int(call, "block", kChannelBlock);
  if (block < 1) reject_call(call, "attribute 'block' is " + std::to_string(block) + "; >= 1");
  const Shape x = inputs[0].shape;
  if (x.rank() == 5) {
    if (block_of(call, x) != block) {
      reject_call(call, "X is in blocks of " + std::to_string(x[4]) + " channels and Y is to "
                        "be in blocks of " + std::to_string(block) + "; one block for both");
    }
    const int64_t channels = w[1] * attr_int(call, "group", 1);
    if ((channels + block - 1) / block != x[1]) {
      reject_call(call, "X holds " + std::to_string(x[1]) + " blocks of " +
                            std::to_string(block) + " channels and W reads " +
                            std::to_string(channels) + " channels");
    }
    inputs[0].shape = Shape{x[0], channels, x[2], x[3]};
  }
  if (call.attrs.find("activation") != nullptr) check_fused_activation(call);
  infer_as(call, "Conv", inputs, block, w[0], outputs);
}

void infer_blocked_pool(const InferContext& call, const char* base_op, TensorMeta* outputs) {
  TensorMeta x = call.inputs[0];
  const int64_t block = block_of(call, x.shape);
  required_attr(call, "channels", "an int");
  const int64_t channels = attr_int(call, "channels", 0);
  if (channels < 1 || (channels + block - 1) / block != x.shape[1]) {
    reject_call(call, "attribute 'channels' is " + std::to_string(channels) + " and X holds " +
                          std::to_string(x.shape[1]) + " blocks of " + std::to_string(block) +
                          "; channels is the count before blocking");
  }
  x.shape = Shape{x.shape[0], channels, x.shape[2], x.shape[3]};
  infer_as(call, base_op, &x, block, channels, outputs);
}

void infer_blocked_max_pool(const InferContext& call, TensorMeta* outputs) {
  infer_blocked_pool(call, "MaxPool", outputs);
}
void infer_blocked_global_average_pool(const InferContext& call, TensorMeta* outputs) {
  infer_blocked_pool(call, "GlobalAveragePool", outputs);
}

const OpAttrInfo kPlainOutput{"plain_output", AttrType::kInt, false, AttrValue(int64_t{0}),
                              "1: Y in plain channels [N, C, H, W], for a reader that is no "
                              "blocked op; 0: in blocks, as X"};

// `base` with X and Y in blocks of channels, and the attributes that say how.
OpSchema blocked_schema(const OpSchema& base, const std::string& name, InferFn infer,
                        ReferenceCasesFn cases) {
  OpSchema schema = base;
  schema.name = name;
  schema.infer = infer;
  schema.num_outputs = 1;
  schema.output_count = nullptr;
  schema.outputs.resize(1);
  schema.attrs.erase(std::remove_if(schema.attrs.begin(), schema.attrs.end(),
                                    [](const OpAttrInfo& attr) {
                                      return attr.name == "num_outputs" ||
                                             attr.name == "storage_order";
                                    }),
                     schema.attrs.end());
  schema.attrs.push_back(kPlainOutput);
  for (OpArgInfo& input : schema.inputs) input.dtypes = {DType::kF32};
  schema.inputs[0].description = "[N, C / b, H, W, b]: 2-D images in blocks of b channels";
  schema.outputs[0].dtypes = {DType::kF32};
  schema.outputs[0].description = "in blocks of b channels as X, or plain (plain_output)";
  schema.summary = base.name + " of 2-D images whose channels come in blocks of b, [N, C / b, "
                   "H, W, b] with the channels past C zero (ops/channel_blocks.hpp): what the "
                   "block_channels pass makes of chains of convolutions and pools, on devices "
                   "whose plugins register " + name + ".";
  schema.shape_rule = base.shape_rule + " On the plain shapes; Y in blocks keeps the padding "
                      "channels zero.";
  schema.reference_cases = cases;
  schema.onnx = {};
  return schema;
}

}  // namespace

void add_channel_block_ops(OpRegistry& registry) {
  const OpSchema& fused_conv = *registry.find("FusedConv");
  OpSchema conv = blocked_schema(fused_conv, "BlockedConv", infer_blocked_conv,
                                 blocked_conv_cases);
  conv.inputs[0].description = "[N, C, H, W] in plain channels (a first layer's image) or "
                               "[N, C / b, H, W, b] in blocks";
  for (OpAttrInfo& attr : conv.attrs) {
    if (attr.name == "activation") attr.required = false;  // none: a plain Conv
  }
  conv.attrs.push_back({"block", AttrType::kInt, false, AttrValue(kChannelBlock),
                        "b: the channels in a block of Y, and of X when X is blocked"});
  registry.add(std::move(conv));
  const OpAttrInfo channels{"channels", AttrType::kInt, true, std::nullopt,
                            "C: X's channels before blocking"};
  OpSchema max_pool = blocked_schema(*registry.find("MaxPool"), "BlockedMaxPool",
                                     infer_blocked_max_pool, blocked_max_pool_cases);
  max_pool.attrs.push_back(channels);
  registry.add(std::move(max_pool));
  OpSchema average = blocked_schema(*registry.find("GlobalAveragePool"),
                                    "BlockedGlobalAveragePool",
                                    infer_blocked_global_average_pool,
                                    blocked_global_average_pool_cases);
  average.attrs.push_back(channels);
  registry.add(std::move(average));
}

}  // namespace hxrt::detail
