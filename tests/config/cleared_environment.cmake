# Sets `environment` to "NAME=;NAME=;...": every variable the config reads, set empty, which the
# config takes as unset, so that no test sees the hxrt settings of the shell CTest runs in.
# The names are read from the settings table, where each row's variable is a plain string
# literal (core/src/config/settings_table.cpp), and the config file's own variable
# (settings_table.hpp); settings_table_test.cpp checks that this reading finds exactly the
# table's. Included by hxrt_add_test (tests/CMakeLists.txt), in its scope.
set(environment "")
foreach(table_file settings_table.hpp settings_table.cpp)
  set(table_path ${PROJECT_SOURCE_DIR}/core/src/config/${table_file})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${table_path})
  file(STRINGS ${table_path} table_lines REGEX "\"HXRT_[A-Z0-9_]+\"")
  string(REGEX MATCHALL "\"HXRT_[A-Z0-9_]+\"" table_names "${table_lines}")
  foreach(name ${table_names})
    string(REPLACE "\"" "" name ${name})
    list(APPEND environment "${name}=")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES environment)
# The same names, comma-separated, for the tests' own ScopedEnvironment (scoped_environment.hpp,
# through the definition HXRT_TEST_CONFIG_VARIABLES).
string(REPLACE "=" "" config_variables "${environment}")
string(REPLACE ";" "," config_variables "${config_variables}")
