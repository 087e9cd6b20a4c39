// The hooks of device work, called directly: spans that end when their completion test first
// says so, one track per (device, stream), unfinished work at stop, stream waits and errors.
// Completion is driven by flags the test sets, so ordering is checked without sleeps.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>

#include "temp_dir.hpp"
#include "trace/op_trace.hpp"
#include "trace/tracer.hpp"
#include "trace/transfer_trace.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;

namespace {

const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";
const std::string kMatMul = "MatMul";

// A completion test the test completes by hand.
struct Gate {
  std::shared_ptr<std::atomic<bool>> open = std::make_shared<std::atomic<bool>>(false);
  hxrt::detail::CompletionTest test() const {
    auto flag = open;
    return [flag] { return flag->load(); };
  }
  void release() const { open->store(true); }
};

// Starts a trace into `dir` for the scope; stop() writes and reads it back.
struct DirectTrace {
  explicit DirectTrace(const char* name) : dir(name), path((dir.path() / "t.json").string()) {
    hxrt::detail::Tracer::instance().start(path, 1000, this);
  }
  ~DirectTrace() { hxrt::detail::Tracer::instance().stop_owned_by(this); }
  json stop() {
    REQUIRE(hxrt::detail::Tracer::instance().stop() == path);
    return trace_test::read_trace(path);
  }
  hxrt_test::TempDir dir;
  std::string path;
};

double end_of(const json& span) { return span.at("ts").get<double>() + span.at("dur").get<double>(); }

std::string thread_name(const json& trace, int pid, int tid) {
  for (const json& event : trace.at("traceEvents")) {
    if (event.at("ph") == "M" && event.at("name") == "thread_name" && event.at("pid") == pid &&
        event.at("tid") == tid) {
      return event.at("args").at("name");
    }
  }
  return {};
}

}  // namespace

TEST_CASE("a device span ends when its completion test first passes, on its stream's track") {
  DirectTrace trace("hxrt_trace_work");
  hxrt::detail::TensorMeta inputs[2];
  inputs[0].shape = hxrt::Shape{64, 32};
  inputs[1].shape = hxrt::Shape{32, 16};
  Gate first, second, other;
  // Two on GPU:0's stream 0 and one on GPU:1, all pending at once.
  hxrt::detail::note_device_work(kGpu0, 0, kMatMul, inputs, 2, first.test());
  hxrt::detail::note_device_work(kGpu0, 0, "Relu", inputs, 1, second.test());
  hxrt::detail::note_device_work(kGpu1, 0, kMatMul, inputs, 2, other.test());
  other.release();
  second.release();  // done, but its stream runs in order: it ends after the first
  first.release();
  const json written = trace.stop();

  const std::vector<json> kernels = events(written, "kernel");
  REQUIRE(kernels.size() == 3);
  const json* gpu0_matmul = nullptr;
  const json* gpu0_relu = nullptr;
  const json* gpu1_matmul = nullptr;
  for (const json& kernel : kernels) {
    const bool on_gpu0 = kernel.at("args").at("device") == kGpu0;
    if (kernel.at("name") == "Relu") gpu0_relu = &kernel;
    else if (on_gpu0) gpu0_matmul = &kernel;
    else gpu1_matmul = &kernel;
  }
  REQUIRE(gpu0_matmul != nullptr);
  REQUIRE(gpu0_relu != nullptr);
  REQUIRE(gpu1_matmul != nullptr);
  CHECK(gpu0_matmul->at("args").at("inputs") == json::array({"float32[64, 32]", "float32[32, 16]"}));
  CHECK(gpu0_matmul->at("args").at("stream") == 0);
  // In stream order: the Relu starts where the MatMul before it ended.
  CHECK(gpu0_relu->at("ts").get<double>() >= end_of(*gpu0_matmul) - 0.001);
  // Both GPUs' MatMuls were pending together: their spans overlap in time.
  CHECK(gpu0_matmul->at("ts").get<double>() < end_of(*gpu1_matmul));
  CHECK(gpu1_matmul->at("ts").get<double>() < end_of(*gpu0_matmul));
  // Each device its own process; each stream a named thread of it.
  CHECK(gpu0_matmul->at("pid") != gpu1_matmul->at("pid"));
  CHECK(trace_test::process_name(written, gpu0_matmul->at("pid")) == kGpu0);
  CHECK(thread_name(written, gpu0_matmul->at("pid"), gpu0_matmul->at("tid")) == "GPU:0 stream 0");
  CHECK(thread_name(written, gpu1_matmul->at("pid"), gpu1_matmul->at("tid")) == "GPU:1 stream 0");
}

