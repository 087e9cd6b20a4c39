// Where a trace may go and how it gets there: only a regular file or a new one (a FIFO, a
// device or a folder is refused at start, through the API and through HXRT_TRACE, without
// waiting for a FIFO's reader), written beside the path and renamed over it at the end, so
// that the path never holds half a trace, and a failure to write leaves the path as it was
// and the tracer stopped.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../config/scoped_environment.hpp"
#include "error_from.hpp"
#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;
namespace fs = std::filesystem;

namespace {

// Longer than any refusal takes; a start that waits this long waits for a FIFO's reader.
constexpr std::chrono::seconds kBound{10};

// A FIFO made for the test, with a reader to come to the rescue of a writer that opened it
// and waits: before the fix the trace's open waited for a reader for ever, and the test would
// hang rather than fail. The reader stays open until the object goes, so that a trace that
// was started on the FIFO all the same can be written into the pipe without blocking or a
// SIGPIPE; declare it before the runtime.
class Fifo {
 public:
  explicit Fifo(const fs::path& path) : path_(path.string()) {
    REQUIRE(::mkfifo(path_.c_str(), 0600) == 0);
  }
  ~Fifo() {
    if (reader_ >= 0) ::close(reader_);
  }
  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;

  const std::string& path() const { return path_; }

  // The hxrt::Error `body` throws, which must come within kBound; when it does not, a reader
  // opens the FIFO (so that a blocked open returns), and the test fails.
  template <class Body>
  std::optional<hxrt::Error> error_within_bound(Body body) {
    auto outcome = std::async(std::launch::async, [&] { return hxrt_test::error_from(body); });
    if (outcome.wait_for(kBound) == std::future_status::timeout) {
      reader_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      FAIL_CHECK("still waiting after " << kBound.count() << " s: the FIFO was opened");
    }
    return outcome.get();
  }

 private:
  std::string path_;
  int reader_ = -1;
};

// The names of the entries of `folder`, sorted.
std::vector<std::string> entries(const fs::path& folder) {
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void run_an_op(hxrt::Runtime& rt) {
  hxrt::Tensor a = rt.tensor<float>({2}, {1, 2}, "CPU:0");
  rt.execute("Add", {a, a}, {}, "CPU:0");
}

// A trace started, written and read back, so that the tracer is known to work.
void check_a_trace_works(hxrt::Runtime& rt, const std::string& path) {
  rt.start_trace(path);
  run_an_op(rt);
  REQUIRE(rt.stop_trace() == path);
  CHECK(events(trace_test::read_trace(path), "op", "Add").size() == 1);
}

// While set, a file this process writes may not grow past `bytes`; a write beyond fails with
// EFBIG rather than raising SIGXFSZ. The limits are the process's: keep the scope short.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved_) == 0);
    previous_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = saved_;
    limited.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = SIG_DFL;
};

}  // namespace

