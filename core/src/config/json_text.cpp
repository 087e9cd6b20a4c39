#include "config/json_text.hpp"

#include <set>
#include <vector>

#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

// Line and column of a byte offset, for parse errors.
std::string position_of(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Follows the parser's events to know the JSON pointer of each key, and fails on a key that
// its object already has.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& source) : source_(source) {}

  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        begin_element();
        open_.push_back({event == json::parse_event_t::object_start, {}, {}, 0});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        open_.pop_back();
        break;
      case json::parse_event_t::key: {
        Container& object = open_.back();
        const std::string key = parsed.get<std::string>();
        if (!object.keys.insert(key).second) {
          fail(source_, pointer_child(pointer_to_parent(), key),
               "the key appears twice in one object; JSON parsers keep only the last, so "
               "remove one");
        }
        object.token = pointer_token(key);
        break;
      }
      case json::parse_event_t::value:
        begin_element();
        break;
    }
    return true;
  }

 private:
  struct Container {
    bool is_object;
    std::set<std::string> keys;
    std::string token;  // the pointer token of the member or element being read
    size_t next_index;
  };

  // A value starting inside an array is its next element.
  void begin_element() {
    if (!open_.empty() && !open_.back().is_object) {
      open_.back().token = std::to_string(open_.back().next_index++);
    }
  }

  // The pointer of the innermost open object, whose keys are being read.
  std::string pointer_to_parent() const {
    std::string pointer;
    for (size_t i = 0; i + 1 < open_.size(); ++i) pointer += "/" + open_[i].token;
    return pointer;
  }

  const std::string& source_;
  std::vector<Container> open_;
};

}  // namespace

json parse_config_json(const std::string& text, const std::string& source) {
  try {
    return json::parse(text, DuplicateKeyCheck(source));
  } catch (const json::parse_error& e) {
    throw Error(StatusCode::kInvalidArgument,
                source + ": malformed JSON at " + position_of(text, e.byte > 0 ? e.byte - 1 : 0) +
                    ": " + e.what());
  }
}

}  // namespace hxrt::detail
