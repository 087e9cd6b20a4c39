// The plugins that earlier probes found safe to load, kept in a small text file so that a
// start-up with known plugins starts no probe process.
//
// A verdict holds for one file, one set of init arguments and one ABI: its key is the file's
// canonical path, device and inode, size, modification and change times (to the nanosecond),
// a hash of what its init gets (options and intra-op threads) and the core's ABI version. A
// plugin rebuilt, replaced (even by `cp -p`, which keeps the modification time but not the
// change time), touched or given other options or intra-op threads is probed again.
//
// Only good verdicts are kept. A plugin that crashed is probed again at the next start-up,
// which costs one short-lived process (or the time limit, for one that hangs) and never goes
// stale: a crash caused by something outside the file (a driver, a library, the environment)
// stops being reported as soon as its cause is fixed.
//
// The file is read once and rewritten whole (a temporary file renamed over it) when a verdict
// was learnt. A file that is missing, unreadable, corrupt or not writable costs probes, never a
// failed start-up: a line that is not a key of this format just never matches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hxrt::detail {

class ProbeCache {
 public:
  // $XDG_CACHE_HOME/hxrt/plugin-probes, else $HOME/.cache/hxrt/plugin-probes (the XDG base
  // directory rule); "" when neither variable gives an absolute folder.
  static std::string default_file();

  // The key of the plugin file `plugin_path` whose init gets `options` and
  // `intra_op_threads`; nullopt when the file cannot be identified (it cannot be stat'ed, or
  // its path holds a line break).
  static std::optional<std::string> key(const std::string& plugin_path,
                                        const std::string& options, uint32_t intra_op_threads);

  // Reads `file` ("" keeps nothing and saves nothing).
  explicit ProbeCache(std::string file);

  const std::string& file() const { return file_; }
  bool contains(const std::string& key) const;
  // Remembers `key`, dropping older keys of the same plugin file.
  void add(const std::string& key);
  // Writes the file when a key was added since it was read. Returns "" or why it could not.
  std::string save();

 private:
  std::string file_;
  std::vector<std::string> keys_;  // oldest first
  bool changed_ = false;
};

}  // namespace hxrt::detail
