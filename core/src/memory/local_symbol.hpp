// HXRT_LOCAL marks a function that only libhxrt itself calls. Hidden, a call to it from another
// of the library's files is direct, not through the PLT: an indirect jump, which costs a few
// nanoseconds on the allocator's locked path.
#pragma once

#define HXRT_LOCAL __attribute__((visibility("hidden")))
