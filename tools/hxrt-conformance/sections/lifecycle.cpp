#include "sections/sections.hpp"

namespace hxrt_conformance {

void check_lifecycle(const Target& target, SectionLog& log) {
  (void)target;

  log.skip("lifecycle", "not written yet");
}

}  // namespace hxrt_conformance
