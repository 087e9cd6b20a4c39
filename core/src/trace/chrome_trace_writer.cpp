#include "trace/chrome_trace_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"
#include "trace/name_table.hpp"
#include "base/json_writing.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;
using Kind = TraceEvent::Kind;

constexpr int kHostPid = 0;
constexpr int kMemoryTid = 0;
constexpr int kSynchronousTid = 1000;  // kNullStream; streams are tids 1, 2, ...

double micros(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

json metadata(const char* what, int pid, int tid, const std::string& name) {
  return {{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

int stream_tid(int32_t stream) { return stream == kNullStream ? kSynchronousTid : stream + 1; }

// "GPU:0" of "/job:localhost/replica:0/task:0/device:GPU:0", for thread names.
std::string short_name(const std::string& device) {
  const size_t at = device.rfind("device:");
  return at == std::string::npos ? device : device.substr(at + 7);
}

class Writer {
 public:
  Writer(std::ostream& out, const DrainedEvents& drained, const TraceWriteOptions& options)
      : out_(out), dims_(drained.dims), options_(options) {}

  void emit(const json& event) {
    out_ << (first_ ? "\n" : ",\n") << json_text(event);
    first_ = false;
  }

  const std::string& name(NameId id) {
    auto found = names_.find(id);
    if (found == names_.end()) found = names_.emplace(id, NameTable::instance().name(id)).first;
    return found->second;
  }

  double ts(int64_t ns) const { return micros(ns - options_.origin_ns); }

  void write(const TraceEvent& event) {
    switch (event.kind) {
      case Kind::kOp: return op(event);
      case Kind::kKernel: return device_span(event, "kernel", title(event), kernel_args(event));
      case Kind::kCopy:
        return device_span(event, "copy", std::string("copy ") + event.label, copy_args(event));
      case Kind::kHostWait: return host_wait(event);
      case Kind::kStreamWait: return stream_wait(event);
      case Kind::kError: return error(event);
      case Kind::kAllocation:
      case Kind::kFree: return memory(event);
      case Kind::kGraphPass: return graph_pass(event);
    }
  }

  size_t unfinished() const { return unfinished_; }

 private:
  json inputs(const TraceEvent& event) const {
    json out = json::array();
    size_t at = event.dims_begin;
    for (uint16_t i = 0; i < event.num_inputs; ++i) {
      const auto dtype = static_cast<DType>(dims_[at]);
      const auto rank = static_cast<size_t>(dims_[at + 1]);
      std::string shape = "[";
      for (size_t d = 0; d < rank; ++d) {
        shape += (d == 0 ? "" : ", ") + std::to_string(dims_[at + 2 + d]);
      }
      out.push_back(std::string(dtype_name(dtype)) + shape + "]");
      at += 2 + rank;
    }
    return out;
  }

  // An op's span is named by its op, or in a graph "node (Op)".
  std::string title(const TraceEvent& event) {
    if (event.node == kNoName) return name(event.name);
    return name(event.node) + " (" + name(event.name) + ")";
  }

  json kernel_args(const TraceEvent& event) {
    json args = {{"op", name(event.name)},
                 {"inputs", inputs(event)},
                 {"device", name(event.device)},
                 {"plugin", name(event.plugin)},
                 {"stream", event.stream}};
    if (event.node != kNoName) args["node"] = name(event.node);
    return args;
  }

  json copy_args(const TraceEvent& event) {
    return {{"direction", event.label},
            {"bytes", event.bytes},
            {"from", name(event.from)},
            {"to", name(event.to)}};
  }

  void op(const TraceEvent& event) {
    std::string placement = event.reason;
    if (placement.empty()) {
      placement = event.text.empty() ? "by device priority" : "as requested: " + event.text;
    }
    json args = {{"op", name(event.name)},         {"inputs", inputs(event)},
                 {"device", name(event.device)},   {"plugin", name(event.plugin)},
                 {"placement", placement}};
    if (event.node != kNoName) args["node"] = name(event.node);
    if (*event.label != '\0') args["status"] = event.label;
    emit({{"ph", "X"}, {"cat", "op"}, {"name", title(event)}, {"ts", ts(event.start_ns)},
          {"dur", micros(event.duration_ns)}, {"pid", kHostPid},
          {"tid", static_cast<int>(event.host_thread)}, {"args", args}});
  }

  void graph_pass(const TraceEvent& event) {
    emit({{"ph", "X"}, {"cat", "compile"}, {"name", "graph pass " + name(event.name)},
          {"ts", ts(event.start_ns)}, {"dur", micros(event.duration_ns)}, {"pid", kHostPid},
          {"tid", static_cast<int>(event.host_thread)},
          {"args", {{"changed", event.bytes}, {"nodes", event.text}}}});
  }

  void device_span(const TraceEvent& event, const char* category, const std::string& title,
                   json args) {
    if (event.unfinished) {
      ++unfinished_;
      args["unfinished"] = "still running when the trace stopped, after waiting " +
                           std::to_string(options_.settle_bound_ms) + " ms: ends there";
    }
    const int pid = device_pid(event.device);
    emit({{"ph", "X"}, {"cat", category}, {"name", title}, {"ts", ts(event.start_ns)},
          {"dur", micros(event.duration_ns)}, {"pid", pid}, {"tid", track(pid, event)},
          {"args", std::move(args)}});
  }

  void host_wait(const TraceEvent& event) {
    emit({{"ph", "X"}, {"cat", "wait"}, {"name", "wait for " + name(event.from)},
          {"ts", ts(event.start_ns)}, {"dur", micros(event.duration_ns)}, {"pid", kHostPid},
          {"tid", static_cast<int>(event.host_thread)},
          {"args", {{"device", name(event.from)}, {"why", event.label}}}});
  }

  void stream_wait(const TraceEvent& event) {
    const int pid = device_pid(event.device);
    emit({{"ph", "i"}, {"s", "t"}, {"cat", "stream wait"},
          {"name", "wait for " + short_name(name(event.from)) + " (" + name(event.name) + ")"},
          {"ts", ts(event.start_ns)}, {"pid", pid}, {"tid", track(pid, event)},
          {"args", {{"device", name(event.from)}, {"op", name(event.name)},
                    {"waiting device", name(event.device)}, {"stream", event.stream}}}});
  }

  void error(const TraceEvent& event) {
    const bool on_device = event.device != kNoName;
    const int pid = on_device ? device_pid(event.device) : kHostPid;
    emit({{"ph", "i"}, {"s", "t"}, {"cat", "error"}, {"name", title(event) + " failed"},
          {"ts", ts(event.start_ns)}, {"pid", pid},
          {"tid", on_device ? track(pid, event) : static_cast<int>(event.host_thread)},
          {"args", {{"op", name(event.name)}, {"device", name(event.device)},
                    {"plugin", name(event.plugin)}, {"error", event.text}}}});
  }

  // An allocation or free as an instant on the device's memory track, and the device's bytes
  // in use as a counter. A free whose allocation came before the trace started moves no
  // counter.
  void memory(const TraceEvent& event) {
    const int pid = device_pid(event.device);
    const std::string& device = name(event.device);
    json args = {{"device", device}, {"block", address_text(event.address)}};
    auto& live = live_[event.device];
    uint64_t& in_use = in_use_[event.device];
    bool counted = true;
    if (event.kind == Kind::kAllocation) {
      args["bytes"] = event.bytes;
      live[event.address] = event.bytes;
      in_use += event.bytes;
    } else {
      auto block = live.find(event.address);
      counted = block != live.end();
      if (counted) {
        args["bytes"] = block->second;
        in_use -= block->second;
        live.erase(block);
      }
    }
    const double at = ts(event.start_ns);
    emit({{"ph", "i"}, {"s", "t"}, {"cat", "memory"},
          {"name", event.kind == Kind::kAllocation ? "allocate" : "free"}, {"ts", at},
          {"pid", pid}, {"tid", named_track(pid, kMemoryTid, short_name(device) + " memory")},
          {"args", args}});
    if (counted) {
      emit({{"ph", "C"}, {"name", "bytes in use"}, {"ts", at}, {"pid", pid},
            {"args", {{"bytes", in_use}}}});
    }
  }

  static std::string address_text(const void* block) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", block);
    return text;
  }

  // The device's process id, naming the process on first use.
  int device_pid(NameId device) {
    auto found = pids_.find(device);
    if (found != pids_.end()) return found->second;
    const int pid = static_cast<int>(pids_.size()) + 1;
    pids_.emplace(device, pid);
    emit(metadata("process_name", pid, 0, name(device)));
    emit({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
    return pid;
  }

  // The tid of the event's stream in `pid`, named ("GPU:0 stream 0") on first use.
  int track(int pid, const TraceEvent& event) {
    const std::string device = short_name(name(event.device));
    return named_track(pid, stream_tid(event.stream),
                       event.stream == kNullStream
                           ? device + " synchronous"
                           : device + " stream " + std::to_string(event.stream));
  }

  int named_track(int pid, int tid, const std::string& title) {
    if (tracks_.insert({pid, tid}).second) emit(metadata("thread_name", pid, tid, title));
    return tid;
  }

  std::ostream& out_;
  const std::vector<int64_t>& dims_;
  TraceWriteOptions options_;
  bool first_ = true;
  size_t unfinished_ = 0;
  std::unordered_map<NameId, std::string> names_;
  std::map<NameId, int> pids_;
  std::set<std::pair<int, int>> tracks_;
  std::map<NameId, std::unordered_map<const void*, uint64_t>> live_;
  std::map<NameId, uint64_t> in_use_;
};

json note(const std::string& text, double ts, const json& args) {
  return {{"ph", "i"}, {"s", "g"},   {"cat", "trace"}, {"name", text},
          {"ts", ts},  {"pid", kHostPid}, {"tid", 0},  {"args", args}};
}

}  // namespace

void write_chrome_trace(std::ostream& out, DrainedEvents drained,
                        const TraceWriteOptions& options) {
  std::vector<TraceEvent>& events = drained.events;
  // In time order, so that each free meets its allocation first and the counters rise and
  // fall as they did.
  std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return a.start_ns < b.start_ns;
  });
  out << "{\"displayTimeUnit\":\"ms\",\"otherData\":"
      << json_text({{"producer", "hxrt"},
                    {"dropped_events", drained.dropped},
                    {"max_events", options.max_events}})
      << ",\"traceEvents\":[";
  Writer writer(out, drained, options);
  writer.emit(metadata("process_name", kHostPid, 0, "host"));
  for (const HostThread& thread : drained.threads) {
    writer.emit(metadata("thread_name", kHostPid, static_cast<int>(thread.ordinal),
                         "host thread " + std::to_string(thread.ordinal) + " (tid " +
                             std::to_string(thread.os_id) + ")"));
  }
  int64_t end_ns = options.origin_ns;
  for (const TraceEvent& event : events) {
    writer.write(event);
    end_ns = std::max(end_ns, event.start_ns + event.duration_ns);
  }
  // Where a reader of the timeline sees them, not only in otherData.
  if (drained.dropped > 0) {
    writer.emit(note(std::to_string(drained.dropped) + " events dropped: the trace keeps " +
                         std::to_string(options.max_events) +
                         " (raise trace.max_events in the config)",
                     writer.ts(end_ns),
                     {{"dropped_events", drained.dropped}, {"max_events", options.max_events}}));
  }
  if (writer.unfinished() > 0) {
    writer.emit(note(std::to_string(writer.unfinished()) +
                         " device spans were still running when the trace stopped (waited " +
                         std::to_string(options.settle_bound_ms) +
                         " ms for them): written up to then, marked unfinished",
                     writer.ts(end_ns), {{"unfinished_spans", writer.unfinished()}}));
  }
  out << "\n]}\n";
}

}  // namespace hxrt::detail
