// The layout family's kernels: Pad (every mode), and DepthToSpace and SpaceToDepth as strided
// views of their input (strided_copy.hpp). Elements move by size, whatever their dtype.
#include <hxplugin/kernel_create.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernels.hpp"
#include "kernels/strided_copy.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

// The attributes as given: negative axes need the call's rank, so they are resolved per call.
struct PadInstance {
  PadMode mode = PadMode::kConstant;
  size_t count = 0;  // padded axes
  bool axes_given = false;
  int64_t axes[HX_MAX_RANK] = {};
  int64_t begins[HX_MAX_RANK] = {};
  int64_t ends[HX_MAX_RANK] = {};
  unsigned char constant[8] = {};  // constant_value converted to the input's dtype
};

int64_t modulo(int64_t value, int64_t period) { return (value % period + period) % period; }

// Where output position `at` of an axis reads from: an input position, or -1 for the
// constant. Negative pads crop what the padding of the whole input gives.
int64_t pad_source(int64_t at, int64_t begin, int64_t extent, PadMode mode) {
  const int64_t from = at - begin;
  if (from >= 0 && from < extent) return from;
  switch (mode) {
    case PadMode::kEdge: return from < 0 ? 0 : extent - 1;
    case PadMode::kWrap: return modulo(from, extent);
    case PadMode::kReflect: {
      if (extent == 1) return 0;
      const int64_t period = 2 * (extent - 1);  // there and back, without repeating the edges
      const int64_t phase = modulo(from, period);
      return phase < extent ? phase : period - phase;
    }
    case PadMode::kConstant: break;
  }
  return -1;
}

// The output row by row along its last axis; sources[d][i] is where output position i of axis
// d reads from (-1: the constant).
template <class Element>
void pad_rows(const hx_tensor_view& in, const hx_tensor_view& out,
              const std::vector<std::vector<int64_t>>& sources, const unsigned char* constant) {
  Element fill;
  std::memcpy(&fill, constant, sizeof fill);
  const Element* source = input_data<Element>(in);
  Element* target = output_data<Element>(out);
  const int rank = out.rank;
  if (rank == 0) {
    *target = *source;
    return;
  }
  const int inner = rank - 1;
  const int64_t length = out.shape[inner];
  const int64_t step = in.strides[inner];
  const int64_t* columns = sources[static_cast<size_t>(inner)].data();
  int64_t rows = 1;
  for (int d = 0; d < inner; ++d) rows *= out.shape[d];
  int64_t at[HX_MAX_RANK] = {};
  for (int64_t row = 0; row < rows; ++row, target += length) {
    bool constant_row = false;
    int64_t base = 0;
    for (int d = 0; d < inner; ++d) {
      const int64_t from = sources[static_cast<size_t>(d)][static_cast<size_t>(at[d])];
      constant_row = constant_row || from < 0;
      base += from * in.strides[d];
    }
    for (int64_t i = 0; i < length; ++i) {
      target[i] = constant_row || columns[i] < 0 ? fill : source[base + columns[i] * step];
    }
    for (int d = inner - 1; d >= 0; --d) {
      if (++at[d] < out.shape[d]) break;
      at[d] = 0;
    }
  }
}

struct BlockInstance {
  int64_t block = 1;
  bool crd = false;  // DepthToSpace's mode
};

hx_status* block_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance,
                        bool with_mode) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  BlockInstance instance;
  if (hx_status* status = create.attr_int("blocksize", &instance.block)) return status;
  const char* mode = "DCR";
  if (with_mode) {
    if (hx_status* status = create.attr_string("mode", &mode)) return status;
  }
  if (instance.block < 1 || instance.block > (int64_t{1} << 31)) {
    return create.error(HX_INVALID_ARGUMENT, "blocksize %lld is not from 1 to 2^31",
                        static_cast<long long>(instance.block));
  }
  instance.crd = std::string(mode) == "CRD";
  *out_instance = hxplugin::to_instance(new BlockInstance(instance));
  return nullptr;
}

bool has_shape(const hx_tensor_view& view, const int64_t (&shape)[4]) {
  if (view.rank != 4) return false;
  for (int d = 0; d < 4; ++d) {
    if (view.shape[d] != shape[d]) return false;
  }
  return true;
}

hx_status* wrong_blocks(const KernelCall& call, const char* op) {
  return call.error(HX_INVALID_ARGUMENT,
                    "%s: the input and output are not [N, C, H, W] shapes the blocksize relates",
                    op);
}

}  // namespace

hx_status* pad_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const int64_t* pads = nullptr;
  size_t pad_count = 0;
  bool given = false;
  if (hx_status* status = create.attr_ints("pads", &pads, &pad_count, &given)) return status;
  const int64_t* axes = nullptr;
  size_t axis_count = 0;
  PadInstance instance;
  if (hx_status* status = create.attr_ints("axes", &axes, &axis_count, &instance.axes_given)) {
    return status;
  }
  instance.count = pad_count / 2;
  if (pad_count % 2 != 0 || instance.count > HX_MAX_RANK ||
      (instance.axes_given && axis_count != instance.count)) {
    return create.error(HX_INVALID_ARGUMENT,
                        "Pad: pads needs 2 entries per padded axis, at most %d axes",
                        HX_MAX_RANK);
  }
  for (size_t i = 0; i < instance.count; ++i) {
    instance.begins[i] = pads[i];
    instance.ends[i] = pads[i + instance.count];
    instance.axes[i] = instance.axes_given ? axes[i] : static_cast<int64_t>(i);
  }
  const char* mode = "constant";
  if (hx_status* status = create.attr_string("mode", &mode)) return status;
  const std::string name = mode;
  if (name == "reflect") {
    instance.mode = PadMode::kReflect;
  } else if (name == "edge") {
    instance.mode = PadMode::kEdge;
  } else if (name == "wrap") {
    instance.mode = PadMode::kWrap;
  } else if (name != "constant") {
    return create.error(HX_INVALID_ARGUMENT, "Pad: unknown mode \"%s\"", mode);
  }
  double value = 0;
  if (hx_status* status = create.attr_float("constant_value", &value)) return status;
  const auto convert = [&](auto tag) -> hx_status* {
    const auto element = convert_element<typename decltype(tag)::type>(value);
    static_assert(sizeof element <= sizeof instance.constant, "an element fits the instance");
    std::memcpy(instance.constant, &element, sizeof element);
    return nullptr;
  };
  if (hx_status* status = visit_any(create.input_dtype(0), convert, [&] {
        return create.error(HX_INVALID_ARGUMENT, "Pad: unknown dtype %d",
                            static_cast<int>(create.input_dtype(0)));
      })) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new PadInstance(instance));
  return nullptr;
}

