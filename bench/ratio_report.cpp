#include "ratio_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace hxrt_bench {

void RecordingReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    if (run.error_occurred) continue;
    const std::string& name = run.run_name.function_name;
    const double seconds =
        run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    Values& times = times_[name];
    if (run.run_type == Run::RT_Iteration) {
      times.repetitions.push_back(seconds);
      for (const auto& [counter, value] : run.counters) {
        counters_[{name, counter}].repetitions.push_back(value.value);
      }
    } else if (run.aggregate_name == "median") {
      if (run.aggregate_unit == benchmark::kTime) times.median = seconds;
      for (const auto& [counter, value] : run.counters) {
        counters_[{name, counter}].median = value.value;
      }
    }
  }
  benchmark::ConsoleReporter::ReportRuns(runs);
}

std::optional<double> RecordingReporter::seconds_per_iteration(const std::string& name) const {
  const auto found = times_.find(name);
  return found == times_.end() ? std::nullopt : median_of(found->second);
}

std::optional<double> RecordingReporter::counter(const std::string& name,
                                                 const std::string& counter) const {
  const auto found = counters_.find({name, counter});
  return found == counters_.end() ? std::nullopt : median_of(found->second);
}

std::optional<double> RecordingReporter::median_of(const Values& values) {
  if (values.median) return values.median;
  // A single repetition has no aggregates; several shown without them have no median.
  if (values.repetitions.empty()) return std::nullopt;
  std::vector<double> sorted = values.repetitions;
  std::sort(sorted.begin(), sorted.end());
  const size_t middle = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

void print_ratio_table(std::ostream& out, const RecordingReporter& reporter,
                       const std::vector<RatioBudget>& budgets,
                       const std::vector<CounterBudget>& counter_budgets) {
  const auto row = [&out](const std::string& label, const std::string& measured,
                          const std::string& target, const std::string& result) {
    out << "  " << std::left << std::setw(24) << label << std::right << std::setw(10) << measured
        << "  " << std::left << std::setw(9) << target << result << '\n';
  };
  if (!budgets.empty()) {
    out << "\nRatios of two benchmarks of this run (the runtime against the direct call, or N "
           "devices against one):\n";
    row("", "measured", "target", "result");
  }
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
  if (counter_budgets.empty()) return;
  out << "\nQuantities measured by one benchmark:\n";
  row("", "measured", "target", "result");
  for (const CounterBudget& budget : counter_budgets) {
    const std::optional<double> value = reporter.counter(budget.benchmark, budget.counter);
    std::ostringstream target;
    target << "<= " << budget.target << budget.unit;
    if (!value) {
      row(budget.label, "-", target.str(), "not run");
      continue;
    }
    std::ostringstream measured;
    measured << std::fixed << std::setprecision(3) << *value << budget.unit;
    row(budget.label, measured.str(), target.str(), *value <= budget.target ? "met" : "MISSED");
  }
}

}  // namespace hxrt_bench
