#include "plugins/probe_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include <hxcommon/fd_io.hpp>

#include "base/logger.hpp"
#include "plugins/probe_key.hpp"
#include "plugins/probe_protocol.hpp"
#include "plugins/probe_report.hpp"

extern char** environ;

namespace hxrt::detail {
namespace {

using Clock = std::chrono::steady_clock;
namespace protocol = probe_protocol;

// What is kept of the plugin's output: it may print without end.
constexpr size_t kOutputKept = 4 * 1024;
constexpr size_t kLastLineLimit = 200;
// Without a pidfd (a kernel before 5.3) the end of the child is looked for this often.
constexpr int kExitCheckMs = 5;
// Reads of what is left in the channels once the child has ended: its descendants, until they
// are killed, may keep writing.
constexpr int kDrainReads = 64;

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

std::string errno_text(int error) { return std::strerror(error); }

// Our descriptors are close-on-exec, so that a child another thread of the host starts
// meanwhile does not hold them open, and numbered above the report descriptor, so that moving
// them onto 0 to 3 in the child cannot overwrite one with another (a host that closed its
// stdout gets new descriptors numbered from 1).
int above_report_fd(int fd) {
  if (fd < 0 || fd > protocol::kReportFd) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, protocol::kReportFd + 1);
  close(fd);
  return moved;
}

bool open_pipe(Descriptor& read_end, Descriptor& write_end) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return false;
  read_end = Descriptor(above_report_fd(ends[0]));
  write_end = Descriptor(above_report_fd(ends[1]));
  return read_end.get() >= 0 && write_end.get() >= 0;
}

// The report channel: a socket, which the plugin cannot open again for reading through
// /proc/self/fd as it could a pipe (probe_protocol.hpp).
bool open_socket_pair(Descriptor& ours, Descriptor& theirs) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return false;
  ours = Descriptor(above_report_fd(ends[0]));
  theirs = Descriptor(above_report_fd(ends[1]));
  return ours.get() >= 0 && theirs.get() >= 0;
}

// Starts `program` in a process group of its own with stdin on `key_input`, stdout and stderr
// on `output`, the report channel on descriptor 3, no other descriptor of the host, no blocked
// signal and every signal at its default action. Returns the child's pid, or sets `error`.
std::optional<pid_t> spawn(const std::string& program, std::vector<std::string> arguments,
                           int key_input, int report, int output, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, key_input, STDIN_FILENO);
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
  // Its own group, led by itself: whatever the plugin forks joins it, and one kill ends all.
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

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

// Tells when the child has ended without reaping it: while it is an unreaped zombie its pid,
// and so its process group's number, cannot be given to another process, so the group can be
// killed safely after it ended. A pidfd wakes poll at its end; without one, poll wakes every
// kExitCheckMs to look.
class ExitWatch {
 public:
  explicit ExitWatch(pid_t pid) : pid_(pid) {
#ifdef SYS_pidfd_open
    pidfd_ = Descriptor(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
#endif
  }
  int fd() const { return pidfd_.get(); }

  bool ended() {
    if (ended_) return true;
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    int result;
    do {
      result = waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
      // ECHILD: the status went elsewhere (the host ignores SIGCHLD, or reaps every child).
      ended_ = true;
      reaped_elsewhere_ = true;
    } else {
      ended_ = info.si_pid == pid_;
    }
    return ended_;
  }
  bool reaped_elsewhere() const { return reaped_elsewhere_; }

 private:
  pid_t pid_;
  Descriptor pidfd_;
  bool ended_ = false;
  bool reaped_elsewhere_ = false;
};

// What the child wrote on its two channels.
class ChildChannels {
 public:
  ChildChannels(int report, int output, const ProbeKey& key) : fds_{report, output}, report_(key) {
    for (int fd : fds_) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }

  // Waits up to `wait_ms` for the channels or `exit_fd` (-1: none), then reads what is ready.
  void wait_and_read(int exit_fd, int wait_ms) {
    pollfd polled[3] = {{fds_[0], POLLIN, 0}, {fds_[1], POLLIN, 0}, {exit_fd, POLLIN, 0}};
    if (poll(polled, 3, wait_ms) <= 0) return;
    for (int i = 0; i < 2; ++i) {
      if (polled[i].revents != 0) read_once(i);
    }
  }

