/* Core-services calls with an integer where the ABI has an enum, made from C, where an enum
 * parameter may hold any int: that is how a plugin passes a value outside the enumerators. C++
 * cannot pass one without undefined behaviour of its own. */
#ifndef HXRT_TESTS_LOADER_RAW_ENUM_CALLS_H_
#define HXRT_TESTS_LOADER_RAW_ENUM_CALLS_H_

#include "hxrt/plugin_api.h"

#ifdef __cplusplus
extern "C" {
#endif

hx_status* status_create_with_code(const hx_core_services* services, int code,
                                   const char* message);
void log_with_level(const hx_core_services* services, hx_core* core, int level,
                    const char* message);

#ifdef __cplusplus
}
#endif

#endif /* HXRT_TESTS_LOADER_RAW_ENUM_CALLS_H_ */
