// The performance budgets are ratios between two benchmarks of one run: a console reporter
// that also keeps each benchmark's time, and the table of those ratios.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hxrt_bench {

class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override;

  // Real seconds per iteration of the named benchmark, the median over its repetitions;
  // nullopt when it did not run (filtered out, or it failed).
  std::optional<double> seconds_per_iteration(const std::string& name) const;

 private:
  struct Times {
    std::vector<double> repetitions;
    std::optional<double> median;  // the library's own, when it computed aggregates
  };
  std::map<std::string, Times> times_;
};

// A budget: how the runtime may compare with the direct library call.
struct RatioBudget {
  const char* label;             // "2x2 MatMul time"
  const char* runtime_benchmark;
  const char* direct_benchmark;
  bool throughput;               // false: runtime time / direct time, at most `target`;
                                 // true: runtime throughput / direct throughput, at least `target`
  double target;
};

// Prints one line per budget: the measured ratio, the target and whether it was met.
void print_ratio_table(std::ostream& out, const RecordingReporter& reporter,
                       const std::vector<RatioBudget>& budgets);

}  // namespace hxrt_bench
