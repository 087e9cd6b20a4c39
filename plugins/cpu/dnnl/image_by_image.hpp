// A convolution of a batch run as one call per image, the images spread over the intra-op
// threads (each call then runs on its thread alone: oneDNN's OpenMP runtime does not nest a
// team inside one). oneDNN 2.6's direct kernel for a first layer (3 channels of plain NCHW
// in, blocks of 16 out) takes 168 us for 16 images of 32x32 on one thread here, one image at a
// time 139 us (bench/RESULTS.md); for the next layer the whole batch is faster. Which way wins
// depends on the kernel, the shapes, the threads and the machine, so the first calls of a
// shape time both ways and the faster is kept (FasterWay), as cuDNN's Find chooses among
// algorithms by running them.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <oneapi/dnnl/dnnl.hpp>

namespace hxcpu {

// The choice between the whole batch and image by image, by the fastest of kTrials timed
// calls each way, alternating.
class FasterWay {
 public:
  static constexpr int kTrials = 3;
  // Whether the next call runs image by image; *timed: whether it is one of the trials, whose
  // time record() then takes. Once chosen, a load and no lock.
  bool next_by_image(bool* timed);
  void record(bool by_image, std::chrono::nanoseconds took);

 private:
  static constexpr int kUndecided = -1;
  std::atomic<int> chosen_{kUndecided};  // then 0: the whole batch, 1: image by image
  std::mutex mutex_;                     // over the trials
  int trials_[2] = {0, 0};
  std::chrono::nanoseconds fastest_[2] = {std::chrono::nanoseconds::max(),
                                          std::chrono::nanoseconds::max()};
};

struct ImageByImage {
  dnnl::primitive primitive;               // for one image
  dnnl::memory::desc src, dst, scratchpad;  // one image's
  int64_t images = 0;
  mutable FasterWay way;
};

// A convolution's primitive descriptor for its source, weights and destination descriptors,
// with every other setting of the call's (window, bias, post-ops).
using ConvolutionFor = std::function<dnnl::convolution_forward::primitive_desc(
    const dnnl::memory::desc& src, const dnnl::memory::desc& weights,
    const dnnl::memory::desc& dst)>;

// The split of `batch`, a convolution's primitive for a batch, made again for one image by
// `convolution_for` in the layouts `batch` chose (its weights are reordered into its layout
// once); nullptr for a batch of one, where oneDNN has no primitive for one image in those
// layouts, or where an image's elements are not one contiguous slice of the batch's.
std::shared_ptr<const ImageByImage> image_by_image(
    const dnnl::convolution_forward::primitive_desc& batch,
    const ConvolutionFor& convolution_for);

// Runs `split` with the whole batch's arguments `args` (its source and destination at their
// batch's addresses, the weights and bias as they are) on up to `threads` threads.
void run_by_image(const ImageByImage& split,
                  const std::unordered_map<int, dnnl::memory>& args, uint32_t threads);

}  // namespace hxcpu
