// hxrt_startup: start-up to the first op, each run in a fresh process (start-up happens once
// per process, so it can only be measured in new ones): a host app (Runtime::create, then a
// 2x2 MatMul read back) and `hxrt-info` as a whole command, with every plugin of the plugin
// folder present and with each plugin alone. Prints a Markdown table of medians and the
// issue-16 target (every plugin present: at most 10 ms and 40 MB).
//
//   hxrt_startup [--runs N] [--info PATH]
//
// The children run in this process's environment without HXRT_CONFIG and HXRT_PLUGIN_PATH,
// so that "all" is the build's plugin folder alone (the folder beside libhxrt.so, which a
// default runtime loads); a plugin alone is given to hxrt-info through a config file
// (plugins.use_installed false, plugins.libraries [it]).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "startup_child.hpp"
#include "startup_process.hpp"

namespace hxrt_bench {
namespace {

namespace fs = std::filesystem;

constexpr double kTargetMs = 10;
constexpr double kTargetMb = 40;

struct Settings {
  int runs = 21;
  std::string info = HXRT_BENCH_INFO_PROGRAM;
};

struct Scenario {
  std::string label;
  std::string plugins;  // "all", or one plugin file
};

struct Row {
  std::string label;
  std::string program;
  // Medians; -1: not measured. to_main_ms runs from spawn to main (exec, the dynamic loader,
  // static constructors), exit_ms from the first op's end to wait's return (destructors,
  // plugin shutdown, the process's exit).
  double wall_ms, cpu_ms, to_main_ms, create_ms, op_ms, exit_ms, max_rss_mb;
  std::string failure;  // why the first op or the program failed, once
};

double median(std::vector<double> values) {
  if (values.empty()) return -1;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::vector<Scenario> scenarios(const std::string& plugin_dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(plugin_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("libhx_", 0) == 0 && entry.path().extension() == ".so") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error("no libhx_*.so in " + plugin_dir);
  std::string names;
  std::vector<Scenario> out{{"", "all"}};
  for (const std::string& file : files) {
    const std::string stem = fs::path(file).stem().string();  // libhx_cpu
    const std::string name = stem.substr(6);
    names += (names.empty() ? "" : " ") + name;
    out.push_back({name + " alone", file});
  }
  out[0].label = "all: " + names;
  return out;
}

// `text` as a JSON string.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The config file, in `folder`, that makes hxrt-info load the scenario's plugin file alone.
std::string write_alone_config(const std::string& folder, const Scenario& scenario) {
  const std::string path = folder + "/" + fs::path(scenario.plugins).stem().string() + ".json";
  std::ofstream(path) << "{\"plugins\": {\"use_installed\": false, \"libraries\": ["
                      << json_string(scenario.plugins) << "]}}\n";
  return path;
}

// Runs `argv` 1 + runs times (the first warms the page cache and is dropped).
Row measure(const Settings& settings, const std::string& label, const std::string& program,
            const std::vector<std::string>& argv, const std::vector<std::string>& environment,
            bool reports_phases) {
  std::vector<double> wall, cpu, to_main, create, op, to_exit, rss;
  std::string failure;
  for (int run = 0; run <= settings.runs; ++run) {
    const ProcessRun result = run_process(argv, environment);
    if (result.exit_code != 0) {
      failure = program + " exited with " + std::to_string(result.exit_code) + ": " +
                result.output.substr(0, 300);
      break;
    }
    if (run == 0) continue;
    wall.push_back(result.wall_ms);
    cpu.push_back(result.cpu_ms);
    rss.push_back(result.max_rss_mb);
    if (!reports_phases) continue;
    std::istringstream line(result.output);
    long long main_at = 0, create_ns = -1, op_ns = -1, done_at = 0;
    line >> main_at >> create_ns >> op_ns >> done_at;
    const auto since_start = [&](long long at) {
      return (at - std::chrono::duration_cast<std::chrono::nanoseconds>(
                       result.started.time_since_epoch()).count()) / 1e6;
    };
    to_main.push_back(since_start(main_at));
    to_exit.push_back(result.wall_ms - since_start(done_at));
    create.push_back(create_ns / 1e6);
    if (op_ns >= 0) {
      op.push_back(op_ns / 1e6);
    } else if (failure.empty()) {
      std::getline(line >> std::ws, failure);
      failure = "first op: " + failure;
    }
  }
  return {label,      program,         median(wall), median(cpu), median(to_main), median(create),
          median(op), median(to_exit), median(rss),  failure};
}

std::string cell(double value) {
  if (value < 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.2f" : "%.1f", value);
  return text;
}

void print(const Settings& settings, const std::vector<Row>& rows) {
  std::printf("Start-up in a fresh process: medians of %d runs each, after one dropped warm-up "
              "run. CPU = user + system time; to main = spawn to main (exec, dynamic loading); "
              "exit = the first op's end to the process's end (destructors, plugin shutdown); "
              "RSS = the process's peak resident set.\n\n",
              settings.runs);
  std::printf("| plugins | program | wall ms | CPU ms | to main ms | Runtime::create ms "
              "| first op ms | exit ms | max RSS MB |\n"
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const Row& row : rows) {
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", row.label.c_str(),
                row.program.c_str(), cell(row.wall_ms).c_str(), cell(row.cpu_ms).c_str(),
                cell(row.to_main_ms).c_str(), cell(row.create_ms).c_str(),
                cell(row.op_ms).c_str(), cell(row.exit_ms).c_str(),
                cell(row.max_rss_mb).c_str());
  }
  std::printf("\n");
  for (const Row& row : rows) {
    if (!row.failure.empty()) {
      std::printf("- %s, %s: %s\n", row.label.c_str(), row.program.c_str(), row.failure.c_str());
    }
  }
  std::printf("\nTarget (issue 16), every plugin present: wall <= %.0f ms and max RSS <= %.0f MB\n",
              kTargetMs, kTargetMb);
  for (size_t i = 0; i < 2 && i < rows.size(); ++i) {
    const Row& row = rows[i];
    const bool met = row.failure.empty() && row.wall_ms >= 0 && row.wall_ms <= kTargetMs &&
                     row.max_rss_mb <= kTargetMb;
    std::printf("  %-10s %s ms, %s MB: %s\n", row.program.c_str(), cell(row.wall_ms).c_str(),
                cell(row.max_rss_mb).c_str(), met ? "met" : "MISSED");
  }
}

bool parse(int argc, char** argv, Settings& settings) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return false;
    const std::string value = argv[++i];
    if (flag == "--runs") {
      char* end = nullptr;
      const long runs = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || runs < 1 || runs > 1000) return false;
      settings.runs = static_cast<int>(runs);
    } else if (flag == "--info") {
      settings.info = value;
    } else {
      return false;
    }
  }
  return true;
}

