// Runtime::start_trace / stop_trace: the events an op, a copy, a wait and an allocation leave,
// with their args, on the tracks they belong to.
#include <catch2/catch.hpp>

#include <set>
#include <thread>

#include "error_from.hpp"
#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;

namespace {

const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";

}  // namespace

TEST_CASE("a trace started by the API records ops, copies, waits and allocations with args") {
  hxrt_test::TempDir dir("hxrt_trace_api");
  const std::string path = (dir.path() / "trace.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  rt.start_trace(path);
  hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "CPU:0");
  hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "CPU:0");
  hxrt::Tensor c = rt.execute("MatMul", {a, b}, {}, "/GPU:0");  // inputs copied from the CPU
  hxrt::Tensor d = rt.to_device(c, "GPU:1");                   // same plugin: waits on GPU:0
  CHECK(rt.stop_trace() == path);
  const json trace = trace_test::read_trace(path);

  const std::vector<json> ops = events(trace, "op", "MatMul");
  REQUIRE(ops.size() == 1);
  const json& op = ops[0];
  CHECK(op.at("ph") == "X");
  CHECK(op.at("pid") == 0);  // the host
  CHECK(op.at("args").at("op") == "MatMul");
  CHECK(op.at("args").at("inputs") == json::array({"float32[2, 3]", "float32[3, 2]"}));
  CHECK(op.at("args").at("device") == kGpu0);
  CHECK(op.at("args").at("plugin") == "sim");
  CHECK(op.at("args").at("placement") == "as requested: /GPU:0");

  const std::vector<json> kernels = events(trace, "kernel", "MatMul");
  REQUIRE(kernels.size() == 1);
  CHECK(trace_test::process_name(trace, kernels[0].at("pid")) == kGpu0);
  // Queued during the call on an asynchronous device: the kernel's span starts no earlier
  // than the op's, and may start and end after it returned (behind the uploads queued before
  // it on that stream, when the poller sees its event complete).
  CHECK(kernels[0].at("ts").get<double>() >= op.at("ts").get<double>());

  const std::vector<json> uploads = events(trace, "copy", "copy host to device");
  CHECK(uploads.size() == 2);  // a and b
  // The CPU's memory is host memory: each input is uploaded from it directly, one copy.
  const std::vector<json> between = events(trace, "copy", "copy between plugins");
  REQUIRE(between.size() == 2);  // a and b, from the CPU to the sim GPU
  CHECK(between[0].at("args").at("bytes") == 24);
  CHECK(between[0].at("args").at("to") == kGpu0);
  const std::vector<json> peer = events(trace, "copy", "copy device to device");
  REQUIRE(peer.size() == 1);
  CHECK(peer[0].at("args").at("direction") == "device to device");
  CHECK(peer[0].at("args").at("bytes") == 16);
  CHECK(peer[0].at("args").at("from") == kGpu0);
  CHECK(peer[0].at("args").at("to") == kGpu1);
  CHECK(trace_test::process_name(trace, peer[0].at("pid")) == kGpu1);
  // GPU:1 waited for c on its stream; the host never waited (CPU tensors are ready at once).
  const std::vector<json> stream_waits = events(trace, "stream wait");
  REQUIRE(stream_waits.size() == 1);
  CHECK(trace_test::process_name(trace, stream_waits[0].at("pid")) == kGpu1);
  CHECK(events(trace, "wait").empty());

  // The output c allocated on GPU:0 (16 bytes, rounded up to the device's alignment), and
  // the copies of a and b freed there when the call returned; each moves GPU:0's counter.
  bool output_allocated = false;
  for (const json& event : events(trace, "memory", "allocate")) {
    CHECK(event.at("ph") == "i");
    if (event.at("args").at("device") == kGpu0 && event.at("args").at("bytes") >= 16) {
      output_allocated = true;
    }
  }
  CHECK(output_allocated);
  size_t frees_with_bytes = 0;
  for (const json& event : events(trace, "memory", "free")) {
    if (event.at("args").contains("bytes")) ++frees_with_bytes;
  }
  CHECK(frees_with_bytes >= 2);
  size_t counters = 0;
  for (const json& event : trace.at("traceEvents")) {
    if (event.at("ph") == "C") ++counters;
  }
  CHECK(counters > 0);
  CHECK(trace.at("otherData").at("dropped_events") == 0);
}

TEST_CASE("events of two host threads land on two host tids, each named") {
  hxrt_test::TempDir dir("hxrt_trace_threads");
  const std::string path = (dir.path() / "trace.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  rt.start_trace(path);
  rt.execute("Add", {a, a}, {}, "CPU:0");
  std::thread other([&] { rt.execute("Add", {a, a}, {}, "CPU:0"); });
  other.join();
  rt.stop_trace();
  const json trace = trace_test::read_trace(path);
  std::set<int> tids;
  for (const json& op : events(trace, "op", "Add")) {
    CHECK(op.at("pid") == 0);
    tids.insert(op.at("tid").get<int>());
  }
  CHECK(tids.size() == 2);
  std::set<int> named;
  for (const json& event : trace.at("traceEvents")) {
    if (event.at("ph") == "M" && event.at("name") == "thread_name" && event.at("pid") == 0) {
      named.insert(event.at("tid").get<int>());
    }
  }
  for (int tid : tids) CHECK(named.count(tid) == 1);
}

TEST_CASE("only work done while the trace runs is recorded") {
  hxrt_test::TempDir dir("hxrt_trace_window");
  const std::string path = (dir.path() / "trace.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  hxrt::Tensor a = rt.tensor<float>({2}, {1, 2}, "CPU:0");
  rt.execute("Relu", {a}, {}, "CPU:0");
  rt.start_trace(path);
  rt.execute("Add", {a, a}, {}, "CPU:0");
  rt.stop_trace();
  rt.execute("Mul", {a, a}, {}, "CPU:0");
  const json trace = trace_test::read_trace(path);
  CHECK(events(trace, "op", "Relu").empty());
  CHECK(events(trace, "op", "Add").size() == 1);
  CHECK(events(trace, "op", "Mul").empty());
}

TEST_CASE("stop_trace with no trace running does nothing and says so") {
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  CHECK(rt.stop_trace().empty());
  CHECK(rt.stop_trace().empty());
  CHECK(rt.execute("Add", {rt.tensor<float>({1}, {1}), rt.tensor<float>({1}, {2})}).valid());
}

TEST_CASE("an unwritable trace path is an error at start, and nothing is recorded") {
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  const auto error =
      hxrt_test::error_from([&] { rt.start_trace("/nonexistent-folder/trace.json"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("cannot open '/nonexistent-folder/trace.json'") &&
                               Catch::Contains("No such file or directory") &&
                               Catch::Contains("folder that exists"));
  CHECK(rt.stop_trace().empty());  // it did not start
}

TEST_CASE("a second start while a trace runs is refused, naming the running trace") {
  hxrt_test::TempDir dir("hxrt_trace_twice");
  const std::string path = (dir.path() / "first.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  rt.start_trace(path);
  const auto error =
      hxrt_test::error_from([&] { rt.start_trace((dir.path() / "second.json").string()); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kFailedPrecondition);
  CHECK_THAT(error->what(), Catch::Contains(path) && Catch::Contains("stop_trace() first"));
  CHECK(rt.stop_trace() == path);
}
