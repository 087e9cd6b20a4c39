#include "trace/chrome_trace_writer.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace hxrt::detail {
namespace {

using nlohmann::json;

constexpr int kHostPid = 0;
constexpr int kStreamTid = 1;  // a device's default stream (the only one the core uses yet)

double micros(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

json metadata(const char* what, int pid, int tid, const std::string& name) {
  return {{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

class Writer {
 public:
  Writer(std::ostream& out, int64_t origin_ns) : out_(out), origin_ns_(origin_ns) {}

  void emit(const json& event) {
    out_ << (first_ ? "\n" : ",\n") << event.dump();
    first_ = false;
  }

  // The device's process id, naming the process and its stream on first use.
  int device_pid(const std::string& device) {
    auto found = pids_.find(device);
    if (found != pids_.end()) return found->second;
    const int pid = static_cast<int>(pids_.size()) + 1;
    pids_.emplace(device, pid);
    emit(metadata("process_name", pid, 0, device));
    emit({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
    emit(metadata("thread_name", pid, kStreamTid, "stream 0 (default)"));
    return pid;
  }

  void span(const TraceEvent& event) {
    const bool on_device = !event.device.empty();
    emit({{"ph", "X"},
          {"cat", event.category},
          {"name", event.name},
          {"ts", micros(event.start_ns - origin_ns_)},
          {"dur", micros(event.duration_ns)},
          {"pid", on_device ? device_pid(event.device) : kHostPid},
          {"tid", on_device ? kStreamTid : static_cast<int>(event.host_thread)},
          {"args", event.args}});
  }

  // An allocation or free as an instant on the device, and the device's bytes in use as a
  // counter. A free whose allocation came before the trace started moves no counter.
  void memory(const TraceEvent& event) {
    const int pid = device_pid(event.device);
    json args = event.args;
    auto& live = live_[event.device];
    uint64_t& in_use = in_use_[event.device];
    bool counted = true;
    if (event.kind == TraceEvent::Kind::kAllocation) {
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
    const double ts = micros(event.start_ns - origin_ns_);
    emit({{"ph", "i"}, {"s", "p"}, {"cat", event.category}, {"name", event.name}, {"ts", ts},
          {"pid", pid}, {"tid", kStreamTid}, {"args", args}});
    if (counted) {
      emit({{"ph", "C"}, {"name", "bytes in use"}, {"ts", ts}, {"pid", pid},
            {"args", {{"bytes", in_use}}}});
    }
  }

 private:
  std::ostream& out_;
  int64_t origin_ns_;
  bool first_ = true;
  std::map<std::string, int> pids_;
  std::map<std::string, std::unordered_map<const void*, uint64_t>> live_;
  std::map<std::string, uint64_t> in_use_;
};

}  // namespace

void write_chrome_trace(std::ostream& out, DrainedEvents drained, int64_t origin_ns,
                        uint64_t max_events) {
  std::vector<TraceEvent>& events = drained.events;
  // In time order, so that each free meets its allocation first and the counters rise and
  // fall as they did.
  std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return a.start_ns < b.start_ns;
  });
  out << "{\"displayTimeUnit\":\"ms\",\"otherData\":"
      << json{{"producer", "hxrt"}, {"dropped_events", drained.dropped},
              {"max_events", max_events}}
             .dump()
      << ",\"traceEvents\":[";
  Writer writer(out, origin_ns);
  writer.emit(metadata("process_name", kHostPid, 0, "host"));
  for (const HostThread& thread : drained.threads) {
    writer.emit(metadata("thread_name", kHostPid, static_cast<int>(thread.ordinal),
                         "host thread " + std::to_string(thread.ordinal) + " (tid " +
                             std::to_string(thread.os_id) + ")"));
  }
  int64_t end_ns = origin_ns;
  for (const TraceEvent& event : events) {
    if (event.kind == TraceEvent::Kind::kSpan) {
      writer.span(event);
    } else {
      writer.memory(event);
    }
    end_ns = std::max(end_ns, event.start_ns + event.duration_ns);
  }
  if (drained.dropped > 0) {
    // Where a reader of the timeline sees it, not only in otherData.
    writer.emit({{"ph", "i"},
                 {"s", "g"},
                 {"cat", "trace"},
                 {"name", std::to_string(drained.dropped) + " events dropped: the trace keeps " +
                              std::to_string(max_events) +
                              " (raise trace.max_events in the config)"},
                 {"ts", micros(end_ns - origin_ns)},
                 {"pid", kHostPid},
                 {"tid", 0},
                 {"args", {{"dropped_events", drained.dropped}, {"max_events", max_events}}}});
  }
  out << "\n]}\n";
}

}  // namespace hxrt::detail
