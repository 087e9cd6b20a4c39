#include "run_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace hxrun {
namespace {

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f ms", ms);
  return text;
}

// "MatMul 3, Add 3, Relu 2": a device's nodes by op, most first.
// "1.5 MiB": bytes at a readable scale.
std::string bytes_text(size_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < sizeof units / sizeof units[0]) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

// A device's memory plan: what a run allocates there, how close the shared arena comes to the
// most its tensors have live at once, and the weights kept across runs.
std::string memory_line(const hxrt::DeviceMemoryPlan& plan) {
  std::string line = "  " + plan.device + ": a run allocates " + bytes_text(plan.peak_bytes) +
                     " (intermediate tensors " + bytes_text(plan.arena_bytes);
  if (plan.widest_bytes > 0) {
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), "%.2f",
                  static_cast<double>(plan.arena_bytes) / static_cast<double>(plan.widest_bytes));
    line += std::string(", ") + ratio + "x the most live at once, " +
            bytes_text(plan.widest_bytes);
  }
  return line + "; fetched and copied " + bytes_text(plan.separate_bytes) + "); constants " +
         bytes_text(plan.constant_bytes);
}

std::string run_statistics(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  double total = 0;
  for (double time : times) total += time;
  const auto at = [&](double fraction) {
    return times[std::min(times.size() - 1, static_cast<size_t>(fraction * times.size()))];
  };
  return std::to_string(times.size()) + " runs: mean " + milliseconds(total / times.size()) +
         ", min " + milliseconds(times.front()) + ", median " + milliseconds(at(0.5)) +
         ", p90 " + milliseconds(at(0.9)) + ", max " + milliseconds(times.back());
}

}  // namespace

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string report_text(const Report& report) {
  const hxrt::OnnxModel& model = *report.loaded;
  std::ostringstream out;
  size_t ops = 0;
  for (const hxrt::GraphNode& node : model.graph.nodes()) {
    if (node.kind == hxrt::GraphNode::Kind::kOp) ++ops;
  }
  out << "Model: " << report.model << " (opset " << model.opset
      << (model.producer.empty() ? "" : ", made by " + model.producer) << "): " << ops
      << " nodes, " << model.folded_nodes << " more computed at load\n";
  out << "Inputs:\n";
  for (const InputLine& input : report.inputs) {
    out << "  " << input.name << ": " << hxrt::dtype_name(input.dtype) << " "
        << input.shape.to_string() << " (" << input.source << ")\n";
  }
  out << "Load: " << milliseconds(report.load_ms) << "; compile: "
      << milliseconds(report.compile_ms) << "\n";
  out << "Placement:\n" << report.exe->placement_summary();
  out << "Memory:\n";
  for (const hxrt::DeviceMemoryPlan& plan : report.exe->memory_plan()) {
    out << memory_line(plan) << "\n";
  }
  out << "Run: " << run_statistics(report.run_ms) << "\n";
  out << "Outputs:\n";
  for (const OutputLine& output : report.outputs) {
    out << "  " << output.name << ": " << hxrt::dtype_name(output.dtype) << " "
        << output.shape.to_string() << (output.saved.empty() ? "" : " -> " + output.saved)
        << "\n";
  }
  return out.str();
}

}  // namespace hxrun
