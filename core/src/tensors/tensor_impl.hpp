// What a Tensor handle points to: dtype, shape, one block of device memory, and the event of
// the work that writes it. Freed with the last Tensor (its count is hxrt/tensor.hpp's
// TensorCount); the device (and through it the plugin) stays alive as long as the memory does.
#pragma once

#include <memory>
#include <vector>

#include "devices/device.hpp"
#include "execution/ready_event.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"
#include "hxrt/tensor.hpp"
#include "memory/handle_blocks.hpp"
#include "memory/spin_lock.hpp"

namespace hxrt::detail {

struct TensorImpl : TensorCount {
  TensorImpl(std::shared_ptr<Device> device, DType dtype, const Shape& shape);
  // `bytes` is tensor_bytes(dtype, shape), which the caller knows already (an op's outputs are
  // sized when they are checked).
  TensorImpl(std::shared_ptr<Device> device, DType dtype, const Shape& shape, size_t bytes);
  // With its kind known already: the device's record of (dtype, shape), or nullptr. Inline:
  // every op's output is made so.
  TensorImpl(std::shared_ptr<Device> device_in, DType dtype_in, const Shape& shape_in,
             size_t bytes_in, const TensorKind* kind_in)
      : device(std::move(device_in)),
        dtype(dtype_in),
        shape(shape_in),
        bytes(bytes_in),
        kind(kind_in),
        memory(device->allocate(bytes)) {}
  // In memory that is not the device's allocator's (Runtime::pinned_tensor): `memory` lies
  // inside what `owner` keeps alive, and the tensor holds it.
  TensorImpl(std::shared_ptr<Device> device_in, DType dtype_in, const Shape& shape_in,
             size_t bytes_in, Device::Block memory_in, std::shared_ptr<const void> owner_in);
  // The memory goes back to the device at once, or after the reads on other streams that
  // add_reader recorded; memory of an owner's is let go once those reads have completed.
  ~TensorImpl();
  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;

  // Blocks until the work that writes the tensor has completed; throws its failure.
  void wait_ready() const {
    if (ready != nullptr) ready->wait();
  }
  // `event` follows a read of this tensor's memory queued on another device's stream: the
  // memory is not reused before it completes.
  void add_reader(std::shared_ptr<ReadyEvent> event) const;

  std::shared_ptr<Device> device;
  DType dtype;
  Shape shape;
  size_t bytes;
  // The device's record of (dtype, shape) (devices/tensor_kinds.hpp), or nullptr when the
  // device keeps no more.
  const TensorKind* kind;
  Device::Block memory;  // (buffer, byte offset) of the elements
  // Recorded after the work that writes the elements; nullptr when that work completed before
  // the tensor was returned (a synchronous device). Set before the tensor is shared.
  std::shared_ptr<ReadyEvent> ready;
  // What keeps memory that is not the allocator's (a PinnedBlock); nullptr for the allocator's.
  std::shared_ptr<const void> owner;

 private:
  mutable SpinLock readers_lock_;
  // Owned, guarded by readers_lock_, made by the first add_reader: a tensor that no other
  // stream reads (every CPU tensor) costs one pointer, and a raw one, so that the destructor
  // of the synchronous path holds no code to destroy a list it never has.
  mutable PendingReleases::Events* readers_ = nullptr;
};

// A handle must fit one block of the handle cache.
static_assert(sizeof(TensorImpl) <= HandleBlockCache::kBlockBytes,
              "a tensor handle outgrew its block: raise HandleBlockCache::kBlockBytes");

// A new tensor, its handle from the calling thread's cache of handle blocks
// (memory/handle_blocks.hpp); TensorImpl's constructor arguments. Always inline: every op's
// outputs are made here, and GCC kept it a call with a frame of its own.
template <class... Args>
__attribute__((always_inline)) inline Tensor make_tensor(Args&&... args) {
  void* block = take_handle_block();
  try {
    return Tensor(new (block) TensorImpl(std::forward<Args>(args)...));
  } catch (...) {
    give_handle_block(block);
    throw;
  }
}

}  // namespace hxrt::detail

namespace hxrt {

inline Tensor::Tensor(detail::TensorImpl* adopted) noexcept : handle_(adopted) {}

inline detail::TensorImpl* Tensor::impl() const noexcept {
  return static_cast<detail::TensorImpl*>(handle_);
}

}  // namespace hxrt
