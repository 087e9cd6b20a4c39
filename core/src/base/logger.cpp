#include "base/logger.hpp"

#include <cstdio>
#include <string>
#include <utility>

namespace hxrt::detail {
namespace {

void write_to_stderr(LogLevel level, std::string_view message) {
  std::string line = "hxrt " + std::string(log_level_name(level)) + ": ";
  line.append(message);
  line.push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
}

std::shared_ptr<const LogSink> sink_or_default(LogSink sink) {
  return std::make_shared<const LogSink>(sink ? std::move(sink) : LogSink(write_to_stderr));
}

}  // namespace

Logger::Logger() : sink_(sink_or_default(nullptr)) {}

void Logger::set_sink(LogSink sink) {
  std::shared_ptr<const LogSink> replacement = sink_or_default(std::move(sink));
  std::lock_guard<std::mutex> lock(mutex_);
  // A thread inside the old sink keeps its own reference until the sink returns.
  sink_.swap(replacement);
}

void Logger::log(LogLevel level, std::string_view message) {
  if (enabled(level)) write(level, message);
}

void Logger::write(LogLevel level, std::string_view message) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (pending_.size() >= kMaxPendingLines) {
    ++dropped_;
    return;
  }
  pending_.push_back({level, std::string(message)});
  if (delivering_) return;  // the thread in the sink delivers it next (this one, re-entered)
  delivering_ = true;
  deliver(lock);
  delivering_ = false;
}

void Logger::deliver(std::unique_lock<std::mutex>& lock) {
  while (!pending_.empty() || dropped_ != 0) {
    Line line;
    if (!pending_.empty()) {
      line = std::move(pending_.front());
      pending_.pop_front();
    } else {
      line = {LogLevel::kWarning, std::to_string(dropped_) +
                                      " log lines were dropped while the log sink was busy "
                                      "(more than " + std::to_string(kMaxPendingLines) +
                                      " waited for it); make the sink return sooner"};
      dropped_ = 0;
    }
    const std::shared_ptr<const LogSink> sink = sink_;
    lock.unlock();
    try {
      (*sink)(line.level, line.message);
    } catch (...) {
      // A host sink that throws must not unwind through a plugin's C frames; the line is lost.
    }
    lock.lock();
  }
}

}  // namespace hxrt::detail
