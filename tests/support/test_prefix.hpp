// What nearly every test file includes, compiled once per test program of three or more files
// (hxrt_add_test) and read by each of its files before their own first line: Catch2's single
// header alone costs a file over a second to parse, nlohmann-json's two, and CI builds the
// suite three times (Release, ASan, TSan). The files still include what they use.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "hxrt/hxrt.hpp"
