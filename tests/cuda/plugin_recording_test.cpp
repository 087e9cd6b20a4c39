// Recorded work (plugin_api.h, hx_recording_api) on CUDA stream capture, through the function
// table: the group is whole, its errors, work recorded without running and replayed on other
// streams reading its buffers as they are at replay, a replay ordered behind its stream's
// earlier work, a GEMM recorded on a stream that had no cuBLAS handle yet, a capture a call
// broke refused at end, a convolution and a cuBLASLt matmul recorded with their handles; and
// the host time of a large GEMM (the library workspace, library_workspace.hpp). Everything but
// the first case needs a GPU.
#include <hxrt/plugin_vocabulary.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <vector>

#include "plugin_direct.hpp"

using Catch::Matchers::Contains;
using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using cuda_direct::require_ok;
using hxrt_test::KernelInstance;
using hxrt_test::View;

namespace {

constexpr size_t kFloat = sizeof(float);

const hx_recording_api& recording_api(const DirectPlugin& plugin) {
  const hx_recording_api* api = hx_plugin_api_recording(&plugin.api());
  REQUIRE(api != nullptr);
  return *api;
}

hx_stream* new_stream(const DirectPlugin& plugin, hx_device* device) {
  hx_stream* stream = nullptr;
  require_ok(DirectPlugin::outcome(plugin.api().streams->create(device, &stream)));
  return stream;
}

// The recording end gives, required to succeed.
hx_recording* end_ok(const DirectPlugin& plugin, hx_device* device, hx_stream* stream) {
  hx_recording* recording = nullptr;
  require_ok(DirectPlugin::outcome(recording_api(plugin).end(device, stream, &recording)));
  REQUIRE(recording != nullptr);
  return recording;
}

void synchronize(const DirectPlugin& plugin, hx_device* device, hx_stream* stream) {
  require_ok(DirectPlugin::outcome(plugin.api().streams->synchronize(device, stream)));
}

}  // namespace

TEST_CASE("Directly: the CUDA plugin's table has the whole recording group",
          "[cuda][recording][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  const hx_plugin_api& api = plugin.api();
  CHECK(api.struct_size >= HX_PLUGIN_API_STRUCT_SIZE);
  const hx_recording_api* recording = hx_plugin_api_recording(&api);
  REQUIRE(recording != nullptr);
  CHECK(recording->struct_size == HX_RECORDING_API_STRUCT_SIZE);
  CHECK(recording->begin != nullptr);
  CHECK(recording->end != nullptr);
  CHECK(recording->replay != nullptr);
  CHECK(recording->destroy != nullptr);
  CHECK(hx_plugin_api_missing_function(&api) == nullptr);
  CHECK(hx_plugin_api_short_group(&api) == nullptr);
}