int run(const Settings& settings) {
  char temporary[] = "/tmp/hxrt_startup.XXXXXX";
  if (mkdtemp(temporary) == nullptr) throw std::runtime_error("mkdtemp failed");
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::vector<std::string> cleared = {"HXRT_CONFIG", "HXRT_PLUGIN_PATH"};
  std::vector<Row> rows;
  for (const Scenario& scenario : scenarios(HXRT_BENCH_PLUGIN_DIR)) {
    std::fprintf(stderr, "measuring %s\n", scenario.label.c_str());
    rows.push_back(measure(settings, scenario.label, "host app",
                           {self, "--child", scenario.plugins}, environment_with(cleared, {}),
                           true));
    std::vector<std::string> added;
    if (scenario.plugins != "all") {
      added.push_back("HXRT_CONFIG=" + write_alone_config(temporary, scenario));
    }
    rows.push_back(measure(settings, scenario.label, "hxrt-info", {settings.info},
                           environment_with(cleared, added), false));
  }
  fs::remove_all(temporary);
  print(settings, rows);
  return 0;
}

}  // namespace
}  // namespace hxrt_bench

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--child") {
    return hxrt_bench::run_startup_child(argv[2], std::chrono::steady_clock::now());
  }
  hxrt_bench::Settings settings;
  if (!hxrt_bench::parse(argc, argv, settings)) {
    std::fprintf(stderr, "usage: %s [--runs 1..1000] [--info PATH]\n", argv[0]);
    return 2;
  }
  try {
    return hxrt_bench::run(settings);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hxrt_startup: %s\n", error.what());
    return 1;
  }
}
