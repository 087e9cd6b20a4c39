// "cluster.jobs": the structured part of the "cluster" settings, beyond its row's kind.
#include <set>

#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {
namespace {

// A job name as TensorFlow's cluster specs write them: it becomes part of device names
// ("/job:ps/replica:0/task:0"), which the device-name grammar must read back.
bool is_job_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  if (!(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

void apply_cluster_jobs(const nlohmann::json& jobs, const std::string& source,
                        Config& config) {
  const std::string path = "/cluster/jobs";
  if (!jobs.is_object() || jobs.empty()) {
    fail(source, path,
         "expected an object of job name -> the MPI ranks of its tasks, as {\"ps\": [0], "
         "\"worker\": [1, 2, 3]}, got " + type_of(jobs) + (jobs.is_object() ? " (empty)" : ""));
  }
  std::map<std::string, std::vector<int>> read;
  std::set<int> seen;
  for (const auto& item : jobs.items()) {
    const std::string job_path = pointer_child(path, item.key());
    if (!is_job_name(item.key())) {
      fail(source, job_path,
           "'" + shown(item.key()) + "' is not a job name: lower-case letters, digits and _, "
           "starting with a letter, at most 64 (it becomes /job:<name> in device names)");
    }
    if (!item.value().is_array() || item.value().empty()) {
      fail(source, job_path,
           "expected a non-empty list of the MPI ranks of job '" + item.key() +
               "''s tasks, task 0 first, got " + type_of(item.value()));
    }
    for (size_t i = 0; i < item.value().size(); ++i) {
      const nlohmann::json& rank = item.value()[i];
      if (!rank.is_number_integer() || rank.get<int64_t>() < 0 ||
          rank.get<int64_t>() > 1000000) {
        fail(source, pointer_child(job_path, i),
             "expected an MPI rank (an integer from 0), got " + shown_json(rank));
      }
      if (!seen.insert(rank.get<int>()).second) {
        fail(source, pointer_child(job_path, i),
             "rank " + rank.dump() + " is listed twice; each rank is one task of one job");
      }
      read[item.key()].push_back(rank.get<int>());
    }
  }
  config.cluster.jobs = std::move(read);
}

}  // namespace hxrt::detail