void pad_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<PadInstance>(instance, user_data);
}

hx_status* pad_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const PadInstance& instance = hxplugin::instance_of<PadInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int rank = in.rank;
  int64_t begins[HX_MAX_RANK] = {};
  int64_t ends[HX_MAX_RANK] = {};
  bool matches = out.rank == rank && out.dtype == in.dtype &&
                 (instance.axes_given || instance.count == static_cast<size_t>(rank));
  for (size_t i = 0; matches && i < instance.count; ++i) {
    const int64_t axis = instance.axes[i] < 0 ? instance.axes[i] + rank : instance.axes[i];
    matches = axis >= 0 && axis < rank;
    if (matches) {
      begins[axis] = instance.begins[i];
      ends[axis] = instance.ends[i];
    }
  }
  for (int d = 0; matches && d < rank; ++d) {
    matches = out.shape[d] == in.shape[d] + begins[d] + ends[d] &&
              (in.shape[d] != 0 || out.shape[d] == 0 || instance.mode == PadMode::kConstant);
  }
  if (!matches) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Pad: the output is not the input padded as pads, axes and mode say");
  }
  if (element_count(out) == 0) return nullptr;
  std::vector<std::vector<int64_t>> sources(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    for (int64_t at = 0; at < out.shape[d]; ++at) {
      sources[static_cast<size_t>(d)].push_back(
          pad_source(at, begins[d], in.shape[d], instance.mode));
    }
  }
  switch (hx_dtype_size(in.dtype)) {
    case 1: pad_rows<uint8_t>(in, out, sources, instance.constant); break;
    case 2: pad_rows<uint16_t>(in, out, sources, instance.constant); break;
    case 4: pad_rows<uint32_t>(in, out, sources, instance.constant); break;
    default: pad_rows<uint64_t>(in, out, sources, instance.constant); break;
  }
  return nullptr;
}

hx_status* depth_to_space_create(const hx_kernel_create_args* args,
                                 hx_kernel_instance** out_instance) {
  return block_create(args, out_instance, true);
}

hx_status* space_to_depth_create(const hx_kernel_create_args* args,
                                 hx_kernel_instance** out_instance) {
  return block_create(args, out_instance, false);
}

void block_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<BlockInstance>(instance, user_data);
}

// y[n, c, h*b + i, w*b + j] from channel (i*b + j) * C' + c (DCR) or c*b^2 + i*b + j (CRD):
// the view walks y's order n, c, h, i, w, j through x.
hx_status* depth_to_space_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const BlockInstance& instance = hxplugin::instance_of<BlockInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const int64_t b = instance.block;
  if (in.rank != 4 || in.shape[1] % (b * b) != 0) return wrong_blocks(call, "DepthToSpace");
  const int64_t* s = in.strides;
  const int64_t channels = in.shape[1] / (b * b);
  if (!has_shape(call.output(0), {in.shape[0], channels, in.shape[2] * b, in.shape[3] * b})) {
    return wrong_blocks(call, "DepthToSpace");
  }
  StridedView view;
  view.push(in.shape[0], s[0]);
  view.push(channels, instance.crd ? b * b * s[1] : s[1]);
  view.push(in.shape[2], s[2]);
  view.push(b, instance.crd ? b * s[1] : b * channels * s[1]);
  view.push(in.shape[3], s[3]);
  view.push(b, instance.crd ? s[1] : channels * s[1]);
  return write_view(call, "DepthToSpace", view);
}

// y[n, (i*b + j) * C + c, h, w] = x[n, c, h*b + i, w*b + j]: the view walks y's order
// n, i, j, c, h, w through x.
hx_status* space_to_depth_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const BlockInstance& instance = hxplugin::instance_of<BlockInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const int64_t b = instance.block;
  if (in.rank != 4 || in.shape[2] % b != 0 || in.shape[3] % b != 0) {
    return wrong_blocks(call, "SpaceToDepth");
  }
  const int64_t* s = in.strides;
  if (!has_shape(call.output(0),
                 {in.shape[0], in.shape[1] * b * b, in.shape[2] / b, in.shape[3] / b})) {
    return wrong_blocks(call, "SpaceToDepth");
  }
  StridedView view;
  view.push(in.shape[0], s[0]);
  view.push(b, s[2]);
  view.push(b, s[3]);
  view.push(in.shape[1], s[1]);
  view.push(in.shape[2] / b, b * s[2]);
  view.push(in.shape[3] / b, b * s[3]);
  return write_view(call, "SpaceToDepth", view);
}

}  // namespace hxcpu