TEST_CASE("a span whose work never completes is written as unfinished, with a note") {
  DirectTrace trace("hxrt_trace_unfinished");
  Gate never;
  hxrt::detail::note_device_work(kGpu0, 1, kMatMul, nullptr, 0, never.test());
  const json written = trace.stop();  // waits its bound (2 s), then writes
  const std::vector<json> kernels = events(written, "kernel");
  REQUIRE(kernels.size() == 1);
  CHECK_THAT(kernels[0].at("args").at("unfinished").get<std::string>(),
             Catch::Contains("still running when the trace stopped"));
  CHECK(thread_name(written, kernels[0].at("pid"), kernels[0].at("tid")) == "GPU:0 stream 1");
  const std::vector<json> notes = events(written, "trace");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].at("args").at("unfinished_spans") == 1);
  CHECK(never.open.use_count() == 1);  // the test was dropped, and what it held with it
}

TEST_CASE("copies on a stream, stream waits and errors of queued work are recorded") {
  DirectTrace trace("hxrt_trace_waits");
  Gate copied;
  const std::string host = "host";
  hxrt::detail::note_device_copy({"host to device", 256, host, kGpu1, kGpu1, 0}, copied.test());
  copied.release();
  hxrt::detail::record_stream_wait(kGpu1, 0, kGpu0, kMatMul);
  hxrt::detail::record_work_error(kGpu0, kMatMul, "sim", "MatMul on GPU:0 failed: injected");
  const hxrt::detail::SpanTimer waited(true);
  hxrt::detail::record_wait(waited, kGpu0, "to_host");
  const json written = trace.stop();

  const std::vector<json> copies = events(written, "copy", "copy host to device");
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].at("args") ==
        json({{"direction", "host to device"}, {"bytes", 256}, {"from", "host"}, {"to", kGpu1}}));
  const std::vector<json> stream_waits = events(written, "stream wait");
  REQUIRE(stream_waits.size() == 1);
  CHECK(stream_waits[0].at("name") == "wait for GPU:0 (MatMul)");
  CHECK(stream_waits[0].at("pid") == copies[0].at("pid"));  // on GPU:1's stream
  CHECK(stream_waits[0].at("tid") == copies[0].at("tid"));
  const std::vector<json> errors = events(written, "error");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].at("args").at("error") == "MatMul on GPU:0 failed: injected");
  CHECK(errors[0].at("args").at("plugin") == "sim");
  const std::vector<json> waits = events(written, "wait");
  REQUIRE(waits.size() == 1);
  CHECK(waits[0].at("args") == json({{"device", kGpu0}, {"why", "to_host"}}));
  CHECK(waits[0].at("pid") == 0);
}

TEST_CASE("an op enqueued on an asynchronous device: host span now, kernel span at completion") {
  DirectTrace trace("hxrt_trace_enqueued");
  hxrt::detail::TensorMeta input;
  input.shape = hxrt::Shape{4};
  const std::string plugin = "sim", requested = "/GPU:1", reason;
  Gate done;
  hxrt::detail::OpTrace op(true);
  op.kernel_starts();
  op.record_enqueued({kMatMul, &input, 1, kGpu1, plugin, requested, reason}, 0, done.test());
  hxrt::detail::OpTrace failed(true);
  failed.record_failure({kMatMul, &input, 1, kGpu1, plugin, requested, reason}, "bad shapes");
  done.release();
  const json written = trace.stop();
  const std::vector<json> ops = events(written, "op");
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].at("args").at("placement") == "as requested: /GPU:1");
  CHECK(ops[0].at("args").at("inputs") == json::array({"float32[4]"}));
  CHECK(ops[1].at("args").at("status") == "failed");
  const std::vector<json> kernels = events(written, "kernel");
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].at("args").at("plugin") == "sim");
  CHECK(kernels[0].at("ts").get<double>() <= end_of(ops[0]));
  const std::vector<json> errors = events(written, "error");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].at("args").at("error") == "bad shapes");
}
