/* How the fuzzed plugin (fuzzed_plugin.c) gets its input: plugin_table_fuzz exports this
 * function, and the plugin's init looks it up by name in the process (the core loads plugins
 * with RTLD_LOCAL, so the plugin cannot link against the fuzzer). */
#ifndef HXRT_TESTS_FUZZ_FUZZED_PLUGIN_BYTES_H_
#define HXRT_TESTS_FUZZ_FUZZED_PLUGIN_BYTES_H_

#include <stddef.h>
#include <stdint.h>

#define HXRT_FUZZ_PLUGIN_BYTES_SYMBOL "hxrt_fuzz_plugin_bytes"

/* The current fuzz input: *size bytes, borrowed until the runtime that loads the plugin goes. */
typedef const uint8_t* (*hxrt_fuzz_plugin_bytes_fn)(size_t* size);

#endif /* HXRT_TESTS_FUZZ_FUZZED_PLUGIN_BYTES_H_ */
