// Run under mpirun -np 4: a program that initialises MPI itself splits its ranks into two
// halves (even and odd) and gives each half's communicator to its runtimes
// (RuntimeOptions::mpi_communicator): two clusters of two tasks each, side by side, each running
// a graph across its own tasks. Exits 0 when every check holds, else prints what failed.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

int g_failures = 0;

void check(bool holds, const std::string& what) {
  if (holds) return;
  ++g_failures;
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
}

void run_as_task(MPI_Comm half, int world_rank) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so"};
  options.mpi_communicator = &half;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  int half_rank = 0;
  MPI_Comm_rank(half, &half_rank);
  const hxrt::ClusterInfo cluster = rt.cluster();
  check(cluster.in_cluster, "in a cluster");
  check(cluster.tasks.size() == 2, "two tasks in the half, got " +
                                       std::to_string(cluster.tasks.size()));
  check(cluster.rank == half_rank, "the rank in the half");
  check(rt.devices().size() == 2, "a CPU per task of the half");
  if (half_rank != 0) return;  // its runtime serves task 0's graph until task 0 is done
  // Task 1 of this half adds the client's world rank + 1: each half runs its own graph at the
  // same time as the other, on its own tasks (a cluster of the four would have four tasks).
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {2});
  const hxrt::NodeOutput offset = builder.constant(
      "offset", rt.tensor<float>({2}, {static_cast<float>(world_rank + 1), 0}),
      "/job:worker/replica:0/task:1/device:CPU:0");
  const hxrt::NodeOutput sum =
      builder.add("sum", "Add", {x, offset}, {}, "/job:worker/replica:0/task:1/device:CPU:0");
  const hxrt::Executable exe = rt.compile(builder.graph(), {sum});
  const std::vector<float> got =
      exe.run({{"x", rt.tensor<float>({2}, {10, 20})}})[0].to_vector<float>();
  const float expected = 10.0f + static_cast<float>(world_rank + 1);
  check(got == std::vector<float>{expected, 20}, "the sum computed on the half's task 1: " +
                                                      std::to_string(got[0]));
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int world_rank = 0;
  int world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (world_size != 4 || provided < MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "run under mpirun -np 4 with an MPI of MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
  try {
    run_as_task(half, world_rank);
    // A later runtime of the process must name the same communicator.
    hxrt::RuntimeOptions other;
    other.use_installed_plugins = false;
    other.plugin_paths = {HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so"};
    MPI_Comm world = MPI_COMM_WORLD;
    other.mpi_communicator = &world;
    try {
      hxrt::Runtime::create(other);
      check(false, "a second communicator refused");
    } catch (const hxrt::Error& error) {
      check(std::string(error.what()).find("names another communicator") != std::string::npos,
            std::string("the refusal of a second communicator: ") + error.what());
    }
  } catch (const std::exception& error) {
    check(false, std::string("no error: ") + error.what());
  }
  MPI_Comm_free(&half);
  MPI_Finalize();
  if (g_failures == 0) std::printf("rank %d: every check holds\n", world_rank);
  return g_failures == 0 ? 0 : 1;
}
