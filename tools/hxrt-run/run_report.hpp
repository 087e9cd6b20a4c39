// What hxrt-run prints: the model, its inputs, where its nodes run (and which fell back from
// the device they asked for, and why), the times of load, compile and the runs, its outputs.
#pragma once

#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace hxrun {

struct InputLine {
  std::string name;
  hxrt::DType dtype;
  hxrt::Shape shape;
  std::string source;  // the .npy file, or "random"
};

struct OutputLine {
  std::string name;
  hxrt::DType dtype;
  hxrt::Shape shape;
  std::string saved;  // the .npy file written, or ""
};

struct Report {
  std::string model;
  const hxrt::OnnxModel* loaded = nullptr;
  const hxrt::Executable* exe = nullptr;
  std::vector<InputLine> inputs;
  std::vector<OutputLine> outputs;
  double load_ms = 0;
  double compile_ms = 0;
  std::vector<double> run_ms;
};

std::string report_text(const Report& report);
std::string join(const std::vector<std::string>& names);

}  // namespace hxrun
