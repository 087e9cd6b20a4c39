// Copies of many sizes in every direction, from pageable and from pinned host memory, on a
// stream and synchronous (NULL stream), through the function table; and tensors through the
// runtime. All need a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "plugin_direct.hpp"
#include "plugin_test_support.hpp"

using cuda_direct::device_buffer;
using cuda_direct::DirectPlugin;
using cuda_direct::require_ok;

namespace {

// Sizes around the interesting edges: nothing, one byte, one below and at 256 (cudaMalloc's
// alignment), a page and a bit, and large transfers that take the DMA engines' fast path.
const size_t kSizes[] = {0, 1, 255, 256, 4097, size_t{1} << 20, size_t{64} << 20};

// Host memory of one kind: a std::vector, or pinned through host_allocate.
class HostBuffer {
 public:
  HostBuffer(const DirectPlugin& plugin, hx_device* device, size_t size, bool pinned)
      : plugin_(plugin), device_(device), size_(size), pinned_(pinned) {
    if (!pinned) {
      pageable_.resize(size);
      data_ = pageable_.data();
      return;
    }
    void* memory = nullptr;
    require_ok(DirectPlugin::outcome(plugin.api().host_memory->allocate(device, size, &memory)));
    data_ = static_cast<uint8_t*>(memory);
  }
  ~HostBuffer() {
    if (pinned_) plugin_.api().host_memory->deallocate(device_, data_);
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  uint8_t* data() { return data_; }
  bool equals(const HostBuffer& other) const {
    return size_ == 0 || std::memcmp(data_, other.data_, size_) == 0;
  }
  bool all(uint8_t value) const {
    for (size_t i = 0; i < size_; ++i) {
      if (data_[i] != value) return false;
    }
    return true;
  }

 private:
  const DirectPlugin& plugin_;
  hx_device* device_;
  size_t size_;
  bool pinned_;
  std::vector<uint8_t> pageable_;
  uint8_t* data_ = nullptr;
};

// A buffer for copies of `size` bytes: a buffer has at least 1 byte (plugin_api.h), so the
// copies of 0 bytes go to and from a buffer of 1.
void fill_pattern(uint8_t* data, size_t size, uint32_t seed) {
  for (size_t i = 0; i < size; ++i) data[i] = static_cast<uint8_t>((i * 131 + seed) >> 3);
}

// host -> device A -> device B (same device) -> host, then a memset of B read back.
void round_trip(const DirectPlugin& plugin, hx_device* device, hx_stream* stream, size_t size,
                bool pinned) {
  const hx_plugin_api& api = plugin.api();
  HostBuffer source(plugin, device, size, pinned);
  HostBuffer result(plugin, device, size, pinned);
  fill_pattern(source.data(), size, static_cast<uint32_t>(size));
  hx_buffer* a = device_buffer(plugin, device, size);
  hx_buffer* b = device_buffer(plugin, device, size);

  require_ok(
      DirectPlugin::outcome(api.copy_host_to_device(device, stream, a, 0, source.data(), size)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_device(device, stream, b, 0, device, a, 0, size)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_host(device, stream, result.data(), b, 0, size)));
  if (stream != nullptr)
    require_ok(DirectPlugin::outcome(api.streams->synchronize(device, stream)));
  CHECK(result.equals(source));

  require_ok(DirectPlugin::outcome(api.memset(device, stream, b, 0, 0x5a, size)));
  require_ok(
      DirectPlugin::outcome(api.copy_device_to_host(device, stream, result.data(), b, 0, size)));
  if (stream != nullptr)
    require_ok(DirectPlugin::outcome(api.streams->synchronize(device, stream)));
  CHECK(result.all(0x5a));

  api.deallocate(device, a, std::max<size_t>(size, 1));
  api.deallocate(device, b, std::max<size_t>(size, 1));
}

}  // namespace

TEST_CASE("Copies of every size go host to device to device to host intact",
          "[cuda][copies][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  hx_stream* stream = nullptr;
  require_ok(DirectPlugin::outcome(plugin.api().streams->create(device, &stream)));
  for (size_t size : kSizes) {
    for (bool pinned : {false, true}) {
      INFO("size " << size << (pinned ? ", pinned" : ", pageable"));
      round_trip(plugin, device, stream, size, pinned);
      round_trip(plugin, device, nullptr, size, pinned);
    }
  }
  plugin.api().streams->destroy(device, stream);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Copies of every size go from one GPU to another", "[cuda][copies][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  cuda_direct::Outcome counted;
  if (plugin.device_count(&counted) < 2) {
    WARN("not applicable: needs two CUDA devices");
    return;
  }
  hx_device* from = plugin.device(0);
  hx_device* to = plugin.device(1);
  const hx_plugin_api& api = plugin.api();
  hx_stream* stream = nullptr;
  require_ok(DirectPlugin::outcome(api.streams->create(to, &stream)));
  for (size_t size : kSizes) {
    INFO("size " << size);
    std::vector<uint8_t> source(size), result(size);
    fill_pattern(source.data(), size, 7);
    hx_buffer* a = device_buffer(plugin, from, size);
    hx_buffer* b = device_buffer(plugin, to, size);
    require_ok(
        DirectPlugin::outcome(api.copy_host_to_device(from, nullptr, a, 0, source.data(), size)));
    require_ok(
        DirectPlugin::outcome(api.copy_device_to_device(to, stream, b, 0, from, a, 0, size)));
    require_ok(
        DirectPlugin::outcome(api.copy_device_to_host(to, stream, result.data(), b, 0, size)));
    require_ok(DirectPlugin::outcome(api.streams->synchronize(to, stream)));
    CHECK(result == source);
    api.deallocate(from, a, std::max<size_t>(size, 1));
    api.deallocate(to, b, std::max<size_t>(size, 1));
  }
  api.streams->destroy(to, stream);
}

TEST_CASE("Tensors of every size go to the GPU and back through the runtime",
          "[cuda][copies][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  for (size_t bytes : kSizes) {
    const size_t count = bytes / sizeof(float);
    INFO(count << " floats");
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 1000) - 500.5f;
    const hxrt::Tensor on_gpu =
        runtime.tensor<float>({static_cast<int64_t>(count)}, values, "/GPU:0");
    CHECK(on_gpu.device() == "/job:localhost/replica:0/task:0/device:GPU:0");
    CHECK(on_gpu.to_vector<float>() == values);
    const hxrt::Tensor back = runtime.to_device(on_gpu, "/CPU:0");
    CHECK(back.to_vector<float>() == values);
  }
}
