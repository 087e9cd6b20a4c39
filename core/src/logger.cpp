#include "logger.hpp"

#include <cstdio>
#include <string>

namespace hxrt::detail {
namespace {

void write_to_stderr(LogLevel level, std::string_view message) {
  std::string line = "hxrt " + std::string(log_level_name(level)) + ": ";
  line.append(message);
  line.push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

Logger::Logger() : sink_(write_to_stderr) {}

void Logger::set_sink(LogSink sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = sink ? std::move(sink) : LogSink(write_to_stderr);
}

void Logger::log(LogLevel level, std::string_view message) {
  if (enabled(level)) write(level, message);
}

void Logger::write(LogLevel level, std::string_view message) {
  // One line at a time, so lines from several threads never interleave.
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    sink_(level, message);
  } catch (...) {
    // A host sink that throws must not unwind through a plugin's C frames; the line is lost.
  }
}

}  // namespace hxrt::detail
