// Run under mpirun -np 2 (tests/cluster/CMakeLists.txt): the program initialises MPI itself,
// as a host application may, and task 1 never creates its runtime. Task 0's start-up must end
// within cluster.timeout_ms (300 ms here) in an error naming task 1, not hang; both tasks
// then finalise MPI as the program's own.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int failures = 0;
  if (rank == 0) {
    const auto start = std::chrono::steady_clock::now();
    try {
      hxrt::RuntimeOptions options;
      options.use_installed_plugins = false;
      options.plugin_paths = {HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so"};
      hxrt::Runtime::create(options);
      std::printf("FAILED: the runtime started without task 1\n");
      ++failures;
    } catch (const hxrt::Error& e) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const std::string message = e.what();
      std::printf("task 0: %s (after %.2f s)\n", message.c_str(), seconds);
      if (e.code() != hxrt::StatusCode::kUnavailable ||
          message.find("for the devices of /job:worker/replica:0/task:1, which did not answer") ==
              std::string::npos) {
        std::printf("FAILED: not the error naming task 1\n");
        ++failures;
      }
      if (seconds > 10) {
        std::printf("FAILED: the wait took %.2f s, not about 0.3\n", seconds);
        ++failures;
      }
    }
  } else {
    std::this_thread::sleep_for(std::chrono::seconds(1));  // past task 0's timeout
  }
  MPI_Finalize();
  if (failures == 0 && rank == 0) std::printf("task_timeout: passed\n");
  return failures == 0 ? 0 : 1;
}
