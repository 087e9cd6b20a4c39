# What `cmake --install` lays out besides the plugins (hxrt_add_plugin) and the tools
# (tools/CMakeLists.txt):
#
#   include/hxrt/*.hpp, plugin_api.h,                   the public C++ API, the C ABI and its
#     plugin_vocabulary.h, sim_counters.h                 vocabulary
#   lib/libhxrt.so*                                     the core
#   lib/hxrt/plugins/                                   the plugins, where the core looks
#   lib/cmake/hxrt/                                     find_package(hxrt CONFIG): hxrt::core,
#                                                       hxrt::plugin_api, HXRT_PLUGIN_DIR
#   lib/pkgconfig/hxrt.pc                               the core for pkg-config; plugindir
#   share/hxrt/samples/{async_plugin,c_plugin,embed,    the projects docs/embedding.md and
#     quickstart}                                         docs/writing-a-plugin.md build against
#                                                       the installed package
#   share/doc/hxrt/README.md, docs/*.md                 the documentation, beside ops.md (the
#                                                       ops reference, tools/hxrt-info) and api/
#                                                       (the API reference, docs/CMakeLists.txt)
#
# The installed tree is relocatable: the core finds its plugins relative to itself (dladdr),
# the tools find the core through $ORIGIN, the CMake package through its own location and
# hxrt.pc through ${pcfiledir}. So `cmake --install build --prefix <anywhere>` works, and the
# tree may be moved after.
include(CMakePackageConfigHelpers)

set(HXRT_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hxrt)
set(HXRT_INSTALL_PLUGIN_DIR ${CMAKE_INSTALL_LIBDIR}/${HXRT_PLUGIN_SUBDIR})

# Headers: the core's public API and the ABI header. The core's private headers (core/src)
# stay behind. sim_counters.h goes too: it declares the two functions the installed
# libhx_sim.so exports, which a host application's tests use to count the copies the core made
# to and from simulated devices (the sim plugin exists so that placement can be tested without
# a GPU); a library's exported functions are unusable without their header. It needs only
# plugin_api.h.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/hxrt/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hxrt FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_SOURCE_DIR}/plugin_api/include/hxrt/plugin_api.h
              ${PROJECT_SOURCE_DIR}/plugin_api/include/hxrt/plugin_vocabulary.h
              ${PROJECT_SOURCE_DIR}/plugins/sim/include/hxrt/sim_counters.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hxrt)

# The samples a plugin author and a host-app developer start from, each a project of its own
# that builds against the installed package alone.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/c_plugin ${PROJECT_SOURCE_DIR}/samples/embed
                  ${PROJECT_SOURCE_DIR}/samples/quickstart ${PROJECT_SOURCE_DIR}/samples/async_plugin
        DESTINATION ${CMAKE_INSTALL_DATADIR}/hxrt/samples)

# The core and the header-only ABI target, exported as hxrt::core and hxrt::plugin_api.
set_target_properties(hxrt PROPERTIES EXPORT_NAME core BUILD_WITH_INSTALL_RPATH ON)
set_target_properties(hxrt_plugin_api PROPERTIES EXPORT_NAME plugin_api)
# (Their include folder is set by $<INSTALL_INTERFACE:...> where each target is defined.)
install(TARGETS hxrt hxrt_plugin_api EXPORT hxrtTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT hxrtTargets NAMESPACE hxrt:: DESTINATION ${HXRT_INSTALL_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/hxrtConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/hxrtConfig.cmake
                              INSTALL_DESTINATION ${HXRT_INSTALL_CMAKE_DIR}
                              PATH_VARS HXRT_INSTALL_PLUGIN_DIR)
# 0.x and 1.x alike: a program built against one minor builds against a later minor of the
# same major, as the plugin ABI promises for plugins.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hxrtConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hxrtConfig.cmake ${PROJECT_BINARY_DIR}/hxrtConfigVersion.cmake
        DESTINATION ${HXRT_INSTALL_CMAKE_DIR})

# hxrt.pc names its folders relative to where it lies, as the CMake package does, so that it
# is right for whatever prefix `cmake --install --prefix` was given. Each path is made by
# file(RELATIVE_PATH) from the full (normalised) folders, so that no "//" or "/./" reaches
# the flags, whether the install dirs were given relative or absolute.
file(RELATIVE_PATH HXRT_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH HXRT_PC_LIBDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH HXRT_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
foreach(path_variable HXRT_PC_TO_PREFIX HXRT_PC_LIBDIR HXRT_PC_INCLUDEDIR)
  string(REGEX REPLACE "/$" "" ${path_variable} "${${path_variable}}")
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/hxrt.pc.in ${PROJECT_BINARY_DIR}/hxrt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hxrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The documentation: the README and the pages of docs/ it links to, which the installed
# headers cite by page and section (docs/embedding.md, "Asynchronous execution"). They are
# installed beside the ops reference, in the same layout as in the source tree (README.md and
# docs/), so that the README's links and every document the headers name are in the package.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md")
