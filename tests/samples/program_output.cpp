#include "program_output.hpp"

#include <algorithm>
#include <sstream>

namespace hxrt_test {

Lines lines_of(const std::string& text) {
  Lines lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::string joined(const Lines& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + '\n';
  return text;
}

size_t find_line(const Lines& lines, const std::string& wanted, size_t from) {
  for (size_t i = from; i < lines.size(); ++i) {
    if (lines[i] == wanted) return i;
  }
  return kNoLine;
}

size_t find_line_starting_with(const Lines& lines, const std::string& prefix, size_t from) {
  for (size_t i = from; i < lines.size(); ++i) {
    if (starts_with(lines[i], prefix)) return i;
  }
  return kNoLine;
}

size_t count_lines_starting_with(const Lines& lines, const std::string& prefix) {
  return static_cast<size_t>(
      std::count_if(lines.begin(), lines.end(),
                    [&](const std::string& line) { return starts_with(line, prefix); }));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Words words_of(const std::string& line) {
  Words words;
  std::istringstream stream(line);
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

}  // namespace hxrt_test
