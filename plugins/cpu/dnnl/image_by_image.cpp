#include "dnnl/image_by_image.hpp"

#include <algorithm>
#include <vector>

#include "dnnl/dnnl_primitives.hpp"
#include "dnnl/openmp_ranges.hpp"

namespace hxcpu {

bool FasterWay::next_by_image(bool* timed) {
  const int chosen = chosen_.load(std::memory_order_acquire);
  *timed = chosen == kUndecided;
  if (!*timed) return chosen == 1;
  std::lock_guard<std::mutex> lock(mutex_);
  return trials_[1] < trials_[0];  // alternating, the whole batch first
}

void FasterWay::record(bool by_image, std::chrono::nanoseconds took) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (chosen_.load(std::memory_order_relaxed) != kUndecided) return;
  const int way = by_image ? 1 : 0;
  ++trials_[way];
  fastest_[way] = std::min(fastest_[way], took);
  if (trials_[0] >= kTrials && trials_[1] >= kTrials) {
    chosen_.store(fastest_[1] < fastest_[0] ? 1 : 0, std::memory_order_release);
  }
}

namespace {

// One image of a layout whose outermost axis is the batch: its strides are the batch's
// (image_by_image checks the sizes agree).
dnnl::memory::desc one_image(const dnnl::memory::desc& batch) {
  dnnl_memory_desc_t data = batch.data;
  data.dims[0] = 1;
  data.padded_dims[0] = 1;
  return dnnl::memory::desc(data);
}

}  // namespace

std::shared_ptr<const ImageByImage> image_by_image(
    const dnnl::convolution_forward::primitive_desc& batch,
    const ConvolutionFor& convolution_for) {
  const dnnl::memory::desc batch_src = batch.src_desc();
  const dnnl::memory::desc batch_dst = batch.dst_desc();
  const int64_t images = batch_src.dims()[0];
  if (images < 2) return nullptr;
  auto split = std::make_shared<ImageByImage>();
  try {
    const dnnl::convolution_forward::primitive_desc single =
        convolution_for(one_image(batch_src), batch.weights_desc(), one_image(batch_dst));
    split->src = single.src_desc();
    split->dst = single.dst_desc();
    split->scratchpad = single.scratchpad_desc();
    const auto whole = static_cast<size_t>(images);
    if (split->src.get_size() * whole != batch_src.get_size() ||
        split->dst.get_size() * whole != batch_dst.get_size() ||
        single.weights_desc() != batch.weights_desc()) {
      return nullptr;
    }
    split->primitive = dnnl::convolution_forward(single);
  } catch (const dnnl::error&) {
    return nullptr;  // no primitive for one image in those layouts: the batch's alone
  }
  split->images = images;
  return split;
}

namespace {

// A thread's memory objects and stream for one split, pointed at each image in turn. The
// entry holds the split's primitive, so no other split's can take its address while it lives.
struct ImageMemories {
  dnnl::primitive primitive;
  dnnl::stream stream;
  dnnl::memory src, dst, scratchpad;
  std::vector<unsigned char> scratch;
  std::unordered_map<int, dnnl::memory> args;
};

ImageMemories& memories_for(const ImageByImage& split,
                            const std::unordered_map<int, dnnl::memory>& batch_args) {
  thread_local ImageMemories kept;
  if (kept.primitive.get(true) != split.primitive.get()) {
    const dnnl::engine& engine = cpu_engine();
    kept.primitive = split.primitive;
    kept.stream = dnnl::stream(engine);
    kept.src = dnnl::memory(split.src, engine, nullptr);
    kept.dst = dnnl::memory(split.dst, engine, nullptr);
    kept.scratch.resize(split.scratchpad.get_size());
    kept.scratchpad = dnnl::memory(split.scratchpad, engine, kept.scratch.data());
    kept.args = {{DNNL_ARG_SRC, kept.src}, {DNNL_ARG_DST, kept.dst},
                 {DNNL_ARG_SCRATCHPAD, kept.scratchpad}};
  }
  // The weights and bias are the batch call's own (a graph constant's reordered copy, say).
  for (const auto& [arg, memory] : batch_args) {
    if (arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_BIAS) kept.args[arg] = memory;
  }
  return kept;
}

}  // namespace

void run_by_image(const ImageByImage& split,
                  const std::unordered_map<int, dnnl::memory>& args, uint32_t threads) {
  auto* const src = static_cast<unsigned char*>(args.at(DNNL_ARG_SRC).get_data_handle());
  auto* const dst = static_cast<unsigned char*>(args.at(DNNL_ARG_DST).get_data_handle());
  const size_t src_bytes = split.src.get_size();
  const size_t dst_bytes = split.dst.get_size();
  for_ranges(split.images, team_size(threads), [&](int64_t first, int64_t end) {
    ImageMemories& memories = memories_for(split, args);
    for (int64_t image = first; image < end; ++image) {
      memories.src.set_data_handle(src + static_cast<size_t>(image) * src_bytes);
      memories.dst.set_data_handle(dst + static_cast<size_t>(image) * dst_bytes);
      split.primitive.execute(memories.stream, memories.args);
    }
    memories.stream.wait();
  });
}

}  // namespace hxcpu
