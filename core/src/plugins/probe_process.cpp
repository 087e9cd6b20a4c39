#include "plugins/probe_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "logger.hpp"
#include "plugins/probe_protocol.hpp"

extern char** environ;

namespace hxrt::detail {
namespace {

using Clock = std::chrono::steady_clock;
namespace protocol = probe_protocol;

// What is kept of the child's two channels: a plugin may write to them without end.
constexpr size_t kReportLimit = 64 * 1024;
constexpr size_t kOutputKept = 4 * 1024;
constexpr size_t kLastLineLimit = 200;

// A file descriptor, closed when it goes out of scope.
class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { reset(); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor& operator=(Descriptor&& other) noexcept {
    reset();
    std::swap(fd_, other.fd_);
    return *this;
  }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// A pipe whose ends are close-on-exec, so that a child another thread of the host starts
// meanwhile does not hold them open, and numbered above the report descriptor, so that
// moving them onto 1, 2 and 3 in the child cannot overwrite one with another (a host that
// closed its stdout gets pipe ends numbered from 1).
bool open_pipe(Descriptor& read_end, Descriptor& write_end) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return false;
  for (int& end : ends) {
    if (end <= protocol::kReportFd) {
      const int moved = fcntl(end, F_DUPFD_CLOEXEC, protocol::kReportFd + 1);
      close(end);
      end = moved;
    }
  }
  read_end = Descriptor(ends[0]);
  write_end = Descriptor(ends[1]);
  return read_end.get() >= 0 && write_end.get() >= 0;
}

std::string errno_text(int error) { return std::strerror(error); }

// Starts `program` with stdin from /dev/null, stdout and stderr on `output`, the report
// channel on descriptor 3, no other descriptor of the host, no blocked signal and every
// signal at its default action. Returns the child's pid, or sets `error`.
std::optional<pid_t> spawn(const std::string& program, std::vector<std::string> arguments,
                           int report, int output, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, report, protocol::kReportFd);
  posix_spawn_file_actions_addclosefrom_np(&actions, protocol::kReportFd + 1);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigset_t all;
  sigfillset(&all);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int failed =
      posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) {
    error = "cannot start " + program + ": " + errno_text(failed);
    return std::nullopt;
  }
  return pid;
}

struct ChildOutput {
  std::string report;  // the first kReportLimit bytes
  std::string output;  // the last kOutputKept bytes or so of stdout and stderr
};

// Reads both channels until the child has closed both (it ended) or `deadline` passes.
// Returns whether both were closed.
bool read_until_closed(int report, int output, Clock::time_point deadline, ChildOutput& got) {
  pollfd channels[2] = {{report, POLLIN, 0}, {output, POLLIN, 0}};
  int open = 2;
  char buffer[4096];
  while (open > 0) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    const int ready = poll(channels, 2, static_cast<int>(std::min<long long>(left, 60000)));
    if (ready < 0 && errno != EINTR) return false;
    for (int i = 0; i < 2 && ready > 0; ++i) {
      if (channels[i].fd < 0 || channels[i].revents == 0) continue;
      const ssize_t got_bytes = read(channels[i].fd, buffer, sizeof buffer);
      if (got_bytes < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got_bytes <= 0) {
        channels[i].fd = -1;  // poll skips it from now on
        --open;
        continue;
      }
      std::string& text = i == 0 ? got.report : got.output;
      const size_t bytes = static_cast<size_t>(got_bytes);
      if (i == 0) {
        text.append(buffer, std::min(bytes, kReportLimit - std::min(kReportLimit, text.size())));
      } else {
        text.append(buffer, bytes);
        if (text.size() > 2 * kOutputKept) text.erase(0, text.size() - kOutputKept);
      }
    }
  }
  return true;
}

