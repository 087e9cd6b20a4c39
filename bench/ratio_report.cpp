#include "ratio_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace hxrt_bench {

void RecordingReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    if (run.error_occurred) continue;
    const double seconds =
        run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    Times& times = times_[run.run_name.function_name];
    if (run.run_type == Run::RT_Iteration) {
      times.repetitions.push_back(seconds);
    } else if (run.aggregate_name == "median" && run.aggregate_unit == benchmark::kTime) {
      times.median = seconds;
    }
  }
  benchmark::ConsoleReporter::ReportRuns(runs);
}

std::optional<double> RecordingReporter::seconds_per_iteration(const std::string& name) const {
  const auto found = times_.find(name);
  if (found == times_.end()) return std::nullopt;
  const Times& times = found->second;
  if (times.median) return times.median;
  // A single repetition has no aggregates; several shown without them have no median.
  if (times.repetitions.empty()) return std::nullopt;
  std::vector<double> sorted = times.repetitions;
  std::sort(sorted.begin(), sorted.end());
  const size_t middle = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

void print_ratio_table(std::ostream& out, const RecordingReporter& reporter,
                       const std::vector<RatioBudget>& budgets) {
  const auto row = [&out](const std::string& label, const std::string& measured,
                          const std::string& target, const std::string& result) {
    out << "  " << std::left << std::setw(24) << label << std::right << std::setw(10) << measured
        << "  " << std::left << std::setw(9) << target << result << '\n';
  };
  out << "\nRatios, runtime against the direct library call:\n";
  row("", "measured", "target", "result");
  for (const RatioBudget& budget : budgets) {
    const std::optional<double> runtime = reporter.seconds_per_iteration(budget.runtime_benchmark);
    const std::optional<double> direct = reporter.seconds_per_iteration(budget.direct_benchmark);
    std::ostringstream target;
    target << (budget.throughput ? ">= " : "<= ") << budget.target << 'x';
    if (!runtime || !direct || *runtime <= 0) {
      row(budget.label, "-", target.str(), "not run");
      continue;
    }
    // Throughput is work per second, so its ratio is the inverse of the time ratio.
    const double ratio = budget.throughput ? *direct / *runtime : *runtime / *direct;
    const bool met = budget.throughput ? ratio >= budget.target : ratio <= budget.target;
    std::ostringstream measured;
    measured << std::fixed << std::setprecision(3) << ratio << 'x';
    row(budget.label, measured.str(), target.str(), met ? "met" : "MISSED");
  }
}

}  // namespace hxrt_bench