TEST_CASE("Directly: begin, end and replay refuse what they cannot use",
          "[cuda][recording][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_recording_api& recording = recording_api(plugin);
  const auto code = [](hx_status* status) { return DirectPlugin::outcome(status).code; };

  // An empty recording: valid, and what the replays below are refused with.
  hx_stream* stream = new_stream(plugin, device);
  require_ok(DirectPlugin::outcome(recording.begin(device, stream)));
  hx_recording* empty = end_ok(plugin, device, stream);

  int not_a_handle = 0;
  hx_stream* foreign = reinterpret_cast<hx_stream*>(&not_a_handle);
  hx_stream* destroyed = new_stream(plugin, device);
  plugin.api().streams->destroy(device, destroyed);
  for (hx_stream* bad : {static_cast<hx_stream*>(nullptr), foreign, destroyed}) {
    INFO("stream " << static_cast<const void*>(bad));
    CHECK(code(recording.begin(device, bad)) == HX_INVALID_ARGUMENT);
    hx_recording* made = reinterpret_cast<hx_recording*>(&not_a_handle);
    CHECK(code(recording.end(device, bad, &made)) == HX_INVALID_ARGUMENT);
    CHECK(made == nullptr);
    CHECK(code(recording.replay(device, bad, empty)) == HX_INVALID_ARGUMENT);
  }

  SECTION("end without begin") {
    hx_recording* made = reinterpret_cast<hx_recording*>(&not_a_handle);
    const Outcome ended = DirectPlugin::outcome(recording.end(device, stream, &made));
    CHECK(ended.code == HX_FAILED_PRECONDITION);
    CHECK_THAT(ended.message, Contains("not recording"));
    CHECK(made == nullptr);
  }
  SECTION("begin twice, and replay on the recording stream; end still gives the recording") {
    require_ok(DirectPlugin::outcome(recording.begin(device, stream)));
    const Outcome again = DirectPlugin::outcome(recording.begin(device, stream));
    CHECK(again.code == HX_FAILED_PRECONDITION);
    CHECK_THAT(again.message, Contains("records already"));
    CHECK(code(recording.replay(device, stream, empty)) == HX_FAILED_PRECONDITION);
    hx_recording* made = end_ok(plugin, device, stream);
    recording.destroy(device, made);
  }
  SECTION("a recording that is not one, or was destroyed") {
    hx_recording* unknown = reinterpret_cast<hx_recording*>(&not_a_handle);
    CHECK(code(recording.replay(device, stream, unknown)) == HX_INVALID_ARGUMENT);
    hx_recording* gone = nullptr;
    require_ok(DirectPlugin::outcome(recording.begin(device, stream)));
    gone = end_ok(plugin, device, stream);
    recording.destroy(device, gone);
    CHECK(code(recording.replay(device, stream, gone)) == HX_INVALID_ARGUMENT);
    CHECK(plugin.warnings().empty());
    recording.destroy(device, unknown);  // ignored, with a warning
    CHECK(plugin.warnings().size() == 1);
  }
  SECTION("a recording of no calls replays and does nothing; destroy accepts NULL") {
    hx_stream* other = new_stream(plugin, device);
    require_ok(DirectPlugin::outcome(recording.replay(device, other, empty)));
    require_ok(DirectPlugin::outcome(recording.replay(device, stream, empty)));
    synchronize(plugin, device, other);
    synchronize(plugin, device, stream);
    recording.destroy(device, nullptr);
    plugin.api().streams->destroy(device, other);
    CHECK(plugin.warnings().empty());
  }
  recording.destroy(device, empty);
  plugin.api().streams->destroy(device, stream);
}

