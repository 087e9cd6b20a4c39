// Which task each rank is ("cluster.jobs" over the ranks), the config rows of "cluster" (jobs,
// network), task names in device specs, and the device tables the tasks exchange: all without
// MPI.
#include <catch2/catch.hpp>

#include <map>

#include "base/device_name.hpp"
#include "cluster/cluster_spec.hpp"
#include "cluster/device_table.hpp"
#include "config/config.hpp"
#include "config/config_sections.hpp"
#include "hxrt/error.hpp"

using hxrt::detail::check_tasks_said;
using hxrt::detail::ClusterSettings;
using hxrt::detail::TaskName;

namespace {

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const hxrt::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("without cluster.jobs every rank is a task of the job worker, its index its rank") {
  const std::vector<TaskName> tasks = hxrt::detail::tasks_of_ranks(ClusterSettings{}, 3, "x");
  REQUIRE(tasks.size() == 3);
  CHECK(tasks[2].prefix() == "/job:worker/replica:0/task:2");
}

TEST_CASE("cluster.jobs lays jobs over the ranks, each job's tasks in its order") {
  ClusterSettings settings;
  settings.jobs = {{"ps", {2}}, {"worker", {0, 1, 3}}};
  const std::vector<TaskName> tasks = hxrt::detail::tasks_of_ranks(settings, 4, "x");
  CHECK(tasks[0].prefix() == "/job:worker/replica:0/task:0");
  CHECK(tasks[1].prefix() == "/job:worker/replica:0/task:1");
  CHECK(tasks[2].prefix() == "/job:ps/replica:0/task:0");
  CHECK(tasks[3].prefix() == "/job:worker/replica:0/task:2");
}

TEST_CASE("cluster.jobs must list every rank of the cluster and no other") {
  ClusterSettings settings;
  settings.jobs = {{"worker", {0, 1}}};
  CHECK_THAT(error_of([&] { hxrt::detail::tasks_of_ranks(settings, 3, "file a.json"); }),
             Catch::Contains("file a.json: /cluster/jobs lists no task for rank 2 of this "
                             "cluster of 3 ranks"));
  settings.jobs = {{"worker", {0, 5}}};
  CHECK_THAT(error_of([&] { hxrt::detail::tasks_of_ranks(settings, 2, "file a.json"); }),
             Catch::Contains("file a.json: /cluster/jobs/worker/1: rank 5 is not in this "
                             "cluster of 2 ranks (0 to 1)"));
}

TEST_CASE("cluster.jobs is checked as it is read: names, ranks, a rank listed twice") {
  hxrt::detail::Config config;
  auto read = [&](const char* text) {
    return error_of([&] {
      hxrt::detail::apply_cluster_jobs(nlohmann::json::parse(text), "file c.json", config);
    });
  };
  CHECK(read(R"({"ps": [0], "worker": [1, 2]})").empty());
  CHECK(config.cluster.jobs.at("worker") == std::vector<int>{1, 2});
  CHECK_THAT(read(R"({"Worker": [0]})"), Catch::Contains("/cluster/jobs/Worker: 'Worker' is "
                                                         "not a job name"));
  CHECK_THAT(read(R"({"ps": [0], "worker": [0]})"),
             Catch::Contains("/cluster/jobs/worker/0: rank 0 is listed twice"));
  CHECK_THAT(read(R"({"worker": [-1]})"),
             Catch::Contains("expected an MPI rank (an integer from 0), got -1"));
  CHECK_THAT(read(R"({"worker": []})"), Catch::Contains("expected a non-empty list"));
  CHECK_THAT(read(R"([0, 1])"), Catch::Contains("expected an object of job name"));
}

TEST_CASE("cluster.network gives the dynamic placer the network, each figure checked") {
  hxrt::detail::Config config;
  CHECK_FALSE(config.cluster.network.has_value());  // measured
  auto read = [&](const char* text) {
    return error_of([&] {
      hxrt::detail::apply_cluster_network(nlohmann::json::parse(text), "file c.json", config);
    });
  };
  CHECK(read(R"({"gigabytes_per_second": 12.5, "latency_us": 5})").empty());
  REQUIRE(config.cluster.network.has_value());
  CHECK(config.cluster.network->bytes_per_second == 12.5e9);
  CHECK(config.cluster.network->latency_seconds == Approx(5e-6));
  CHECK_THAT(read(R"({"gigabytes_per_second": 12.5})"),
             Catch::Contains("file c.json: /cluster/network/latency_us: missing"));
  CHECK_THAT(read(R"({"gigabytes_per_second": 0, "latency_us": 5})"),
             Catch::Contains("/cluster/network/gigabytes_per_second: expected a number > 0"));
  CHECK_THAT(read(R"({"gigabytes_per_second": 1, "latency_us": -1})"),
             Catch::Contains("/cluster/network/latency_us: expected a number >= 0"));
  CHECK_THAT(read(R"({"gigabytes_per_second": 1, "latency": 1})"),
             Catch::Contains("did you mean 'latency_us'"));
  CHECK_THAT(read(R"(12)"), Catch::Contains("expected an object"));
}

TEST_CASE("TF_CONFIG's cluster lays its jobs over the ranks, its task said where it is") {
  using hxrt::detail::read_tf_config;
  const hxrt::detail::TfConfig spec = read_tf_config(
      R"({"cluster": {"worker": ["w0:1", "w1:1"], "chief": ["c:1"]},
          "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"})");
  CHECK(spec.jobs == std::map<std::string, int>{{"chief", 1}, {"worker", 2}});
  REQUIRE(spec.task.has_value());
  CHECK(spec.task->prefix() == "/job:worker/replica:0/task:1");
  const std::vector<TaskName> tasks = hxrt::detail::tasks_of_tf_config(spec, 3);
  CHECK(tasks[0].prefix() == "/job:chief/replica:0/task:0");
  CHECK(tasks[2].prefix() == "/job:worker/replica:0/task:1");
  CHECK_FALSE(read_tf_config(R"({"cluster": {"worker": ["a"]}})").task.has_value());
  CHECK(read_tf_config(R"({"cluster": {"ps": ["a"]}, "task": {"type": "ps"}})").task->task == 0);
  CHECK_THAT(error_of([&] { hxrt::detail::tasks_of_tf_config(spec, 4); }),
             Catch::Contains("environment TF_CONFIG: /cluster lists 3 tasks, but this cluster "
                             "has 4 MPI ranks; start one rank per task (mpirun -np 3)"));
  // Each rank's word of its task: every task of the spec once.
  const TaskName chief{"chief", 0}, worker0{"worker", 0}, worker1{"worker", 1};
  CHECK(error_of([&] { check_tasks_said(spec, {worker1, chief, worker0}); }).empty());
  CHECK_THAT(error_of([&] { check_tasks_said(spec, {worker1, chief, worker1}); }),
             Catch::Contains("ranks 0 and 2 both say they are /job:worker/replica:0/task:1"));
  CHECK_THAT(error_of([&] { check_tasks_said(spec, {worker1, chief, TaskName{"ps", 0}}); }),
             Catch::Contains("no rank says it is /job:worker/replica:0/task:0"));
}

