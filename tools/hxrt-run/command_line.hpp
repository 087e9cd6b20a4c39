// hxrt-run's command line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "hxrt/shape.hpp"

namespace hxrun {

struct Options {
  std::string model;
  std::map<std::string, std::string> input_files;  // --input name=file.npy
  std::map<std::string, hxrt::Shape> shapes;       // --shape name=2x3
  std::map<std::string, int64_t> dims;             // --dim batch=8
  std::string save_outputs;                        // --save-outputs DIR
  std::string device;                              // --device /GPU:0
  std::string placer;                              // --placer simple|dynamic
  std::string config;                              // --config file
  std::string plan_topology;                       // --plan-topology FILE.json
  int runs = 10;                                   // --runs N
  uint32_t seed = 0;                               // --seed N: of the random inputs
  bool help = false;
};

// Parses argv; throws hxrt::Error(kInvalidArgument) with what is wrong and the usage.
Options parse_command_line(int argc, char** argv);
const char* usage();

}  // namespace hxrun
