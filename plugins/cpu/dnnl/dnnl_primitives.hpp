// The CPU plugin's use of oneDNN: one engine for the host, the plugin's intra-op thread count
// applied to oneDNN's OpenMP runtime, and primitives prepared once per combination of shapes.
//
// Threads: Debian's libdnnl 2.6 is built with DNNL_CPU_RUNTIME = OMP (libgomp). Its kernels
// fork OpenMP teams of omp_get_max_threads() of the calling thread, an OpenMP setting of that
// thread alone; DnnlThreads sets it to intra_op_threads around each primitive's creation and
// execution and restores it after, so the host program's own OpenMP setting is left as it was.
//
// Shapes: a kernel instance is made per combination of attributes and dtypes, before any shape
// is known (hx_kernel_create_args carries none), so an instance prepares a primitive the first
// time a call brings a new combination of shapes, and keeps it for the next calls.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/bounded_cache.hpp>
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "dnnl/image_by_image.hpp"
#include "kernels/fused_activation.hpp"
#include "kernels/kernel_call.hpp"

namespace hxcpu {

const dnnl::engine& cpu_engine();

// The threads a oneDNN call whose output has `elements` elements gets: the instance's
// `threads`, or one below kParallelLeastElements, where waking a second OpenMP thread costs more
// than it saves (a transformer at 1x32 ran 0.22 ms a run on two threads, 0.09 ms on one). A
// primitive is made and run under the same count: some of oneDNN's split their work when made.
constexpr int64_t kParallelLeastElements = int64_t{1} << 14;
inline uint32_t threads_for(int64_t elements, uint32_t threads) {
  return elements < kParallelLeastElements ? 1 : threads;
}

class DnnlThreads {
 public:
  explicit DnnlThreads(uint32_t threads);  // 0: leave OpenMP's setting as it is
  ~DnnlThreads();
  DnnlThreads(const DnnlThreads&) = delete;
  DnnlThreads& operator=(const DnnlThreads&) = delete;

 private:
  int previous_ = 0;  // 0: nothing to restore
};

using DataType = dnnl::memory::data_type;

// `buffer`'s data, grown to `count` elements first where it holds fewer: a thread's buffer for
// its calls, kept at the largest call's size so that a call neither allocates nor zeroes it.
template <class T>
T* grown_to(std::vector<T>& buffer, size_t count) {
  if (buffer.size() < count) buffer.resize(count);
  return buffer.data();
}

// A dense row-major descriptor of `dims`.
dnnl::memory::desc dense_desc(const std::vector<int64_t>& dims, DataType type);
// A descriptor of `dims` at `strides` (elements): a dense tensor read with its axes in another
// order.
dnnl::memory::desc strided_desc(const std::vector<int64_t>& dims,
                                const std::vector<int64_t>& strides, DataType type);
std::vector<int64_t> dims_of(const hx_tensor_view& view);

// A primitive for one combination of shapes. Tensors in f32, laid out densely, unless `native`:
// then in the call's own dtype, at the descriptors' strides. `inputs` gives, for each input of
// the call in order (absent optional inputs have none), the primitive's argument and the
// descriptor it reads the input's elements as.
struct Prepared {
  bool native = false;
  dnnl::primitive primitive;
  dnnl::memory::desc scratchpad;
  std::vector<std::pair<int, dnnl::memory::desc>> inputs;
  dnnl::memory::desc output;  // DNNL_ARG_DST
  // Where the primitive reads an input or writes its output in a layout of its own choosing
  // (oneDNN's blocked formats): that layout, and the reorder from the plain one (to it, for
  // the output), run around each call. Empty, or an entry without a reorder: as it is.
  struct Relayout {
    dnnl::memory::desc layout;
    dnnl::reorder reorder;
  };
  std::vector<Relayout> input_layouts;  // by input, as `inputs`
  Relayout output_layout;
  // A convolution of a batch that may run faster image by image (dnnl/image_by_image.hpp);
  // nullptr for the others. run_prepared runs it the faster way, timing both at first.
  std::shared_ptr<const ImageByImage> by_image;
};

// Appends `activation` (FusedGemm's, FusedConv's) to the primitive's post-ops, applied as it
// writes its output; nothing for none.
void set_activation_post_op(dnnl::primitive_attr& attr, const FusedActivation& activation);

// Sets prepared.input_layouts and output_layout where `primitive_desc` chose layouts other than
// the plain ones in prepared.inputs and prepared.output.
void use_chosen_layouts(Prepared& prepared, const dnnl::primitive_desc_base& primitive_desc);

// prepare(type) for a call of `dtype`: bf16 natively (oneDNN's bf16 kernels accumulate in
// f32), and in f32 where oneDNN has no bf16 kernel for it (an older CPU) and for the others.
template <class Prepare>
Prepared prepare_for(int32_t dtype, Prepare&& prepare) {
  if (dtype == HX_DTYPE_BF16) {
    try {
      Prepared prepared = prepare(DataType::bf16);
      prepared.native = true;
      return prepared;
    } catch (const dnnl::error&) {
      // no bf16 kernel: widened to f32 below
    }
  }
  return prepare(DataType::f32);
}

// A primitive of one input and an output of its dense shape (an element-wise or row-wise op),
// made from the descriptor `desc_of(data)` gives for the data's descriptor, for the instance's
// `threads`.
template <class Primitive, class DescOf>
Prepared prepare_one_to_one(DataType type, const hx_tensor_view& x, uint32_t threads,
                            DescOf desc_of) {
  const DnnlThreads scope(threads_for(element_count(x), threads));
  Prepared prepared;
  const dnnl::memory::desc data = dense_desc(dims_of(x), type);
  prepared.inputs = {{DNNL_ARG_SRC, data}};
  prepared.output = data;
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const typename Primitive::primitive_desc primitive_desc(desc_of(data), attr, cpu_engine());
  prepared.primitive = Primitive(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  return prepared;
}

// The fewest elements for which an element-wise or row-wise op (Softmax, Gelu) is worth a
// oneDNN call: one costs about 1 us however small (its memory objects, stream and threads;
// 1.7 us for a softmax of 10 elements, against 0.3 in a loop), which loops spend on a few
// hundred elements.
constexpr int64_t kOneDnnLeastElements = 256;

// Prepared primitives by the shapes of a call, shared by the concurrent calls of an instance:
// the latest kPrimitivesKept combinations of shapes an instance met.
constexpr size_t kPrimitivesKept = 256;
class PrimitiveCache : public hxplugin::BoundedCache<std::vector<int64_t>, Prepared> {
 public:
  PrimitiveCache() : BoundedCache(kPrimitivesKept) {}
};

// The shapes and strides of every input and output of the call, and which inputs are graph
// constants, as a cache key.
std::vector<int64_t> shapes_key(const KernelCall& call);

// Runs `prepared` on the call's inputs and output 0. f32 tensors, and every tensor of a native
// primitive, are passed as they are; f16 and bf16 ones are otherwise widened to f32 first and
// the output rounded back once. An input the primitive reads in a layout of its own is
// reordered into it on each call, unless it is a graph constant: then once, under its id
// (CpuPlugin::constant_layouts). Every view must be dense (the core passes no other to these
// ops) unless the primitive is native.
hx_status* run_prepared(const KernelCall& call, const char* op, const Prepared& prepared,
                        uint32_t threads);

// oneDNN's exceptions as statuses: `what` says which step failed.
hx_status* dnnl_error(const KernelCall& call, const char* op, const dnnl::error& error);

}  // namespace hxcpu