TEST_CASE("Directly: recorded work runs only when replayed, on the buffers as they are then",
          "[cuda][recording][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  const hx_recording_api& recording = recording_api(plugin);

  // Four floats each: a + b -> sum, sum copied to copy, zeroed set to 0 by a memset.
  constexpr uint64_t kA = 0, kB = 256, kSum = 512, kCopy = 768, kZeroed = 1024;
  constexpr size_t kBytes = 4 * kFloat;
  hx_buffer* buffer = plugin.allocate(device, 2048, 256);
  const std::vector<float> unset = {-1, -1, -1, -1};
  const auto reset_outputs = [&] {
    for (const uint64_t offset : {kSum, kCopy, kZeroed}) {
      plugin.upload(device, buffer, offset, unset);
    }
  };
  plugin.upload(device, buffer, kA, {1, 2, 3, 4});
  plugin.upload(device, buffer, kB, {10, 20, 30, 40});
  reset_outputs();

  KernelInstance add(plugin.kernel("Add"), device, {HX_DTYPE_F32, HX_DTYPE_F32}, {HX_DTYPE_F32});
  require_ok(add.created());
  const View a(buffer, kA, device, {4});
  const View b(buffer, kB, device, {4});
  const View sum(buffer, kSum, device, {4});

  hx_stream* recorder = new_stream(plugin, device);
  require_ok(DirectPlugin::outcome(recording.begin(device, recorder)));
  require_ok(DirectPlugin::outcome(api.memset(device, recorder, buffer, kZeroed, 0, kBytes)));
  require_ok(add.compute(device, recorder, {a, b}, {sum}));
  require_ok(DirectPlugin::outcome(
      api.copy_device_to_device(device, recorder, buffer, kCopy, device, buffer, kSum, kBytes)));
  hx_recording* recorded = end_ok(plugin, device, recorder);

  // Nothing ran: the recording stream has no work, and every output keeps its old bytes.
  synchronize(plugin, device, recorder);
  CHECK(plugin.download(device, buffer, kSum, 4) == unset);
  CHECK(plugin.download(device, buffer, kCopy, 4) == unset);
  CHECK(plugin.download(device, buffer, kZeroed, 4) == unset);

  hx_stream* replayer = new_stream(plugin, device);
  const std::vector<float> zeros = {0, 0, 0, 0};
  SECTION("replayed twice, the second time on new input bytes") {
    require_ok(DirectPlugin::outcome(recording.replay(device, replayer, recorded)));
    synchronize(plugin, device, replayer);
    CHECK(plugin.download(device, buffer, kSum, 4) == std::vector<float>{11, 22, 33, 44});
    CHECK(plugin.download(device, buffer, kCopy, 4) == std::vector<float>{11, 22, 33, 44});
    CHECK(plugin.download(device, buffer, kZeroed, 4) == zeros);

    reset_outputs();
    plugin.upload(device, buffer, kA, {100, 200, 300, 400});
    require_ok(DirectPlugin::outcome(recording.replay(device, replayer, recorded)));
    synchronize(plugin, device, replayer);
    CHECK(plugin.download(device, buffer, kSum, 4) == std::vector<float>{110, 220, 330, 440});
    CHECK(plugin.download(device, buffer, kCopy, 4) == std::vector<float>{110, 220, 330, 440});
    CHECK(plugin.download(device, buffer, kZeroed, 4) == zeros);
  }
  SECTION("a replay runs after the work queued on its stream before it") {
    // a becomes 0.0f on the stream, and the replay is queued behind it without a wait.
    require_ok(DirectPlugin::outcome(api.memset(device, replayer, buffer, kA, 0, kBytes)));
    require_ok(DirectPlugin::outcome(recording.replay(device, replayer, recorded)));
    synchronize(plugin, device, replayer);
    CHECK(plugin.download(device, buffer, kSum, 4) == std::vector<float>{10, 20, 30, 40});
    CHECK(plugin.download(device, buffer, kCopy, 4) == std::vector<float>{10, 20, 30, 40});
  }

  recording.destroy(device, recorded);
  api.streams->destroy(device, recorder);
  api.streams->destroy(device, replayer);
  api.deallocate(device, buffer, 2048);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Directly: a MatMul records on a stream that never had a cuBLAS handle",
          "[cuda][recording][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  const hx_recording_api& recording = recording_api(plugin);
  hx_buffer* buffer = plugin.allocate(device, 4096, 256);
  // a is 2x3, b is 3x2.
  plugin.upload(device, buffer, 0, {1, 2, 3, 4, 5, 6});
  plugin.upload(device, buffer, 256, {7, 8, 9, 10, 11, 12});
  const std::vector<float> unset = {-1, -1, -1, -1};
  plugin.upload(device, buffer, 512, unset);
  KernelInstance matmul(plugin.kernel("MatMul"), device, {HX_DTYPE_F32, HX_DTYPE_F32},
                        {HX_DTYPE_F32});
  require_ok(matmul.created());
  const View a(buffer, 0, device, {2, 3});
  const View b(buffer, 256, device, {3, 2});
  const View c(buffer, 512, device, {2, 2});

  // The stream's first GEMM is recorded: its cuBLAS handle, and the recording's workspace,
  // are made while it records, which must not break the capture.
  hx_stream* recorder = new_stream(plugin, device);
  require_ok(DirectPlugin::outcome(recording.begin(device, recorder)));
  require_ok(matmul.compute(device, recorder, {a, b}, {c}));
  hx_recording* recorded = end_ok(plugin, device, recorder);
  synchronize(plugin, device, recorder);
  CHECK(plugin.download(device, buffer, 512, 4) == unset);

  hx_stream* replayer = new_stream(plugin, device);
  require_ok(DirectPlugin::outcome(recording.replay(device, replayer, recorded)));
  synchronize(plugin, device, replayer);
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]]
  CHECK(plugin.download(device, buffer, 512, 4) == std::vector<float>{58, 64, 139, 154});

  // A GEMM run as it comes, on the recording's stream, beside a replay of the recorded one on
  // another: each has its own workspace.
  plugin.upload(device, buffer, 0, {1, 0, 0, 0, 1, 0});  // the first two rows of identity
  const View c2(buffer, 1024, device, {2, 2});
  require_ok(DirectPlugin::outcome(recording.replay(device, replayer, recorded)));
  require_ok(matmul.compute(device, recorder, {a, b}, {c2}));
  synchronize(plugin, device, replayer);
  synchronize(plugin, device, recorder);
  CHECK(plugin.download(device, buffer, 512, 4) == std::vector<float>{7, 8, 9, 10});
  CHECK(plugin.download(device, buffer, 1024, 4) == std::vector<float>{7, 8, 9, 10});

  recording.destroy(device, recorded);
  api.streams->destroy(device, recorder);
  api.streams->destroy(device, replayer);
  api.deallocate(device, buffer, 4096);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Directly: a Conv and a FusedGemm record on a device that never had a cuDNN or "
          "cuBLASLt handle",
          "[cuda][recording][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  const hx_recording_api& recording = recording_api(plugin);
  hx_buffer* buffer = plugin.allocate(device, 4096, 256);
  // Conv: x is 1x1x3x3, w 1x1x2x2 of ones, so y (1x1x2x2) sums each 2x2 window of x.
  plugin.upload(device, buffer, 0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  plugin.upload(device, buffer, 256, {1, 1, 1, 1});
  // FusedGemm: a is 2x3, b 3x2, C a bias of b's 2 columns.
  plugin.upload(device, buffer, 1024, {1, 2, 3, 4, 5, 6});
  plugin.upload(device, buffer, 1280, {7, 8, 9, 10, 11, 12});
  plugin.upload(device, buffer, 1536, {100, 200});
  const std::vector<float> unset = {-1, -1, -1, -1};
  plugin.upload(device, buffer, 512, unset);
  plugin.upload(device, buffer, 1792, unset);
  const std::vector<int32_t> f32x2 = {HX_DTYPE_F32, HX_DTYPE_F32};
  KernelInstance conv(plugin.kernel("Conv"), device, f32x2, {HX_DTYPE_F32});
  KernelInstance gemm(plugin.kernel("FusedGemm"), device,
                      {HX_DTYPE_F32, HX_DTYPE_F32, HX_DTYPE_F32}, {HX_DTYPE_F32});
  require_ok(conv.created());
  require_ok(gemm.created());
  const View x(buffer, 0, device, {1, 1, 3, 3});
  const View w(buffer, 256, device, {1, 1, 2, 2});
  const View y(buffer, 512, device, {1, 1, 2, 2});
  const View a(buffer, 1024, device, {2, 3});
  const View b(buffer, 1280, device, {3, 2});
  const View bias(buffer, 1536, device, {2});
  const View d(buffer, 1792, device, {2, 2});

  // The device's first convolution and matmul are recorded: the cuDNN and cuBLASLt handles,
  // the plans and the recording's workspace are made while the stream records, which must not
  // break the capture.
  hx_stream* recorder = new_stream(plugin, device);
  require_ok(DirectPlugin::outcome(recording.begin(device, recorder)));
  require_ok(conv.compute(device, recorder, {x, w}, {y}));
  require_ok(gemm.compute(device, recorder, {a, b, bias}, {d}));
  hx_recording* recorded = end_ok(plugin, device, recorder);
  synchronize(plugin, device, recorder);
  CHECK(plugin.download(device, buffer, 512, 4) == unset);
  CHECK(plugin.download(device, buffer, 1792, 4) == unset);

  hx_stream* replayer = new_stream(plugin, device);
  require_ok(DirectPlugin::outcome(recording.replay(device, replayer, recorded)));
  synchronize(plugin, device, replayer);
  CHECK(plugin.download(device, buffer, 512, 4) == std::vector<float>{12, 16, 24, 28});
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] + [100, 200]
  CHECK(plugin.download(device, buffer, 1792, 4) == std::vector<float>{158, 264, 239, 354});

  recording.destroy(device, recorded);
  api.streams->destroy(device, recorder);
  api.streams->destroy(device, replayer);
  api.deallocate(device, buffer, 4096);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Directly: end refuses a capture that a call broke, naming CUDA's error",
          "[cuda][recording][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  const hx_recording_api& recording = recording_api(plugin);
  hx_buffer* buffer = plugin.allocate(device, 256, 256);
  hx_stream* stream = new_stream(plugin, device);

  // The core never waits for a stream that records; a call that does (a kernel that
  // synchronised, say) fails, and CUDA invalidates the capture.
  require_ok(DirectPlugin::outcome(recording.begin(device, stream)));
  require_ok(DirectPlugin::outcome(api.memset(device, stream, buffer, 0, 1, 16)));
  CHECK(DirectPlugin::outcome(api.streams->synchronize(device, stream)).code != HX_OK);
  hx_recording* made = nullptr;
  const Outcome ended = DirectPlugin::outcome(recording.end(device, stream, &made));
  CHECK(ended.code == HX_UNIMPLEMENTED);
  CHECK_THAT(ended.message, Contains("CUDA device 0") && Contains("cudaStreamEndCapture") &&
                                Contains("cudaErrorStreamCapture"));
  CHECK(made == nullptr);

  // The stream left recording mode, and is usable: it records again.
  require_ok(DirectPlugin::outcome(recording.begin(device, stream)));
  require_ok(DirectPlugin::outcome(api.memset(device, stream, buffer, 0, 0, 16)));
  made = end_ok(plugin, device, stream);
  require_ok(DirectPlugin::outcome(recording.replay(device, stream, made)));
  synchronize(plugin, device, stream);
  CHECK(plugin.download(device, buffer, 0, 4) == std::vector<float>{0, 0, 0, 0});

  recording.destroy(device, made);
  api.streams->destroy(device, stream);
  api.deallocate(device, buffer, 256);
}

