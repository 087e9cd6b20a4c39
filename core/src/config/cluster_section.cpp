// "cluster.jobs" and "cluster.network": the structured part of the "cluster" settings, beyond
// their rows' kinds.
#include <cmath>
#include <set>

#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {

bool is_job_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  if (!(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

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

namespace hxrt::detail {

void apply_cluster_network(const nlohmann::json& network, const std::string& source,
                           Config& config) {
  const std::string path = "/cluster/network";
  if (!network.is_object()) {
    fail(source, path,
         "expected an object {\"gigabytes_per_second\": G, \"latency_us\": L}, got " +
             type_of(network));
  }
  check_keys(network, {"gigabytes_per_second", "latency_us"}, source, path);
  const auto number = [&](const char* key, bool zero_allowed) {
    const std::string at = pointer_child(path, key);
    auto found = network.find(key);
    if (found == network.end()) fail(source, at, "missing; the network needs both figures");
    const bool fits = found->is_number() && std::isfinite(found->get<double>()) &&
                      (zero_allowed ? found->get<double>() >= 0 : found->get<double>() > 0);
    if (!fits) {
      fail(source, at, std::string("expected a number ") + (zero_allowed ? ">= 0" : "> 0") +
                           ", got " + type_of(*found));
    }
    return found->get<double>();
  };
  ClusterSettings::Network read;
  read.bytes_per_second = number("gigabytes_per_second", false) * 1e9;
  read.latency_seconds = number("latency_us", true) * 1e-6;
  config.cluster.network = read;
}

}  // namespace hxrt::detail
