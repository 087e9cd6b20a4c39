# HXRT_SANITIZE: the sanitizers everything (core, plugins, tools, tests) is built with.
#   OFF      none
#   address  AddressSanitizer and UndefinedBehaviorSanitizer; ON means the same (the option
#            was once a switch)
#   thread   ThreadSanitizer, alone: it cannot share a process with AddressSanitizer. CI runs
#            it on the tests labelled `threads` (see hxrt_add_test).
# Sets HXRT_SANITIZER (address, thread or empty: the choice, spelled one way),
# HXRT_SANITIZER_FLAGS, the flags every C and C++ compile and link gets, which builds made
# against this tree must use too (a sanitized libhxrt.so needs its runtime in the program), and
# HXRT_SANITIZER_TEST_ENVIRONMENT, what every test runs with (hxrt_add_test and the tests
# added by hand).
set(HXRT_SANITIZE OFF CACHE STRING "Sanitizers to build with: OFF, address (ASan + UBSan) or thread (TSan)")
set_property(CACHE HXRT_SANITIZE PROPERTY STRINGS OFF address thread)

string(TOLOWER "${HXRT_SANITIZE}" sanitize)
set(HXRT_SANITIZER "")
if(sanitize STREQUAL "address" OR sanitize STREQUAL "on")
  set(HXRT_SANITIZER address)
  set(sanitizers address,undefined)
  set(HXRT_SANITIZER_FLAGS -fsanitize=${sanitizers} -fno-sanitize-recover=undefined
                           -fno-omit-frame-pointer)
  # PoCL (the OpenCL platform of the OpenCL plugin's tests) and its LLVM leak by design;
  # LeakSanitizer's exit-time scan crashes ("Tracer caught signal 11") on a stale dynamic-TLS
  # entry that PoCL, or a thread of oneDNN's OpenMP pool, leaves behind unless ASan stops
  # tracking __tls_get_addr; and LLVM puts an alternate signal stack of its own on the thread
  # that loads it, which ASan then fails to unmap as its own when that thread exits ("unable to
  # unmap"): with the OpenCL device cache, PoCL is loaded by whichever thread first uses an
  # OpenCL device.
  set(HXRT_SANITIZER_TEST_ENVIRONMENT
      "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/lsan_suppressions.txt;\
ASAN_OPTIONS=intercept_tls_get_addr=0:use_sigaltstack=0")
elseif(sanitize STREQUAL "thread")
  set(HXRT_SANITIZER thread)
  set(sanitizers thread)
  set(HXRT_SANITIZER_FLAGS -fsanitize=${sanitizers} -fno-omit-frame-pointer)
  # The first race fails the test at once, with both stacks of a lock-order inversion.
  set(HXRT_SANITIZER_TEST_ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:\
suppressions=${PROJECT_SOURCE_DIR}/tests/tsan_suppressions.txt")
elseif(NOT sanitize STREQUAL "off")
  message(FATAL_ERROR "HXRT_SANITIZE is '${HXRT_SANITIZE}'; it takes OFF, address or thread "
                      "(-DHXRT_SANITIZE=address for ASan + UBSan, thread for TSan)")
endif()
if(HXRT_SANITIZER)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${HXRT_SANITIZER_FLAGS}>")
  add_link_options("$<$<LINK_LANGUAGE:C,CXX>:-fsanitize=${sanitizers}>")
endif()