TEST_CASE("TF_CONFIG is checked as it is read, naming the JSON pointer") {
  auto read = [](const char* text) {
    return error_of([&] { hxrt::detail::read_tf_config(text); });
  };
  CHECK_THAT(read("{"), Catch::Contains("environment TF_CONFIG"));
  CHECK_THAT(read(R"({"task": {"type": "worker"}})"),
             Catch::Contains("environment TF_CONFIG: /cluster: missing"));
  CHECK_THAT(read(R"({"cluster": {}})"), Catch::Contains("/cluster: expected at least one job"));
  CHECK_THAT(read(R"({"cluster": {"Worker": ["a"]}})"),
             Catch::Contains("/cluster/Worker: 'Worker' is not a job name"));
  CHECK_THAT(read(R"({"cluster": {"worker": []}})"),
             Catch::Contains("/cluster/worker: expected a non-empty array"));
  CHECK_THAT(read(R"({"cluster": {"worker": ["a"]}, "task": {"type": "chief"}})"),
             Catch::Contains("/task/type: expected one of the cluster's jobs"));
  CHECK_THAT(read(R"({"cluster": {"worker": ["a"]}, "task": {"type": "worker", "index": 1}})"),
             Catch::Contains("/task/index: expected an index of job 'worker' (0 to 0)"));
}

TEST_CASE("a task admits specs of its own job and task, and of none") {
  const TaskName task{"worker", 1};
  auto admits = [&](const char* name) {
    return task.admits(hxrt::detail::parse_device_name(name));
  };
  CHECK(admits("/GPU:0"));
  CHECK(admits("/job:worker/replica:0/task:1/device:CPU:0"));
  CHECK(admits("/job:worker"));
  CHECK_FALSE(admits("/job:worker/replica:0/task:0/device:CPU:0"));
  CHECK_FALSE(admits("/job:ps/task:1/device:CPU:0"));
  CHECK_FALSE(admits("/job:localhost/replica:0/task:0/device:CPU:0"));
  CHECK(TaskName{}.admits(hxrt::detail::parse_device_name("/job:localhost/task:0/cpu:0")));
}

TEST_CASE("a device table crosses to another task whole, marked not local") {
  hxrt::DeviceInfo device;
  device.name = "/job:worker/replica:0/task:1/device:GPU:0";
  device.task = "/job:worker/replica:0/task:1";
  device.short_name = "GPU:0";
  device.type = "GPU";
  device.memory_total = uint64_t{80} << 30;
  device.min_alignment = 16;
  device.cross_device_wait = "on host";
  const std::vector<hxrt::DeviceInfo> read = hxrt::detail::read_device_table(
      hxrt::detail::device_table_text({device}), "/job:worker/replica:0/task:1");
  REQUIRE(read.size() == 1);
  CHECK(read[0].name == device.name);
  CHECK(read[0].task == device.task);
  CHECK(read[0].memory_total == device.memory_total);
  CHECK(read[0].min_alignment == 16);
  CHECK(read[0].cross_device_wait == "on host");
  CHECK_FALSE(read[0].local);
  CHECK_THAT(error_of([] { hxrt::detail::read_device_table("[{\"name\": 1}]", "/job:ps/task:0"); }),
             Catch::Contains("/job:ps/task:0 sent a device table this task cannot read"));
}