// The child's wait status, once it has ended; kills it when it is still running at
// `deadline` (it closed its channels and went on). nullopt when its status went elsewhere:
// a host that ignores SIGCHLD, or reaps every child itself, leaves none to collect.
std::optional<int> reap(pid_t pid, Clock::time_point deadline, bool& timed_out) {
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, timed_out ? 0 : WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return std::nullopt;
    if (!timed_out && Clock::now() >= deadline) {
      kill(pid, SIGKILL);
      timed_out = true;
    } else if (!timed_out && done == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

// "SIGSEGV (Segmentation fault)".
std::string signal_description(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  std::string description = abbreviation != nullptr ? std::string("SIG") + abbreviation
                                                     : "signal " + std::to_string(signal);
  if (const char* text = strsignal(signal)) description += std::string(" (") + text + ")";
  return description;
}

// "5 s", "1500 ms".
std::string duration_text(std::chrono::milliseconds limit) {
  if (limit.count() % 1000 == 0) return std::to_string(limit.count() / 1000) + " s";
  return std::to_string(limit.count()) + " ms";
}

// The last line the plugin printed that is not blank, cut and made safe for a terminal.
std::string last_line(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  std::string last;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  }
  if (last.size() > kLastLineLimit) last = last.substr(0, kLastLineLimit) + "...";
  return printable(last);
}

struct Report {
  std::optional<std::string> last_step;
  bool done = false;
  std::optional<std::string> error;
};

// The plugin shares the probe's descriptors, so its lines are escaped like any plugin text.
Report parse_report(const std::string& text) {
  Report report;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(protocol::kStep, 0) == 0) {
      report.last_step = printable(line.substr(std::strlen(protocol::kStep)));
    } else if (line == protocol::kDone) {
      report.done = true;
    } else if (line.rfind(protocol::kError, 0) == 0) {
      report.error = printable(line.substr(std::strlen(protocol::kError)));
    }
  }
  return report;
}

}  // namespace

ProbeOutcome run_probe(const std::string& program, const std::string& plugin_path,
                       const std::string& plugin_name, const std::string& options,
                       uint32_t intra_op_threads, std::chrono::milliseconds time_limit) {
  ProbeOutcome outcome;
  const Clock::time_point deadline = Clock::now() + time_limit;
  Descriptor report_read, report_write, output_read, output_write;
  if (!open_pipe(report_read, report_write) || !open_pipe(output_read, output_write)) {
    outcome.reason = "cannot make a pipe to a probe process: " + errno_text(errno);
    return outcome;
  }
  std::string error;
  const std::optional<pid_t> pid =
      spawn(program, {program, plugin_path, options, std::to_string(intra_op_threads)},
            report_write.get(), output_write.get(), error);
  if (!pid) {
    outcome.reason = error;
    return outcome;
  }
  report_write.reset();  // the child holds the write ends now: closing ours lets EOF come
  output_write.reset();

  ChildOutput got;
  bool timed_out = !read_until_closed(report_read.get(), output_read.get(), deadline, got);
  if (timed_out) kill(*pid, SIGKILL);
  const std::optional<int> status = reap(*pid, deadline, timed_out);

  const Report report = parse_report(got.report);
  const std::string printed = last_line(got.output);
  const std::string last_output = printed.empty() ? "" : "; its last output: \"" + printed + "\"";
  if (report.done) {
    outcome.verdict = ProbeOutcome::Verdict::kSurvived;
    return outcome;
  }
  if (report.error) {
    outcome.reason = program + " could not probe it: " + *report.error;
    return outcome;
  }
  const std::string plugin = "plugin '" + plugin_name + "' ";
  if (timed_out) {
    // Even before the probe reached the plugin: loading a plugin that may hang is no fallback.
    outcome.verdict = ProbeOutcome::Verdict::kFatal;
    outcome.reason = plugin +
                     (report.last_step ? "did not return from " + *report.last_step
                                       : std::string("was not reached by its probe")) +
                     " within " + duration_text(time_limit) +
                     " in a probe process, which was killed; fix or remove the plugin, or "
                     "raise plugins.probe_timeout_ms if it is only slow" +
                     last_output;
    return outcome;
  }
  if (!report.last_step) {
    outcome.reason = program + " ended before it reached the plugin" + last_output;
    return outcome;
  }
  const std::string& step = *report.last_step;
  outcome.verdict = ProbeOutcome::Verdict::kFatal;
  if (!status) {
    outcome.reason = plugin + "ended its probe process in " + step +
                     " (how is unknown: this process ignores SIGCHLD or reaps its children "
                     "itself)";
  } else if (WIFSIGNALED(*status)) {
    outcome.reason = plugin + "crashed in " + step + ": " + signal_description(WTERMSIG(*status));
  } else {
    outcome.reason = plugin + "called exit(" + std::to_string(WEXITSTATUS(*status)) + ") in " +
                     step;
  }
  outcome.reason += " in a probe process; fix or remove the plugin" + last_output;
  return outcome;
}

}  // namespace hxrt::detail
