// Run under mpirun (tests/cluster/CMakeLists.txt): every task creates its runtime, and each
// must list the devices of every task, its own first, named as the chapter names them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "hxrt/hxrt.hpp"

namespace {

int environment_int(const char* name) {
  const char* value = std::getenv(name);
  REQUIRE(value != nullptr);
  return std::atoi(value);
}

// The task names "cluster.jobs" (as $HXRT_CLUSTER_JOBS here) gives the ranks, or worker:rank;
// or, where the test says them ($HXRT_TEST_EXPECTED_TASKS, by rank: TF_CONFIG's), those.
std::vector<std::string> expected_tasks(int size) {
  const char* said = std::getenv("HXRT_TEST_EXPECTED_TASKS");
  if (said != nullptr && *said != '\0') {
    return nlohmann::json::parse(said).get<std::vector<std::string>>();
  }
  std::vector<std::string> tasks(static_cast<size_t>(size));
  const char* jobs = std::getenv("HXRT_CLUSTER_JOBS");
  for (int rank = 0; rank < size; ++rank) {
    tasks[static_cast<size_t>(rank)] = "/job:worker/replica:0/task:" + std::to_string(rank);
  }
  if (jobs == nullptr || *jobs == '\0') return tasks;
  const nlohmann::json parsed = nlohmann::json::parse(jobs);
  for (const auto& job : parsed.items()) {
    for (size_t task = 0; task < job.value().size(); ++task) {
      tasks[job.value()[task].get<size_t>()] =
          "/job:" + job.key() + "/replica:0/task:" + std::to_string(task);
    }
  }
  return tasks;
}

hxrt::Runtime& runtime() {
  static hxrt::Runtime made = [] {
    hxrt::RuntimeOptions options;
    options.use_installed_plugins = false;
    options.plugin_paths = {HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so"};
    return hxrt::Runtime::create(options);
  }();
  return made;
}

}  // namespace

TEST_CASE("each task knows its name, its rank and every task of the cluster") {
  const int size = environment_int("OMPI_COMM_WORLD_SIZE");
  const int rank = environment_int("OMPI_COMM_WORLD_RANK");
  const hxrt::ClusterInfo cluster = runtime().cluster();
  CHECK(cluster.in_cluster);
  CHECK(cluster.rank == rank);
  CHECK(cluster.tasks == expected_tasks(size));
  CHECK(cluster.task == expected_tasks(size)[static_cast<size_t>(rank)]);
  CHECK_THAT(cluster.mpi_library, Catch::StartsWith("Open MPI"));
}

TEST_CASE("devices() lists this task's devices, then every other task's, by full name") {
  const hxrt::ClusterInfo cluster = runtime().cluster();
  const std::vector<hxrt::DeviceInfo> devices = runtime().devices();
  REQUIRE(devices.size() == cluster.tasks.size());  // a CPU each
  CHECK(devices[0].local);
  CHECK(devices[0].name == cluster.task + "/device:CPU:0");
  CHECK(devices[0].task == cluster.task);
  std::vector<std::string> seen;
  for (const hxrt::DeviceInfo& device : devices) {
    CHECK(device.local == (device.task == cluster.task));
    CHECK(device.name == device.task + "/device:" + device.short_name);
    CHECK(device.type == "CPU");
    CHECK(device.memory_total > 0);
    seen.push_back(device.task);
  }
  std::sort(seen.begin(), seen.end());
  std::vector<std::string> tasks = cluster.tasks;
  std::sort(tasks.begin(), tasks.end());
  CHECK(seen == tasks);
}

TEST_CASE("an op runs on any task's device named in full, its result back on this task") {
  const hxrt::ClusterInfo cluster = runtime().cluster();
  const hxrt::Tensor a = runtime().tensor<float>({2}, {1, 2});
  const hxrt::Tensor sum = runtime().execute("Add", {a, a}, {}, cluster.task + "/device:CPU:0");
  CHECK(sum.device() == cluster.task + "/device:CPU:0");
  CHECK(sum.to_vector<float>() == std::vector<float>{2, 4});
  if (cluster.tasks.size() < 2) return;
  // Every task calls on another's at once: each serves the others while it calls.
  const std::string other = cluster.tasks[(cluster.rank + 1) % cluster.tasks.size()] +
                            "/device:CPU:0";
  for (int call = 0; call < 3; ++call) {
    const hxrt::Tensor there = runtime().execute("Mul", {a, sum}, hxrt::kNoAttrs, other);
    CHECK(there.device() == cluster.task + "/device:CPU:0");
    CHECK(there.to_vector<float>() == std::vector<float>{2, 8});
  }
  try {
    runtime().tensor<float>({2}, {1, 2}, other);
    FAIL("a tensor was made on another task's device");
  } catch (const hxrt::Error& e) {
    CHECK_THAT(e.what(), Catch::Contains(other + " is not this task's (" + cluster.task +
                                         "): a tensor lives on this task's own devices"));
  }
}
