// Reference cases of the blocked ops (ops/channel_blocks.hpp): their base op's cases on 2-D
// images, with X, Y or both in blocks of 16 channels.
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/channel_blocks.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {

ReferenceTensor to_channel_blocks(const ReferenceTensor& plain, int64_t block) {
  const Shape& shape = plain.shape;
  ReferenceTensor blocked{plain.dtype, blocked_shape(shape, block), {}};
  const int64_t pixels = shape[2] * shape[3];
  const int64_t blocks = blocked.shape[1];
  blocked.values.assign(static_cast<size_t>(shape[0] * blocks * pixels * block), 0.0);
  for (int64_t n = 0; n < shape[0]; ++n) {
    for (int64_t c = 0; c < shape[1]; ++c) {
      for (int64_t p = 0; p < pixels; ++p) {
        const int64_t to = ((n * blocks + c / block) * pixels + p) * block + c % block;
        blocked.values[static_cast<size_t>(to)] =
            plain.values[static_cast<size_t>((n * shape[1] + c) * pixels + p)];
      }
    }
  }
  return blocked;
}

ReferenceTensor from_channel_blocks(const ReferenceTensor& blocked, int64_t channels) {
  const Shape& shape = blocked.shape;
  const int64_t block = shape[4];
  const int64_t pixels = shape[2] * shape[3];
  ReferenceTensor plain{blocked.dtype, Shape{shape[0], channels, shape[2], shape[3]}, {}};
  plain.values.resize(static_cast<size_t>(shape[0] * channels * pixels));
  for (int64_t n = 0; n < shape[0]; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t p = 0; p < pixels; ++p) {
        const int64_t from = ((n * shape[1] + c / block) * pixels + p) * block + c % block;
        plain.values[static_cast<size_t>((n * channels + c) * pixels + p)] =
            blocked.values[static_cast<size_t>(from)];
      }
    }
  }
  return plain;
}

namespace {

// The base cases on 2-D images of one output, each with X in blocks, and (`plain_output`
// cases aside) Y in blocks too; `channels`: set the pools' attribute.
std::vector<ReferenceCase> blocked_cases(const std::vector<ReferenceCase>& base,
                                         bool channels, bool plain_x_too) {
  std::vector<ReferenceCase> cases;
  for (const ReferenceCase& call : base) {
    const Attrs& attrs = call.attrs;
    const AttrValue* outputs = attrs.find("num_outputs");
    const bool indices = outputs != nullptr && std::get<int64_t>(*outputs) != 1;
    if (call.inputs[0].shape.rank() != 4 || indices) continue;
    ReferenceCase blocked = call;
    blocked.attrs = Attrs();
    for (const auto& [name, value] : attrs.items()) {
      if (name != "num_outputs" && name != "storage_order") blocked.attrs.set(name, value);
    }
    if (channels) blocked.attrs.set("channels", call.inputs[0].shape[1]);
    const ReferenceTensor blocked_y = to_channel_blocks(call.expected, kChannelBlock);
    // X in blocks: Y in blocks, and Y plain.
    blocked.inputs[0] = to_channel_blocks(call.inputs[0], kChannelBlock);
    blocked.expected = blocked_y;
    cases.push_back(blocked);
    ReferenceCase plain_y = blocked;
    plain_y.attrs.set("plain_output", int64_t{1});
    plain_y.expected = call.expected;
    cases.push_back(std::move(plain_y));
    // X plain (a first convolution's image), Y in blocks.
    if (plain_x_too) {
      ReferenceCase plain_x = blocked;
      plain_x.inputs[0] = call.inputs[0];
      cases.push_back(std::move(plain_x));
    }
  }
  return cases;
}

}  // namespace

std::vector<ReferenceCase> blocked_conv_cases(DType type, DType output_type,
                                              RandomValues& random) {
  std::vector<ReferenceCase> cases = blocked_cases(conv_cases(type, output_type, random), false,
                                                   true);
  for (ReferenceCase& fused :
       blocked_cases(fused_conv_cases(type, output_type, random), false, true)) {
    cases.push_back(std::move(fused));
  }
  return cases;
}

std::vector<ReferenceCase> blocked_max_pool_cases(DType type, DType output_type,
                                                  RandomValues& random) {
  return blocked_cases(max_pool_cases(type, output_type, random), true, false);
}

std::vector<ReferenceCase> blocked_global_average_pool_cases(DType type, DType output_type,
                                                             RandomValues& random) {
  return blocked_cases(global_average_pool_cases(type, output_type, random), true, false);
}

}  // namespace hxrt::detail
