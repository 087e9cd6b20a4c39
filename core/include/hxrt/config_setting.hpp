// One value of the effective configuration and where it came from (hxrt-info --config).
#pragma once

#include <string>

namespace hxrt {

struct ConfigSetting {
  std::string path;    // JSON pointer into the config file's layout: "/devices/GPU:0/memory/limit_mb"
  std::string value;   // the effective value as JSON text: "1024", "\"soft\"", "[\"GPU:1\"]"
  // "default", "file <path>", "environment HXRT_VISIBLE_DEVICES", "API" (RuntimeOptions or a
  // Runtime setter called before initialisation).
  std::string source;
};

}  // namespace hxrt
