#include "cluster/cluster_service.hpp"

#include <string>

#include "cluster/host_tensors.hpp"
#include "cluster/part_description.hpp"
#include "cluster/polling.hpp"
#include "cluster/quiet_context.hpp"
#include "graph/executable_handle.hpp"

namespace hxrt::detail {

using nlohmann::json;

ClusterService::ClusterService(Cluster& cluster, std::shared_ptr<GraphContext> context)
    : cluster_(cluster),
      context_(without_placement_log(std::move(context))),
      timeout_(context_->config.cluster.timeout_ms),
      left_(cluster.tasks().size(), false) {}

void ClusterService::start() { thread_ = std::thread([this] { serve(); }); }

ClusterService::~ClusterService() {
  for (int rank = 0; rank < static_cast<int>(cluster_.tasks().size()); ++rank) {
    if (rank != cluster_.rank() && !cluster_.lost(rank)) post(rank, {{"request", "leave"}});
  }
  leaving_.store(true);
  if (thread_.joinable()) thread_.join();
  // What is posted goes within the timeout, or never: its task is gone (a lost task's is not
  // waited for). Its memory is then left to MPI, which may still read it.
  std::lock_guard<std::mutex> lock(posted_mutex_);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  Polling polling;
  for (Posted& posted : posted_) {
    try {
      const auto sent = [&] { return posted.transfer->done(); };
      while (!cluster_.lost(posted.rank) && !sent() &&
             std::chrono::steady_clock::now() < deadline) {
        polling.pause();
      }
      if (!sent()) new std::shared_ptr<std::vector<uint8_t>>(std::move(posted.bytes));
    } catch (const std::exception&) {
    }
  }
}

ExecutableTags ClusterService::new_tags(size_t values) {
  const auto stride = static_cast<int64_t>(cluster_.tasks().size());
  const auto slots = static_cast<int64_t>(ExecutableTags::slots(values));
  const int64_t largest = cluster_.transport().largest_tag();
  std::lock_guard<std::mutex> lock(tags_mutex_);
  // Past MPI's largest tag the ranges start over: the executables of the first are long gone
  // by then, as long as each lives for fewer than the 2^31 messages of the ranges between.
  const auto last = [&] { return kFirstExecutableTag + (next_slot_ + slots) * stride; };
  if (last() > largest) next_slot_ = 0;
  if (last() > largest) {
    throw Error(StatusCode::kOutOfRange,
                "a graph across tasks with " + std::to_string(values) +
                    " values between its parts needs more message tags than this MPI has (" +
                    std::to_string(largest) + "); split it into smaller graphs");
  }
  ExecutableTags tags;
  tags.first = kFirstExecutableTag + next_slot_ * stride + cluster_.rank();
  tags.stride = stride;
  next_slot_ += slots;
  return tags;
}

void ClusterService::post(int rank, const json& request) {
  send_posted(rank, kRequestTag, request);
}

void ClusterService::send_posted(int rank, int tag, const json& message) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(json::to_msgpack(message));
  std::lock_guard<std::mutex> lock(posted_mutex_);
  posted_.push_back(
      {rank, cluster_.transport().start_send(rank, tag, bytes->data(), bytes->size()),
       std::move(bytes)});
}

void ClusterService::reap_posted() {
  std::lock_guard<std::mutex> lock(posted_mutex_);
  for (size_t i = 0; i < posted_.size();) {
    bool done = true;
    try {
      done = posted_[i].transfer->done();
    } catch (const std::exception& e) {
      context_->logger.log(LogLevel::kWarning,
                            std::string("a request to another task failed: ") + e.what());
    }
    if (done) {
      posted_[i] = std::move(posted_.back());
      posted_.pop_back();
    } else {
      ++i;
    }
  }
}

void ClusterService::serve() {
  Polling polling;
  const auto everyone_left = [&] {
    for (size_t rank = 0; rank < left_.size(); ++rank) {
      const int other = static_cast<int>(rank);
      if (!left_[rank] && other != cluster_.rank() && !cluster_.lost(other)) return false;
    }
    return true;
  };
  for (;;) {
    std::optional<Message> message;
    try {
      message = cluster_.transport().take_message(kRequestTag);
    } catch (const std::exception& e) {
      if (leaving_.load()) return;  // MPI may be gone already, at the process's exit
      context_->logger.log(LogLevel::kError, std::string("the cluster service: ") + e.what());
    }
    if (message) {
      handle(*message);
      polling.progressed();
    } else if (leaving_.load() && everyone_left()) {
      return;
    } else {
      polling.pause();
    }
    reap_posted();
  }
}

void ClusterService::handle(const Message& message) {
  const std::string& source = cluster_.tasks().at(static_cast<size_t>(message.source)).prefix();
  try {
    const json request = json::from_msgpack(message.bytes);
    const std::string kind = request.at("request").get<std::string>();
    if (kind == "leave") {
      left_[static_cast<size_t>(message.source)] = true;
    } else if (kind == "compile") {
      compile(message.source, request);
    } else if (kind == "run") {
      run(request);
    } else if (kind == "release") {
      hosted_.erase(request.at("executable").get<ExecutableId>());
    } else {
      throw Error(StatusCode::kInvalidArgument, "a request of no known kind '" + kind + "'");
    }
  } catch (const std::exception& e) {
    context_->logger.log(LogLevel::kError,
                          "a request from " + source + " failed: " + std::string(e.what()));
  }
}

void ClusterService::compile(int client, const json& request) {
  const ExecutableId id = request.at("executable").get<ExecutableId>();
  ExecutableTags tags;
  tags.first = request.at("tags").at(0).get<int64_t>();
  tags.stride = request.at("tags").at(1).get<int64_t>();
  json reply;
  try {
    auto hosted = std::make_unique<Hosted>();
    CompiledPlan& compiled = hosted->compiled;
    compiled.tags = tags;
    compiled.participants = request.at("participants").get<std::vector<int>>();
    Device& host = host_device(context_->devices);
    compiled.plan = task_plan_from_wire(request.at("plan"), context_->ops, host, compiled.values);
    const CompileOptions options = part_options_from_wire(request.at("options"));
    for (const PlanStage& stage : compiled.plan.stages) {
      compiled.parts.push_back(
          stage.collective ? nullptr
                           : compile_graph(context_, stage.part, stage.fetches,
                                           options_for_part(options, stage.part, false), nullptr));
    }
    reply = {{"ok", true}, {"description", describe_parts(compiled.parts)}};
    hosted_[id] = std::move(hosted);
  } catch (const Error& error) {
    reply = {{"ok", false}, {"code", static_cast<int>(error.code())}, {"error", error.what()}};
  } catch (const std::exception& error) {
    reply = {{"ok", false}, {"code", static_cast<int>(StatusCode::kInternal)},
             {"error", error.what()}};
  }
  send_posted(client, tags.reply(), reply);
}

void ClusterService::run(const json& request) {
  const ExecutableId id = request.at("executable").get<ExecutableId>();
  auto found = hosted_.find(id);
  if (found == hosted_.end()) {
    throw Error(StatusCode::kNotFound, "a run of an executable this task does not hold");
  }
  Hosted& hosted = *found->second;
  const RunSetting setting{cluster_, context_->eager, host_device(context_->devices), timeout_};
  std::vector<Tensor> values(hosted.compiled.values.size());
  try {
    run_task_plan(hosted.compiled, setting, values, hosted.abandoned);
  } catch (const Error& error) {
    // Told to the other tasks already; the client reports it.
    context_->logger.log(LogLevel::kWarning, std::string("a part's run failed: ") + error.what());
  }
}

}  // namespace hxrt::detail
