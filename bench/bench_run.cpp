#include "bench_run.hpp"

#include <unistd.h>

#include <benchmark/benchmark.h>

#include <exception>
#include <functional>
#include <iostream>
#include <string>

namespace hxrt_bench {

namespace {

const char* const kDefaultFlags[] = {
    "--benchmark_repetitions=3",
    "--benchmark_enable_random_interleaving=true",
    "--benchmark_display_aggregates_only=true",
};

}  // namespace

bool initialize(int argc, char** argv, std::initializer_list<const char*> extra_flags) {
  // Google Benchmark takes mutable strings; they live as long as the process.
  static std::vector<std::string> flags;
  flags.assign(std::begin(kDefaultFlags), std::end(kDefaultFlags));
  flags.insert(flags.end(), extra_flags.begin(), extra_flags.end());
  std::vector<char*> args = {argv[0]};
  for (std::string& flag : flags) args.push_back(flag.data());
  args.insert(args.end(), argv + 1, argv + argc);
  int arg_count = static_cast<int>(args.size());
  benchmark::Initialize(&arg_count, args.data());
  return !benchmark::ReportUnrecognizedArguments(arg_count, args.data());
}

int run_program(const char* program, const std::function<void()>& body) {
  int status = 0;
  try {
    body();
  } catch (const std::exception& error) {  // hxrt::Error, or a program's own runtime_error
    std::cerr << program << ": " << error.what() << '\n';
    status = 1;
  }
  benchmark::Shutdown();
  return status;
}

void run_and_report(const std::vector<RatioBudget>& budgets,
                    const std::vector<CounterBudget>& counter_budgets) {
  RecordingReporter reporter(isatty(STDOUT_FILENO) != 0
                                 ? benchmark::ConsoleReporter::OO_ColorTabular
                                 : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  print_ratio_table(std::cout, reporter, budgets, counter_budgets);
}

}  // namespace hxrt_bench
