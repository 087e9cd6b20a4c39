#include "check_log.hpp"

#include <utility>

namespace hxrt_conformance {

const char* result_name(Result result) {
  switch (result) {
    case Result::kPass: return "pass";
    case Result::kFail: return "fail";
    case Result::kSkip: return "skip";
  }
  return "?";
}

SectionLog::SectionLog(std::string section, std::function<void(const Check&)> on_record)
    : section_(std::move(section)), on_record_(std::move(on_record)) {}

void SectionLog::pass(const std::string& name, const std::string& detail) {
  record(name, Result::kPass, detail);
}

void SectionLog::fail(const std::string& name, const std::string& detail) {
  ++failures_;
  record(name, Result::kFail, detail);
}

void SectionLog::skip(const std::string& name, const std::string& reason) {
  record(name, Result::kSkip, reason);
}

bool SectionLog::expect(bool ok, const std::string& name, const std::string& failure) {
  if (ok) {
    pass(name);
  } else {
    fail(name, failure);
  }
  return ok;
}

void SectionLog::record(const std::string& name, Result result, const std::string& detail) {
  last_check_ = name;
  if (on_record_) on_record_(Check{section_, name, result, detail});
}

}  // namespace hxrt_conformance