  // Reads what is left without waiting for more.
  void drain() {
    for (int i = 0; i < 2; ++i) {
      for (int reads = 0; reads < kDrainReads && fds_[i] >= 0; ++reads) {
        if (!read_once(i)) break;
      }
    }
  }

  const ProbeReport& report() const { return report_; }
  const std::string& output() const { return output_; }

 private:
  // Whether anything was read.
  bool read_once(int channel) {
    char buffer[4096];
    const ssize_t got = read(fds_[channel], buffer, sizeof buffer);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return false;
    if (got <= 0) {
      fds_[channel] = -1;  // closed, or broken: poll skips it from now on
      return false;
    }
    const std::string_view bytes(buffer, static_cast<size_t>(got));
    if (channel == 0) {
      report_.add(bytes);
    } else {
      output_.append(bytes);
      if (output_.size() > 2 * kOutputKept) output_.erase(0, output_.size() - kOutputKept);
    }
    return true;
  }

  int fds_[2];
  ProbeReport report_;
  std::string output_;  // the last kOutputKept bytes or so of stdout and stderr
};

// The child's wait status once it has ended (killed, if need be); nullopt when it went
// elsewhere.
std::optional<int> reap(pid_t pid, bool reaped_elsewhere) {
  if (reaped_elsewhere) return std::nullopt;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, 0);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return std::nullopt;
  }
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

}  // namespace

ProbeOutcome run_probe(const std::string& program, const std::string& plugin_path,
                       const std::string& plugin_name, const std::string& options,
                       uint32_t intra_op_threads, std::chrono::milliseconds time_limit) {
  ProbeOutcome outcome;
  const Clock::time_point deadline = Clock::now() + time_limit;
  const std::optional<ProbeKey> key = random_probe_key();
  if (!key) {
    outcome.reason = "cannot make a key for a probe process: " + errno_text(errno);
    return outcome;
  }
  Descriptor key_read, key_write, report_ours, report_theirs, output_read, output_write;
  if (!open_pipe(key_read, key_write) || !open_socket_pair(report_ours, report_theirs) ||
      !open_pipe(output_read, output_write)) {
    outcome.reason = "cannot make the channels of a probe process: " + errno_text(errno);
    return outcome;
  }
  // A line of 33 bytes fits any pipe's buffer: written before the child reads, and closed so
  // that it reads to the end.
  if (!hxcommon::write_all(key_write.get(), probe_key_text(*key) + "\n")) {
    outcome.reason = "cannot hand a probe process its key: " + errno_text(errno);
    return outcome;
  }
  key_write.reset();
  std::string error;
  const std::optional<pid_t> pid =
      spawn(program, {program, plugin_path, options, std::to_string(intra_op_threads)},
            key_read.get(), report_theirs.get(), output_write.get(), error);
  if (!pid) {
    outcome.reason = error;
    return outcome;
  }
  key_read.reset();  // the child holds its ends now: closing ours lets EOF come
  report_theirs.reset();
  output_write.reset();
  shutdown(report_ours.get(), SHUT_WR);  // the probe reads nothing from its report channel

  ExitWatch watch(*pid);
  ChildChannels channels(report_ours.get(), output_read.get(), *key);
  ProbeEnd end;
  // Until the child itself ends, not until its channels close: something the plugin forked
  // may hold them open for ever.
  while (!watch.ended()) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      end.timed_out = true;
      break;
    }
    const int wait_ms =
        static_cast<int>(std::min<long long>(left, watch.fd() >= 0 ? 60000 : kExitCheckMs));
    channels.wait_and_read(watch.fd(), wait_ms);
  }
  // Every verdict ends the whole group, so that nothing the plugin started lives on. The
  // leader is killed by its pid too, in case the plugin moved it to another group. (Once the
  // leader was reaped elsewhere, its number stays reserved only while its group has members;
  // for an empty group to be another's by now, pids would have had to wrap round meanwhile.)
  kill(-*pid, SIGKILL);
  if (!watch.reaped_elsewhere()) kill(*pid, SIGKILL);
  channels.drain();
  end.wait_status = reap(*pid, watch.reaped_elsewhere());

  ProbeNames names;
  names.program = program;
  names.plugin_name = plugin_name;
  names.time_limit = time_limit;
  names.last_output = last_line(channels.output());
  return judge_probe(end, channels.report(), names);
}

}  // namespace hxrt::detail
