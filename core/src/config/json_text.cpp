#include "config/json_text.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

// nlohmann's exception id for a number that overflows a double ("1e400").
constexpr int kNumberOverflow = 406;

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

// The byte of the bracket that opens level `level`. Called once the parser has refused that
// level, so the text before it is valid JSON: only brackets inside strings need skipping.
size_t byte_opening_level(const std::string& text, size_t level) {
  size_t depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth == level) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return text.size();
}

// The library's description of a parse error without its "[json.exception...] parse error
// at line L, column C: " prefix (the message gives the position itself), and with the last
// token it read, which may be a whole 10 MB string, as shown() writes it.
std::string library_description(const std::string& what, const std::string& last_token) {
  std::string description = what;
  const size_t prefix_end = what.find(": ", what.find(']'));
  if (what.compare(0, 1, "[") == 0 && prefix_end != std::string::npos) {
    description = what.substr(prefix_end + 2);
  }
  const std::string quoted_token = "'" + last_token + "'";
  if (description.size() >= quoted_token.size() &&
      description.compare(description.size() - quoted_token.size(), std::string::npos,
                          quoted_token) == 0) {
    description.resize(description.size() - quoted_token.size());
    description += "\"" + shown(last_token) + "\"";
  }
  return description;
}

// "/plugins/options/sim: " for text that is one value inside a config, "" for a whole file.
std::string where(const std::string& path) {
  return path.empty() ? "" : shown_pointer(path) + ": ";
}

// Builds the JSON value from nlohmann's SAX events, which, unlike its DOM parser, say where
// every error is (a number overflow too) and let nesting be refused before it is built.
class CheckedJsonBuilder {
 public:
  CheckedJsonBuilder(const std::string& text, const std::string& source, const std::string& path)
      : text_(text), source_(source), path_(path) {}

  bool null() { return add(nullptr); }
  bool boolean(bool value) { return add(value); }
  bool number_integer(json::number_integer_t value) { return add(value); }
  bool number_unsigned(json::number_unsigned_t value) { return add(value); }
  bool number_float(json::number_float_t value, const std::string& /*text*/) {
    return add(value);
  }
  bool string(std::string& value) { return add(std::move(value)); }
  // JSON text has no binary values; the SAX interface asks for the handler all the same.
  bool binary(json::binary_t& value) { return add(json::binary(std::move(value))); }
  bool start_object(size_t /*elements*/) { return open(json::object()); }
  bool start_array(size_t /*elements*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& key) {
    Level& object = open_.back();
    object.key = std::move(key);
    if (object.value->contains(object.key)) {
      fail(source_, pointer_being_read(),
           "the key appears twice in one object; JSON parsers keep only the last, so remove "
           "one");
    }
    return true;
  }

  [[noreturn]] bool parse_error(size_t position, const std::string& last_token,
                                const nlohmann::detail::exception& error) {
    if (error.id == kNumberOverflow) {
      fail(source_, pointer_being_read(),
           "the number " + shown(last_token) + " at " +
               position_of(text_, position - std::min(position, last_token.size())) +
               " is beyond the range of a double (about 1.8e308); nothing hxrt reads takes a "
               "number this large, so write the value expected there");
    }
    throw Error(StatusCode::kInvalidArgument,
                source_ + ": " + where(path_) + "malformed JSON at " +
                    position_of(text_, position > 0 ? position - 1 : 0) + ": " +
                    library_description(error.what(), last_token));
  }

  json take() { return std::move(root_); }

 private:
  struct Level {
    json* value;      // an object or an array, inside root_
    std::string key;  // in an object: the key of the member being read
  };

  bool add(json value) {
    place(std::move(value));
    return true;
  }

  json* place(json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *open_.back().value;
    if (parent.is_array()) {
      // Only the last element of an array can be open, so pointers to open levels survive
      // the vector growing.
      parent.push_back(std::move(value));
      return &parent.back();
    }
    json& member = parent[open_.back().key];
    member = std::move(value);
    return &member;
  }

  bool open(json container) {
    if (open_.size() == kMaxNesting) {
      throw Error(StatusCode::kInvalidArgument,
                  source_ + ": " + where(path_) + "nesting deeper than " +
                      std::to_string(kMaxNesting) + " levels at " +
                      position_of(text_, byte_opening_level(text_, kMaxNesting + 1)) +
                      ": nothing hxrt reads needs that many; look for brackets that are never "
                      "closed");
    }
    open_.push_back({place(std::move(container)), {}});
    return true;
  }

  bool close() {
    open_.pop_back();
    return true;
  }

  // The JSON pointer of the value being read: at each open level, the member being read, or
  // in an array the element being read (its last when a deeper level is open in it, else
  // the next).
  std::string pointer_being_read() const {
    std::string pointer = path_;
    for (size_t i = 0; i < open_.size(); ++i) {
      const json& value = *open_[i].value;
      if (value.is_object()) {
        pointer = pointer_child(pointer, open_[i].key);
      } else {
        pointer = pointer_child(pointer, value.size() - (i + 1 < open_.size() ? 1 : 0));
      }
    }
    return pointer;
  }

  const std::string& text_;
  const std::string& source_;
  const std::string& path_;
  json root_;
  std::vector<Level> open_;
};

}  // namespace

json parse_json(const std::string& text, const std::string& source,
                       const std::string& path) {
  // nlohmann reads a NUL byte as the end of the text and would silently drop what follows.
  const size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    throw Error(StatusCode::kInvalidArgument,
                source + ": " + where(path) + "malformed JSON at " + position_of(text, nul) +
                    ": a NUL byte, which JSON text cannot hold; is this a binary file?");
  }
  CheckedJsonBuilder builder(text, source, path);
  json::sax_parse(text, &builder);
  return builder.take();
}

}  // namespace hxrt::detail
