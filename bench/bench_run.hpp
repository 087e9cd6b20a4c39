// What every benchmark program here does around its own benchmarks: Google Benchmark's
// command line with the project's default flags, and one run whose budgets are printed after
// it.
#pragma once

#include <functional>
#include <initializer_list>
#include <vector>

#include "ratio_report.hpp"

namespace hxrt_bench {

// Initialises Google Benchmark from the command line, with the default flags (medians of
// three interleaved repetitions, steadier ratios on a small, busy machine) and then
// `extra_flags` before the user's, so that a flag the user gives wins. False when a flag is
// not recognised (the library has said which): exit with status 2.
bool initialize(int argc, char** argv, std::initializer_list<const char*> extra_flags = {});

// The rest of a benchmark program's main, once initialize has succeeded: `body` registers
// and runs the benchmarks. Returns main's exit status: 0, or 1 when `body` threw (its error
// printed after `program`, the program's name).
int run_program(const char* program, const std::function<void()>& body);

// Runs the registered benchmarks, printing each (coloured only on a terminal, so that a
// redirected run stays plain text), then the table of `budgets` and `counter_budgets`.
void run_and_report(const std::vector<RatioBudget>& budgets,
                    const std::vector<CounterBudget>& counter_budgets = {});

}  // namespace hxrt_bench
