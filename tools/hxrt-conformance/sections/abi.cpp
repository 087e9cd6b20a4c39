#include "sections/sections.hpp"

namespace hxrt_conformance {

void check_abi(const Target& target, SectionLog& log) {
  (void)target;

  log.skip("abi", "not written yet");
}

}  // namespace hxrt_conformance
