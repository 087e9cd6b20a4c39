// Graph constants in the layouts oneDNN's primitives read them in (hx_kernel_args.
// input_constants): a convolution's or a matmul's weights reordered into its blocked layout
// once, under the constant's id, instead of on every call, as ONNX Runtime prepacks them. Kept
// until the core forgets the id (hx_kernel_def.forget_constants), when the executable that
// holds the constant goes. One per plugin instance; any thread.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace hxcpu {

class ConstantLayouts {
 public:
  // Constant `id`'s elements in `layout`: written by `make(buffer)` into a buffer of
  // layout.get_size() bytes the first time (under the lock: a first run's calls of other
  // threads wait), then read as they are. make() may throw: nothing is kept then.
  void* find_or_make(uint64_t id, const dnnl::memory::desc& layout,
                     const std::function<void(void*)>& make);

  // Drops what was kept under `ids`.
  void forget(const uint64_t* ids, size_t count);


 private:
  struct Free {
    void operator()(void* data) const { std::free(data); }
  };
  struct Kept {
    dnnl::memory::desc layout;
    std::unique_ptr<void, Free> data;
  };
  mutable std::shared_mutex mutex_;
  std::unordered_map<uint64_t, std::vector<Kept>> kept_;
};

}  // namespace hxcpu
