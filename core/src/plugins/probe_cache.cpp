#include "plugins/probe_cache.hpp"

#include <hxcommon/cache_file.hpp>
#include <hxcommon/stable_hash.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {
namespace {

namespace fs = std::filesystem;

// The file's first line names its format, so that a file of another format reads as empty.
constexpr const char* kHeader = "hxrt plugin probe verdicts 1";
// Room for every plugin of several installs and build trees, while a file that tests fill
// with temporary folders stays small.
constexpr size_t kMaxKeys = 256;
// This core never writes a larger file: a larger one is somebody else's and is not read.
constexpr size_t kMaxFileBytes = 1 << 20;
// A key is six fields and the path: ABI, init arguments hash, device:inode, size, mtime,
// ctime.
constexpr int kFieldsBeforePath = 6;

// The plugin path a key ends with; "" for a line that is no key.
std::string path_of(const std::string& key) {
  size_t at = 0;
  for (int field = 0; field < kFieldsBeforePath; ++field) {
    at = key.find(' ', at);
    if (at == std::string::npos) return {};
    ++at;
  }
  return key.substr(at);
}

}  // namespace

std::string ProbeCache::default_file() { return hxcommon::cache_file_path("plugin-probes"); }

std::optional<std::string> ProbeCache::key(const std::string& plugin_path,
                                           const std::string& options,
                                           uint32_t intra_op_threads) {
  std::error_code error;
  const std::string path = fs::canonical(plugin_path, error).string();
  const std::optional<std::string> identity = hxcommon::file_identity(path);
  if (error || !identity) return std::nullopt;
  if (path.find_first_of("\r\n") != std::string::npos) return std::nullopt;
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(hxcommon::stable_hash(
                    options + '\n' + std::to_string(intra_op_threads))));
  return "abi" + std::to_string(HX_ABI_VERSION_MAJOR) + "." +
         std::to_string(HX_ABI_VERSION_MINOR) + " " + hash + " " + *identity + " " + path;
}

ProbeCache::ProbeCache(std::string file) : file_(std::move(file)) {
  const std::optional<std::string> text = hxcommon::read_small_file(file_, kMaxFileBytes);
  if (!text) return;
  std::istringstream in(*text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return;
  while (std::getline(in, line)) {
    if (!line.empty()) keys_.push_back(line);
  }
  if (keys_.size() > kMaxKeys) keys_.erase(keys_.begin(), keys_.end() - kMaxKeys);
}

bool ProbeCache::contains(const std::string& key) const {
  return std::find(keys_.begin(), keys_.end(), key) != keys_.end();
}

void ProbeCache::add(const std::string& key) {
  const std::string path = path_of(key);
  keys_.erase(std::remove_if(keys_.begin(), keys_.end(),
                             [&](const std::string& old) { return path_of(old) == path; }),
              keys_.end());
  keys_.push_back(key);
  if (keys_.size() > kMaxKeys) keys_.erase(keys_.begin());
  changed_ = true;
}

std::string ProbeCache::save() {
  if (!changed_ || file_.empty()) return {};
  std::string text = std::string(kHeader) + "\n";
  for (const std::string& key : keys_) text += key + "\n";
  std::string failure = hxcommon::replace_cache_file(file_, text);
  if (failure.empty()) changed_ = false;
  return failure;
}

}  // namespace hxrt::detail
