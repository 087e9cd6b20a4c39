#include "hxcommon/nearest_name.hpp"

#include <algorithm>

namespace hxcommon {
namespace {

constexpr size_t kSuggestDistance = 3;

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

// Names whose lengths differ by more than kSuggestDistance are never within it, so a 10 MB
// key is not compared letter by letter.
const std::string* nearest_name(const std::string& name, const std::vector<std::string>& known) {
  const std::string* nearest = nullptr;
  size_t nearest_distance = kSuggestDistance + 1;
  for (const std::string& candidate : known) {
    const size_t length_difference = name.size() > candidate.size()
                                         ? name.size() - candidate.size()
                                         : candidate.size() - name.size();
    if (length_difference > kSuggestDistance) continue;
    const size_t distance = edit_distance(name, candidate);
    if (distance < nearest_distance) {
      nearest = &candidate;
      nearest_distance = distance;
    }
  }
  return nearest;
}

}  // namespace hxcommon
