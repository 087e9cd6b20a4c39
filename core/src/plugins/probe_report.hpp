// What hxrt-probe told the core about one probe, read from the bytes of its report channel:
// only the lines it signed with this probe's key count (probe_protocol.hpp); the rest were
// written by the plugin, which shares the channel, and are dropped. Bytes may come in pieces of
// any size; what is kept is bounded however much the plugin writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "plugins/probe_key.hpp"

namespace hxrt::detail {

class ProbeReport {
 public:
  explicit ProbeReport(ProbeKey key) : key_(key) {}

  // The next bytes read from the channel.
  void add(std::string_view bytes);

  // The call the probe named last before going into the plugin, made safe for a terminal.
  const std::optional<std::string>& last_step() const { return last_step_; }
  // Whether the probe said every step returned.
  bool done() const { return done_; }
  // Why the probe said it could not go on, made safe for a terminal.
  const std::optional<std::string>& error() const { return error_; }
  // How many lines were dropped as not the probe's.
  size_t forged_lines() const { return forged_lines_; }

 private:
  void take_line(std::string_view line);

  ProbeKey key_;
  std::string partial_;            // the line being read, up to probe_protocol::kLineLimit bytes
  bool partial_overlong_ = false;  // it went past that: no line of the probe's, dropped whole
  std::optional<uint64_t> last_sequence_;
  std::optional<std::string> last_step_;
  bool done_ = false;
  std::optional<std::string> error_;
  size_t forged_lines_ = 0;
};

}  // namespace hxrt::detail
