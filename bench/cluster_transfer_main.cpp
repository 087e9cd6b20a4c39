// hxrt_cluster_bench, under mpirun -np 2: tensors between two tasks through graph runs against
// raw MPI on the same two ranks, in one run. Latency: 8 bytes to task 1 and back (an Identity
// there, fed and fetched on task 0) against MPI's ping-pong. Bandwidth: 64 MiB that task 1
// holds (a constant there) fetched by task 0, against a request of 8 bytes answered with the
// 64 MiB. The program initialises MPI itself, so hxrt uses its MPI as a host application's.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The best of `rounds` of `iterations` round trips of `bytes` between ranks 0 and 1, seconds
// per round trip.
double raw_round_trip(size_t bytes, int iterations, int rounds) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<unsigned char> buffer(bytes, 1);
  const int count = static_cast<int>(bytes);
  double best = 1e30;
  for (int round = 0; round < rounds; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) {
      if (rank == 0) {
        MPI_Send(buffer.data(), count, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), count, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buffer.data(), count, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), count, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
      }
    }
    best = std::min(best, seconds_since(start) / iterations);
  }
  return best;
}

// The best of `rounds` of `iterations` pulls of `bytes` by rank 0 from rank 1: a request of 8
// bytes, answered with them. Seconds per pull.
double raw_pull(size_t bytes, int iterations, int rounds) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<unsigned char> buffer(bytes, 1);
  uint64_t request = 0;
  const int count = static_cast<int>(bytes);
  double best = 1e30;
  for (int round = 0; round < rounds; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) {
      if (rank == 0) {
        MPI_Send(&request, 8, MPI_BYTE, 1, 8, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), count, MPI_BYTE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(&request, 8, MPI_BYTE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), count, MPI_BYTE, 0, 8, MPI_COMM_WORLD);
      }
    }
    best = std::min(best, seconds_since(start) / iterations);
  }
  return best;
}

// The best of `rounds` of `iterations` runs of `executable` on `feeds`, seconds per run.
double graph_runs(const hxrt::Executable& executable, const std::vector<hxrt::Tensor>& feeds,
                  int iterations, int rounds) {
  double best = 1e30;
  for (int round = 0; round < rounds; ++round) {
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) executable.run(feeds);
    best = std::min(best, seconds_since(start) / iterations);
  }
  return best;
}

// Task 0 feeds x, task 1 runs Identity, task 0 fetches it.
double graph_round_trip(hxrt::Runtime& rt, size_t bytes, int iterations, int rounds) {
  const auto elements = static_cast<int64_t>(bytes);
  hxrt::GraphBuilder builder(rt);
  hxrt::NodeOutput x = builder.input("x", hxrt::DType::kU8, hxrt::Shape{elements});
  builder.add("copy", "Identity", {x}, {}, "/job:worker/replica:0/task:1/device:CPU:0");
  hxrt::Executable executable = rt.compile(builder.build(), {{"copy", 0}});
  const hxrt::Tensor fed = rt.tensor<uint8_t>({elements}, std::vector<uint8_t>(bytes, 1));
  return graph_runs(executable, {fed}, iterations, rounds);
}

// Task 0 fetches a constant that task 1 holds.
double graph_pull(hxrt::Runtime& rt, size_t bytes, int iterations, int rounds) {
  const auto elements = static_cast<int64_t>(bytes);
  hxrt::GraphBuilder builder(rt);
  builder.constant("held", rt.tensor<uint8_t>({elements}, std::vector<uint8_t>(bytes, 1)),
                   "/job:worker/replica:0/task:1/device:CPU:0");
  hxrt::Executable executable = rt.compile(builder.build(), {{"held", 0}});
  return graph_runs(executable, {}, iterations, rounds);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  constexpr size_t kSmall = 8;
  constexpr size_t kLarge = size_t{64} << 20;
  const double raw_small = raw_round_trip(kSmall, 20000, 5);
  const double raw_large = raw_pull(kLarge, 10, 5);
  {
    hxrt::RuntimeOptions options;
    options.log_level = hxrt::LogLevel::kWarning;
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    if (rank == 0) {
      const double graph_small = graph_round_trip(rt, kSmall, 20000, 5);
      const double graph_large = graph_pull(rt, kLarge, 10, 5);
      const double gb = static_cast<double>(kLarge) / 1e9;
      std::printf("Between two tasks (the best of 5 rounds):\n");
      std::printf("                      raw MPI      hxrt graph   ratio   target\n");
      std::printf("  8 B round trip     %7.2f us   %7.2f us   %5.2fx  <= 1.2x + 5 us (%.2f us)\n",
                  raw_small * 1e6, graph_small * 1e6, graph_small / raw_small,
                  1.2 * raw_small * 1e6 + 5.0);
      std::printf("  64 MiB bandwidth   %7.2f GB/s %7.2f GB/s %5.2fx  >= 0.95x\n",
                  gb / raw_large, gb / graph_large, raw_large / graph_large);
    }
  }
  MPI_Finalize();
  return 0;
}
