// The threads section: several threads at once allocate, copy and free memory and run a
// kernel of a core op against its reference, each on streams of its own, spread over the devices. The
// ABI lets the core call all of these from any thread at any time.
#include <algorithm>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sections/kernel_checks.hpp"
#include "sections/sections.hpp"
#include "sections/thread_workload.hpp"

namespace hxrt_conformance {
namespace {

// Enough threads to overlap calls on two cores, few enough iterations to stay well under a
// second under AddressSanitizer: about a thousand plugin calls in all.
constexpr int kThreads = 4;
constexpr int kIterations = 25;

// The first kernel variant of a core op that the core runs (a custom op has no reference).
std::optional<KernelVariant> first_checkable_variant(const PluginSession& session,
                                                     uint64_t seed) {
  const std::vector<RegisteredKernel>& kernels = session.core().kernels();
  for (const RegisteredKernel& kernel : kernels) {
    if (core_op(kernel.op) == nullptr) continue;
    for (const KernelVariant& variant : variants_of(kernel, kernels)) {
      if (!variant_cases(variant, seed).empty()) return variant;
    }
  }
  return std::nullopt;
}

// "thread 1 (device 1, 3 failures in 25 iterations), iteration 3: ...", for the first two
// threads that failed (the others mostly repeat them), then how many more did.
std::string failures_text(const std::vector<ThreadOutcome>& outcomes,
                          FailureCount ThreadOutcome::*kind) {
  constexpr int kThreadsShown = 2;
  std::string text;
  int failed_threads = 0;
  for (size_t thread = 0; thread < outcomes.size(); ++thread) {
    const FailureCount& failures = outcomes[thread].*kind;
    if (failures.count == 0 || ++failed_threads > kThreadsShown) continue;
    if (!text.empty()) text += "; ";
    text += "thread " + std::to_string(thread) + " (" + outcomes[thread].device_label + ", " +
            std::to_string(failures.count) + (failures.count == 1 ? " failure" : " failures") +
            " in " + std::to_string(kIterations) + " iterations), " + failures.first;
  }
  if (failed_threads > kThreadsShown) {
    text += "; " + std::to_string(failed_threads - kThreadsShown) + " more thread(s) failed";
  }
  return text;
}

}  // namespace

void check_threads(const Target& target, PluginSession& session, SectionLog& log) {
  if (!require_devices(session, log, "threads")) return;
  ThreadWorkload workload;
  workload.session = &session;
  workload.iterations = kIterations;
  workload.seed = target.seed;
  workload.variant = first_checkable_variant(session, target.seed);
  const size_t device_count = session.devices().size();
  const std::vector<DeviceUnderTest> devices = devices_under_test(session);
  if (workload.variant) {
    // Dense cases only: broadcasting is the kernels section's; this one watches concurrency.
    for (KernelCase& kernel_case : variant_cases(*workload.variant, target.seed)) {
      if (!kernel_case.broadcast) workload.cases.push_back(std::move(kernel_case));
    }
    for (size_t device = 0; device < std::min<size_t>(device_count, kThreads); ++device) {
      workload.instances.emplace_back();
      for (const KernelCase& kernel_case : workload.cases) {
        std::vector<TensorSpec> inputs;
        for (const HostTensor& input : kernel_case.inputs) inputs.push_back(input.spec);
        workload.instances.back().push_back(std::make_unique<KernelInstance>(
            *workload.variant->kernel, devices[device], kernel_case.attrs, dtypes_of(inputs),
            dtypes_of(output_specs(kernel_case))));
      }
    }
  }

  // The threads start together, so that their first calls overlap too.
  std::promise<void> start;
  const std::shared_future<void> started = start.get_future().share();
  std::vector<ThreadOutcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([&, thread] {
      started.wait();
      outcomes[static_cast<size_t>(thread)] =
          run_thread_workload(workload, thread, static_cast<size_t>(thread) % device_count);
    });
  }
  start.set_value();
  for (std::thread& thread : threads) thread.join();

  const std::string threads_text = std::to_string(kThreads) + " threads";
  const std::string spread = std::to_string(kIterations) + " iterations each on " +
                             std::to_string(std::min<size_t>(device_count, kThreads)) +
                             " device(s)" +
                             (session.has_streams() ? ", a new stream each iteration" : "");
  const std::string memory_failures = failures_text(outcomes, &ThreadOutcome::memory);
  if (memory_failures.empty()) {
    log.pass(threads_text + " allocate, copy and free at once", spread);
  } else {
    log.fail(threads_text + " allocate, copy and free at once",
             memory_failures + " (seed " + std::to_string(target.seed) +
                 "); if the memory and streams sections pass, allocation and copies are not "
                 "thread-safe: the core calls them from several threads at once");
  }
  if (!workload.variant) {
    log.skip(threads_text + " run a kernel at once",
             "the plugin registers no kernel of a core op that the core runs with one of "
             "its dtypes, so there is no reference to check a kernel's values against");
    return;
  }
  const std::string name =
      threads_text + " run " + workload.variant->label + " at once, sharing its instances";
  const std::string kernel_failures = failures_text(outcomes, &ThreadOutcome::kernel);
  if (kernel_failures.empty()) {
    log.pass(name, spread);
  } else {
    log.fail(name, kernel_failures +
                       "; if the kernels section passes this kernel, it is not thread-safe: "
                       "the core calls kernels from several threads at once, with one instance "
                       "shared by all calls of its combination (read-only during compute)");
  }
}

}  // namespace hxrt_conformance
