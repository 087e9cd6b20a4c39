// What one conformance check found, and the log a section records its checks in.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace hxrt_conformance {

enum class Result { kPass, kFail, kSkip };

// "pass", "fail", "skip".
const char* result_name(Result result);

struct Check {
  std::string section;  // "memory"
  std::string name;     // what was checked: "allocate honours alignment 256"
  Result result = Result::kPass;
  // For a failure: what the plugin did and what to fix. For a skip: why the check could not
  // run (a feature the plugin does not offer). For a pass: optional facts ("2 devices").
  std::string detail;
};

// The checks of one section in the order they ran. Each check is also handed to `on_record`
// as it is recorded, so that a section that crashes the process still leaves what it found.
// Used by one thread at a time.
class SectionLog {
 public:
  SectionLog(std::string section, std::function<void(const Check&)> on_record);

  const std::string& section() const { return section_; }

  void pass(const std::string& name, const std::string& detail = {});
  void fail(const std::string& name, const std::string& detail);
  void skip(const std::string& name, const std::string& reason);
  // pass(name) when `ok`, else fail(name, failure). Returns `ok`.
  bool expect(bool ok, const std::string& name, const std::string& failure);

  // Whether any check of this section failed so far.
  bool failed() const { return failures_ > 0; }
  // The name of the last check recorded, "" before the first.
  const std::string& last_check() const { return last_check_; }

 private:
  void record(const std::string& name, Result result, const std::string& detail);

  std::string section_;
  std::function<void(const Check&)> on_record_;
  int failures_ = 0;
  std::string last_check_;
};

}  // namespace hxrt_conformance
