#include "hxrt/tensor.hpp"

#include <vector>

#include <hxcommon/element_values.hpp>

#include "tensors/transfers.hpp"
#include "tensors/tensor_impl.hpp"
#include "trace/transfer_trace.hpp"

namespace hxrt {
namespace detail {

TensorImpl::TensorImpl(std::shared_ptr<Device> device_in, DType dtype_in, const Shape& shape_in)
    : TensorImpl(std::move(device_in), dtype_in, shape_in, tensor_bytes(dtype_in, shape_in)) {}

TensorImpl::TensorImpl(std::shared_ptr<Device> device_in, DType dtype_in, const Shape& shape_in,
                       size_t bytes_in)
    : TensorImpl(device_in, dtype_in, shape_in, bytes_in,
                 device_in->tensor_kind(dtype_in, shape_in)) {}


TensorImpl::TensorImpl(std::shared_ptr<Device> device_in, DType dtype_in, const Shape& shape_in,
                       size_t bytes_in, Device::Block memory_in,
                       std::shared_ptr<const void> owner_in)
    : device(std::move(device_in)),
      dtype(dtype_in),
      shape(shape_in),
      bytes(bytes_in),
      kind(device->tensor_kind(dtype_in, shape_in)),
      memory(memory_in),
      owner(std::move(owner_in)) {}

TensorImpl::~TensorImpl() {
  if (owner != nullptr) {
    // Not the allocator's memory, and no allocator to defer its release to: the copies still
    // reading it (a DMA from page-locked memory) end before its owner may free it. Rare: a
    // tensor dropped while its own upload is in flight.
    if (readers_ != nullptr) {
      for (const std::shared_ptr<ReadyEvent>& reader : *readers_) {
        try {
          reader->wait();
        } catch (const Error&) {
          // The read failed: it no longer reads.
        }
      }
      delete readers_;
    }
    return;
  }
  if (readers_ == nullptr) {
    device->deallocate(memory.block);
  } else {
    device->deallocate_after(memory.block, readers_);  // which takes the list
  }
}

void TensorImpl::add_reader(std::shared_ptr<ReadyEvent> event) const {
  std::lock_guard<SpinLock> lock(readers_lock_);
  if (readers_ == nullptr) readers_ = new PendingReleases::Events;
  readers_->push_back(std::move(event));
}

}  // namespace detail

void Tensor::destroy(detail::TensorCount* handle) noexcept {
  auto* impl = static_cast<detail::TensorImpl*>(handle);
  impl->~TensorImpl();
  detail::give_handle_block(impl);
}

namespace {

const detail::TensorImpl& checked(const detail::TensorImpl* impl) {
  if (impl == nullptr) {
    throw Error(StatusCode::kFailedPrecondition,
                "this Tensor is empty (default-constructed or moved from)");
  }
  return *impl;
}

std::string format_element(const unsigned char* bytes, DType dtype) {
  return hxcommon::element_text(bytes, static_cast<int32_t>(dtype), 0);
}

// NumPy's print options: past kSummaryThreshold entries, an axis longer than 2 * kEdgeItems
// shows its first and last kEdgeItems entries around "...".
constexpr int64_t kSummaryThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

// The entries a full printout would make: the elements, where a zero extent's "[]" counts as
// one. Also what makes an empty tensor of huge extents ([2^40, 0]) summarised rather than
// printed as 2^40 brackets. Cannot overflow: a Shape's non-zero extents have a product that fits.
int64_t printed_entries(const Shape& shape) {
  int64_t entries = 1;
  for (int i = 0; i < shape.rank(); ++i) {
    if (shape[i] != 0) entries *= shape[i];
  }
  return entries;
}

struct Printout {
  const unsigned char* bytes;
  DType dtype;
  const Shape& shape;
  bool summarise;
  std::string text;
};

void format_dimension(Printout& printout, int axis, int64_t offset) {
  const Shape& shape = printout.shape;
  if (axis == shape.rank()) {
    printout.text += format_element(
        printout.bytes + static_cast<size_t>(offset) * dtype_size(printout.dtype),
        printout.dtype);
    return;
  }
  int64_t stride = 1;
  for (int i = axis + 1; i < shape.rank(); ++i) stride *= shape[i];
  const int64_t extent = shape[axis];
  const bool elide = printout.summarise && extent > 2 * kEdgeItems;
  printout.text += "[";
  for (int64_t i = 0; i < extent; ++i) {
    if (i > 0) printout.text += ", ";
    if (elide && i == kEdgeItems) {
      printout.text += "..., ";
      i = extent - kEdgeItems;
    }
    format_dimension(printout, axis + 1, offset + i * stride);
  }
  printout.text += "]";
}

}  // namespace

DType Tensor::dtype() const { return checked(impl()).dtype; }
const Shape& Tensor::shape() const { return checked(impl()).shape; }
size_t Tensor::byte_size() const { return checked(impl()).bytes; }
const std::string& Tensor::device() const { return checked(impl()).device->name(); }

void Tensor::wait() const {
  const detail::TensorImpl& held = checked(impl());
  if (held.ready == nullptr) return;
  const detail::SpanTimer waited;
  held.wait_ready();
  detail::trace_wait(waited, held.device->name(), "Tensor::wait");
}

bool Tensor::ready() const {
  const detail::TensorImpl& held = checked(impl());
  return held.ready == nullptr || held.ready->done();
}

void Tensor::copy_to_host(void* dst, size_t bytes) const {
  const detail::TensorImpl& held = checked(impl());
  if (bytes != held.bytes) {
    throw Error(StatusCode::kInvalidArgument,
                "copy_to_host: the tensor holds " + std::to_string(held.bytes) +
                    " bytes, the destination " + std::to_string(bytes));
  }
  if (held.ready != nullptr) {
    const detail::SpanTimer waited;
    held.wait_ready();
    detail::trace_wait(waited, held.device->name(), "to_host");
  }
  if (bytes == 0) return;
  detail::read_to_host(held, dst);
}

void* Tensor::host_address() const {
  const detail::TensorImpl& held = checked(impl());
  // HX_MEMORY_HOST: every buffer handle is the host address of the buffer's first byte.
  if (held.device->physical().memory_kind() != HX_MEMORY_HOST || held.memory.buffer == nullptr) {
    return nullptr;
  }
  return static_cast<char*>(static_cast<void*>(held.memory.buffer)) + held.memory.offset;
}

void Tensor::check_element_type(DType requested) const {
  if (dtype() != requested) {
    throw Error(StatusCode::kInvalidArgument, std::string("to_vector<") + dtype_name(requested) +
                                                  ">() on a tensor of dtype " +
                                                  dtype_name(dtype()) +
                                                  "; read it as its own dtype, or Cast it first");
  }
}

std::string Tensor::to_string() const {
  const detail::TensorImpl& held = checked(impl());
  std::vector<unsigned char> host(held.bytes);
  copy_to_host(host.data(), host.size());
  Printout printout{host.data(), held.dtype, held.shape,
                    printed_entries(held.shape) > kSummaryThreshold, {}};
  format_dimension(printout, 0, 0);
  return printout.text;
}

}  // namespace hxrt
