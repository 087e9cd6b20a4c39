// The performance budgets are ratios between two benchmarks of one run, or a quantity one
// benchmark measures (a counter): a console reporter that also keeps each benchmark's time and
// counters, and the table of those budgets.
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
  // The named counter of the named benchmark, the median over its repetitions; nullopt when
  // it did not run or has no such counter.
  std::optional<double> counter(const std::string& name, const std::string& counter) const;

 private:
  struct Values {
    std::vector<double> repetitions;
    std::optional<double> median;  // the library's own, when it computed aggregates
  };
  static std::optional<double> median_of(const Values& values);

  std::map<std::string, Values> times_;
  std::map<std::pair<std::string, std::string>, Values> counters_;  // (benchmark, counter)
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

// A budget on a counter of one benchmark: at most `target`.
struct CounterBudget {
  const char* label;      // "mixed-workload reserve"
  const char* benchmark;
  const char* counter;
  double target;
  const char* unit = "x";  // printed after the value and the target: "x" for a ratio, "ns"
};

// Prints one line per budget: the measured ratio or counter, the target and whether it was
// met.
void print_ratio_table(std::ostream& out, const RecordingReporter& reporter,
                       const std::vector<RatioBudget>& budgets,
                       const std::vector<CounterBudget>& counter_budgets = {});

}  // namespace hxrt_bench
