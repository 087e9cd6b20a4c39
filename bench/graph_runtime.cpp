#include "graph_runtime.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace hxrt_bench {
namespace {

std::string execution_section(ExecutionThreads threads) {
  std::string fields;
  const auto add = [&fields](const char* key, int value) {
    if (value == 0) return;
    if (!fields.empty()) fields += ", ";
    fields += std::string("\"") + key + "\": " + std::to_string(value);
  };
  add("inter_op_threads", threads.inter_op);
  add("intra_op_threads", threads.intra_op);
  return "{\"execution\": {" + fields + "}}\n";
}

// Removes the file when it goes: the runtime reads its config once, in create.
struct TemporaryFile {
  explicit TemporaryFile(std::string contents)
      : path((std::filesystem::temp_directory_path() /
              ("hxrt_graph_bench_" + std::to_string(getpid()) + "_" +
               std::to_string(next_number++) + ".json"))
                 .string()) {
    std::ofstream file(path);
    file << contents;
    if (!file.flush()) throw std::runtime_error("cannot write the config file " + path);
  }
  ~TemporaryFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  static inline std::atomic<int> next_number{0};
  std::string path;
};

}  // namespace

hxrt::Runtime runtime_with_threads(ExecutionThreads threads, hxrt::RuntimeOptions options) {
  const TemporaryFile config(execution_section(threads));
  options.config_path = config.path;
  return hxrt::Runtime::create(options);
}

}  // namespace hxrt_bench