TEST_CASE("start_trace refuses a FIFO at once, naming it, and nothing is recorded") {
  hxrt_test::TempDir dir("hxrt_trace_fifo");
  Fifo fifo(dir.path() / "trace.json");
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  const auto error = fifo.error_within_bound([&] { rt.start_trace(fifo.path()); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("'" + fifo.path() + "' is a FIFO, not a regular file") &&
                               Catch::StartsWith("start_trace: "));
  CHECK(rt.stop_trace().empty());  // it did not start
  CHECK(entries(dir.path()) == std::vector<std::string>{"trace.json"});  // no temporary file
  check_a_trace_works(rt, (dir.path() / "after.json").string());
}

TEST_CASE("HXRT_TRACE naming a FIFO fails create at once, naming the variable") {
  hxrt_test::TempDir dir("hxrt_trace_env_fifo");
  Fifo fifo(dir.path() / "env.json");
  config_test::ScopedEnvironment environment;
  environment.set("HXRT_TRACE", fifo.path());
  const auto error = fifo.error_within_bound(
      [] { hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus()); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("environment HXRT_TRACE: trace.path:") &&
                                Catch::Contains("is a FIFO, not a regular file"));
  CHECK(entries(dir.path()) == std::vector<std::string>{"env.json"});
}

TEST_CASE("a folder or a device as the trace path is refused at start, saying what it is") {
  hxrt_test::TempDir dir("hxrt_trace_not_file");
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  const std::string folder = dir.path().string();
  const auto on_folder = hxrt_test::error_from([&] { rt.start_trace(folder); });
  REQUIRE(on_folder);
  CHECK(on_folder->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(on_folder->what(), Catch::Contains("'" + folder + "' is a directory, not a regular file"));
  const auto on_device = hxrt_test::error_from([&] { rt.start_trace("/dev/null"); });
  REQUIRE(on_device);
  CHECK_THAT(on_device->what(),
             Catch::Contains("'/dev/null' is a character device, not a regular file"));
  CHECK(rt.stop_trace().empty());
  CHECK(entries(dir.path()).empty());
}

TEST_CASE("a trace replaces an existing file only once complete, leaving nothing beside it") {
  hxrt_test::TempDir dir("hxrt_trace_replace");
  const fs::path path = dir.path() / "trace.json";
  std::ofstream(path) << "the previous trace";
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  rt.start_trace(path.string());
  run_an_op(rt);
  // Still the old file while the trace runs: it is being written elsewhere.
  CHECK(text_of(path) == "the previous trace");
  CHECK(entries(dir.path()).size() == 2);  // the file and the trace's temporary file
  CHECK(rt.stop_trace() == path.string());
  CHECK(events(trace_test::read_trace(path.string()), "op", "Add").size() == 1);
  CHECK(entries(dir.path()) == std::vector<std::string>{"trace.json"});
}

TEST_CASE("a trace through a symbolic link goes to the file it points to") {
  hxrt_test::TempDir dir("hxrt_trace_link");
  const fs::path target = dir.path() / "target.json";
  const fs::path link = dir.path() / "link.json";
  std::ofstream(target) << "before";
  fs::create_symlink(target, link);
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  check_a_trace_works(rt, link.string());
  CHECK(fs::is_symlink(link));
  CHECK(events(trace_test::read_trace(target.string()), "op", "Add").size() == 1);
}

TEST_CASE("a trace whose path was taken by a folder fails to stop, leaves nothing, and stops") {
  hxrt_test::TempDir dir("hxrt_trace_rename_fails");
  const fs::path path = dir.path() / "trace.json";
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  rt.start_trace(path.string());
  run_an_op(rt);
  REQUIRE(fs::create_directory(path));  // the rename over the path can only fail now
  bool threw_another_type = false;
  std::optional<hxrt::Error> error;
  try {
    error = hxrt_test::error_from([&] { rt.stop_trace(); });
  } catch (...) {
    threw_another_type = true;
  }
  CHECK_FALSE(threw_another_type);
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInternal);
  CHECK_THAT(error->what(),
             Catch::Contains("could not be written to '" + path.string() + "'") &&
                 Catch::Contains("Is a directory") && Catch::Contains("the trace is lost"));
  // No half trace anywhere: the folder at the path is untouched and the temporary file gone.
  CHECK(entries(dir.path()) == std::vector<std::string>{"trace.json"});
  CHECK(fs::is_empty(path));
  // Stopped: nothing left to stop, and a new trace starts and is written.
  CHECK(rt.stop_trace().empty());
  check_a_trace_works(rt, (dir.path() / "next.json").string());
}

TEST_CASE("a trace that cannot be written in full fails to stop, leaves nothing, and stops") {
  hxrt_test::TempDir dir("hxrt_trace_write_fails");
  const fs::path path = dir.path() / "trace.json";
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  rt.start_trace(path.string());
  run_an_op(rt);
  std::optional<hxrt::Error> error;
  {
    const FileSizeLimit limit(64);  // less than the trace's header
    error = hxrt_test::error_from([&] { rt.stop_trace(); });
  }
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInternal);
  CHECK_THAT(error->what(), Catch::Contains("could not be written to '" + path.string() + "'") &&
                                Catch::Contains("File too large"));
  CHECK(entries(dir.path()).empty());
  CHECK(rt.stop_trace().empty());
  check_a_trace_works(rt, path.string());
}