// The issue "Executing a large MatMul returns late": the call only enqueues a GEMM that runs
// for tens of milliseconds, so its host time must be a launch's, not a wait or an allocation.
// The bound is lenient (a timing test must not be flaky): it catches a wait for the GEMM.
TEST_CASE("Directly: an 8192x8192 MatMul's compute returns long before the GEMM ends",
          "[cuda][recording][direct][gpu][timing]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  constexpr int64_t kN = 8192;
  constexpr size_t kMatrixBytes = static_cast<size_t>(kN * kN) * kFloat;
  hx_buffer* buffer = plugin.allocate(device, 3 * kMatrixBytes, 256);
  require_ok(DirectPlugin::outcome(api.memset(device, nullptr, buffer, 0, 0, 3 * kMatrixBytes)));
  KernelInstance matmul(plugin.kernel("MatMul"), device, {HX_DTYPE_F32, HX_DTYPE_F32},
                        {HX_DTYPE_F32});
  require_ok(matmul.created());
  const View a(buffer, 0, device, {kN, kN});
  const View b(buffer, kMatrixBytes, device, {kN, kN});
  const View c(buffer, 2 * kMatrixBytes, device, {kN, kN});
  hx_stream* stream = new_stream(plugin, device);

  // Warm: the stream's cuBLAS handle, its workspace and cuBLAS's kernel choice are made.
  require_ok(matmul.compute(device, stream, {a, b}, {c}));
  synchronize(plugin, device, stream);

  constexpr int kCalls = 5;
  std::vector<double> microseconds;
  for (int i = 0; i < kCalls; ++i) {
    const auto start = std::chrono::steady_clock::now();
    require_ok(matmul.compute(device, stream, {a, b}, {c}));
    const auto returned = std::chrono::steady_clock::now();
    synchronize(plugin, device, stream);
    microseconds.push_back(
        std::chrono::duration<double, std::micro>(returned - start).count());
  }
  std::sort(microseconds.begin(), microseconds.end());
  const double median = microseconds[kCalls / 2];
  std::cout << "8192x8192 f32 MatMul compute, host time once warm: median " << median
            << " us, min " << microseconds.front() << " us, max " << microseconds.back()
            << " us (" << kCalls << " calls)\n";
  CHECK(median < 5000.0);

  api.streams->destroy(device, stream);
  api.deallocate(device, buffer, 3 * kMatrixBytes);
  CHECK(plugin.warnings().empty());
}
