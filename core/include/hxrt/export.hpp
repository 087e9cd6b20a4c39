// What libhxrt.so exports. The library is built with hidden visibility, so that nothing but
// its public API can be linked against (or interposed), and its own calls stay direct.
// HXRT_API marks a public class (its out-of-line members, and its vtable and typeinfo, which a
// program needs to catch or copy what the library throws) or a public free function.
// HXRT_INTERNAL marks a type of the library's inside that a public class declares (a class
// nested in an exported class is exported with it unless marked otherwise).
#pragma once

#define HXRT_API __attribute__((visibility("default")))
#define HXRT_INTERNAL __attribute__((visibility("hidden")))
