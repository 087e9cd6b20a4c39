// What hxrt-probe (tools/hxrt-probe) and the core (plugins/probe_process.cpp) say to each other
// about the one plugin the probe loads, and why a plugin cannot put words in the probe's mouth.
//
// The core makes a fresh key (probe_key.hpp) for each probe and writes it, as one line of hex,
// into a pipe that is the probe's standard input; the probe reads it to the end before it loads
// the plugin and puts /dev/null in its place, so the key is in no descriptor, argument, variable
// or file the plugin can look at. The probe then reports on descriptor kReportFd, a stream
// socket, one signed line (signed_line) per event:
//   "step <call>"   before each call into the plugin, so that a crash, an exit() or a hang is
//                   blamed on the last step named ("crashed in <call>");
//   "done"          every step returned (whether the core will accept the plugin is the
//                   in-process loader's question), written just before the probe exits with
//                   kFinishedExit;
//   "error <why>"   the probe itself could not go on, which says nothing about the plugin,
//                   written just before it exits with kCouldNotProbeExit.
//
// The plugin runs in the probe's process and can write to kReportFd (its number is no secret:
// /proc/self/fd lists it), so the core counts only lines whose tag checks out, in increasing
// sequence; and it judges a probe by what its process did first (hung, killed by a signal, or
// its exit status) and by the report only second, so a forged or stolen "done" still needs the
// probe's own exit status behind it. The channel is a socket rather than a pipe because a pipe
// can be opened again for reading through /proc/self/fd, which would let a plugin take the
// probe's "step dlopen" line out of the channel before the core read it and pass for a probe
// that never reached it; a socket cannot be opened that way, and what is read from the probe's
// end of it is what the core sends (nothing), not what the probe wrote. A plugin that puts a
// descriptor of its own in kReportFd's place catches the probe's later lines, but they carry
// tags, not the key: it can keep them from the core (which only makes its own verdict worse),
// not make new ones.
//
// What remains: the key is in the probe's memory, which the plugin shares. A plugin that goes
// looking for it (reads its own process's memory, or takes hxrt-probe apart to find where the
// key is kept; or reads the host's memory, where the system lets a process trace its parent)
// can sign any line it likes. That takes deliberate work against hxrt; the probe is a guard
// against plugins that crash, exit or hang, not a sandbox against hostile code, which loaded
// into the host can do anything anyway. Moving the descriptor to a number picked at random
// would add nothing: /proc/self/fd lists it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "plugins/probe_key.hpp"

namespace hxrt::detail::probe_protocol {

// The first descriptor after stdin, stdout and stderr: the plugin's own output goes to those.
constexpr int kReportFd = 3;

constexpr const char* kStep = "step ";
constexpr const char* kDone = "done";
constexpr const char* kError = "error ";

// The probe's exit statuses after "done" and after "error".
constexpr int kFinishedExit = 0;
constexpr int kCouldNotProbeExit = 2;

// The longest text a signed line carries (a longer one is cut), and so, with the sequence
// number and the tag, a bound on the lines the core keeps while it looks for the newline.
constexpr size_t kTextLimit = 1024;
constexpr size_t kLineLimit = kTextLimit + 64;

// "\n<sequence> <tag> <text>\n", the tag (16 hex digits) made from "<sequence> <text>" with
// `key`. The leading newline ends whatever unfinished line the plugin left in the channel.
std::string signed_line(const ProbeKey& key, uint64_t sequence, std::string_view text);

struct SignedLine {
  uint64_t sequence = 0;
  std::string text;
};

// The sequence number and text of `line` (without its newlines) when signed_line made it with
// `key`; nullopt for any other line.
std::optional<SignedLine> verify_line(const ProbeKey& key, std::string_view line);

}  // namespace hxrt::detail::probe_protocol
