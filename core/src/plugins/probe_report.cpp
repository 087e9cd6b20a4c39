#include "plugins/probe_report.hpp"

#include <cstring>

#include "base/logger.hpp"
#include "plugins/probe_protocol.hpp"

namespace hxrt::detail {

namespace protocol = probe_protocol;

void ProbeReport::add(std::string_view bytes) {
  while (!bytes.empty()) {
    const size_t newline = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, newline);
    if (!partial_overlong_) {
      if (partial_.size() + piece.size() > protocol::kLineLimit) {
        partial_overlong_ = true;
        partial_.clear();
      } else {
        partial_.append(piece);
      }
    }
    if (newline == std::string_view::npos) return;
    if (partial_overlong_) {
      ++forged_lines_;
    } else if (!partial_.empty()) {
      take_line(partial_);
    }
    partial_.clear();
    partial_overlong_ = false;
    bytes.remove_prefix(newline + 1);
  }
}

void ProbeReport::take_line(std::string_view line) {
  const std::optional<protocol::SignedLine> signed_line = protocol::verify_line(key_, line);
  // A line of the probe's sent again, or out of order, is the plugin's doing.
  if (!signed_line || (last_sequence_ && signed_line->sequence <= *last_sequence_)) {
    ++forged_lines_;
    return;
  }
  last_sequence_ = signed_line->sequence;
  const std::string& text = signed_line->text;
  if (text.rfind(protocol::kStep, 0) == 0) {
    last_step_ = printable(text.substr(std::strlen(protocol::kStep)));
  } else if (text == protocol::kDone) {
    done_ = true;
  } else if (text.rfind(protocol::kError, 0) == 0) {
    // Its text may hold what the plugin said (an exception's message).
    error_ = printable(text.substr(std::strlen(protocol::kError)));
  }
}

}  // namespace hxrt::detail
