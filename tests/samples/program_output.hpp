// Reading what a program printed: its lines, the lines that match, the words of a line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hxrt_test {

using Lines = std::vector<std::string>;
using Words = std::vector<std::string>;

// What the find functions return when no line matches.
inline constexpr size_t kNoLine = static_cast<size_t>(-1);

Lines lines_of(const std::string& text);
// The lines again as one text, for failure messages.
std::string joined(const Lines& lines);

// The index of the first line at or after `from` that equals `wanted`, or kNoLine.
size_t find_line(const Lines& lines, const std::string& wanted, size_t from = 0);
// The index of the first line at or after `from` that starts with `prefix`, or kNoLine.
size_t find_line_starting_with(const Lines& lines, const std::string& prefix, size_t from = 0);
size_t count_lines_starting_with(const Lines& lines, const std::string& prefix);

bool contains(const std::string& text, const std::string& part);
bool starts_with(const std::string& text, const std::string& prefix);
bool ends_with(const std::string& text, const std::string& suffix);

// A sample program's exit code and the lines it printed.
struct SampleRun {
  int exit_code;
  Lines lines;
};

// The canonical name of a device of this process: "GPU:0" -> "/job:localhost/.../GPU:0".
inline std::string device_name(const std::string& short_name) {
  return "/job:localhost/replica:0/task:0/device:" + short_name;
}

// `line` split at whitespace: the cells of a text table whose cells have no spaces.
Words words_of(const std::string& line);

}  // namespace hxrt_test
