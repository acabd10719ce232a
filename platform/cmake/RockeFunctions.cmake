# Shared CMake functions of rocKE's C++: platform's CMakeLists includes this file and installs it
# beside rockeConfig.cmake, so a package built against the installed platform (the library, via
# find_package(rocke)) uses the very same ones: the warning policy, the SDK archive and its
# installable CMake package, the native tools, the ctest programs and the native golden ctests.

function(rocke_strict_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()

# rocke_add_sdk_library(TARGET <t> PACKAGE <p> EXPORT_NAME <e> NATIVE_DIR <dir>): the static
# archive lib<t>.a of every cpp/src/**.cpp, alias <p>::<e>, public headers cpp/include (installed
# under <dir>/include), C++20 and the warning policy.
function(rocke_add_sdk_library)
  cmake_parse_arguments(ARG "" "TARGET;PACKAGE;EXPORT_NAME;NATIVE_DIR" "" ${ARGN})
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/cpp/src/*.cpp")
  add_library(${ARG_TARGET} STATIC ${_sources})
  add_library(${ARG_PACKAGE}::${ARG_EXPORT_NAME} ALIAS ${ARG_TARGET})
  # Hidden symbols: an extension module linking the archive exports none of them, so its calls
  # into the archive bind directly (no PLT stub, no interposition to assume) and GCC may inline
  # one archive function into another under -fPIC. Static links (the tools) are unaffected.
  set_target_properties(${ARG_TARGET} PROPERTIES OUTPUT_NAME ${ARG_TARGET} EXPORT_NAME ${ARG_EXPORT_NAME}
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(${ARG_TARGET} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/cpp/include>
    $<INSTALL_INTERFACE:${ARG_NATIVE_DIR}/include>)
  target_compile_features(${ARG_TARGET} PUBLIC cxx_std_20)
  rocke_strict_warnings(${ARG_TARGET})
endfunction()

# One executable per cpp/<dir>/*.cpp, named after its file, linking <target>, with the warning
# policy; the names go to <out_var> (the shared part of the tools and the ctest programs).
function(rocke_add_programs target dir out_var)
  file(GLOB _sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/cpp/${dir}/*.cpp")
  set(_names "")
  foreach(_src IN LISTS _sources)
    get_filename_component(_name "${_src}" NAME_WE)
    add_executable(${_name} "${_src}")
    target_link_libraries(${_name} PRIVATE ${target})
    rocke_strict_warnings(${_name})
    list(APPEND _names ${_name})
  endforeach()
  set(${out_var} ${_names} PARENT_SCOPE)
endfunction()

# Whether this build is sanitized (ROCKE_SANITIZE, or -fsanitize in the compile or link flags).
function(rocke_sanitized out_var)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _config)
  set(_flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_config}} ${CMAKE_EXE_LINKER_FLAGS}")
  if(ROCKE_SANITIZE OR _flags MATCHES "-fsanitize")
    set(${out_var} TRUE PARENT_SCOPE)
  else()
    set(${out_var} FALSE PARENT_SCOPE)
  endif()
endfunction()

# The runtime linked into <target>: a native emitter is one short process per run, and its start-up
# (loading and binding shared libraries) was a large part of a one-config run. Fully static
# (-static: C, C++ and GCC runtimes) where the toolchain can link it, about 0.5 ms and a hundred
# page faults less per run than the shared C library; else the C++ and GCC runtimes alone
# (-static-libstdc++ -static-libgcc; binding libstdc++'s symbols at start-up was a tenth of a
# one-config run). GCC or Clang on Linux only. Not in sanitized builds (ROCKE_SANITIZE, or
# -fsanitize in the compile or link flags), whose runtimes expect the shared runtimes.
function(rocke_static_runtime target)
  rocke_sanitized(_sanitized)
  if(_sanitized)
    return()
  endif()
  if(NOT (CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$"))
    return()
  endif()
  if(NOT DEFINED ROCKE_FULLY_STATIC_LINKS)
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_LINK_OPTIONS -static)
    check_cxx_source_compiles("#include <string>\nint main(int argc, char**) { return static_cast<int>(std::to_string(argc).size()); }"
      ROCKE_FULLY_STATIC_LINKS)
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
  endif()
  if(ROCKE_FULLY_STATIC_LINKS)
    target_link_options(${target} PRIVATE -static)
  else()
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()

# The native tools' allocator (rocke_tool_alloc.cpp, installed beside this file): per-thread size
# classes for small and medium blocks, about a fifth fewer instructions per emitter run. Not in sanitized
# builds, whose runtimes must see every allocation.
set(ROCKE_TOOL_ALLOC_SOURCE "${CMAKE_CURRENT_LIST_DIR}/rocke_tool_alloc.cpp")
function(rocke_tool_allocator target)
  rocke_sanitized(_sanitized)
  if(NOT _sanitized)
    target_sources(${target} PRIVATE "${ROCKE_TOOL_ALLOC_SOURCE}")
  endif()
endfunction()

# One executable per cpp/tools/*.cpp, linking <target>, the static runtime and the tools'
# allocator, installed into the wheel's scripts.
function(rocke_add_tools target)
  rocke_add_programs(${target} tools _tools)
  foreach(_name IN LISTS _tools)
    rocke_static_runtime(${_name})
    rocke_tool_allocator(${_name})
    install(PROGRAMS $<TARGET_FILE:${_name}> DESTINATION _scripts)
  endforeach()
endfunction()

# One ctest program per cpp/tests/*.cpp, linking <target>, run from the package's source dir.
function(rocke_add_ctests target)
  rocke_add_programs(${target} tests _tests)
  foreach(_name IN LISTS _tests)
    add_test(NAME ${_name} COMMAND ${_name} WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  endforeach()
endfunction()

# One ctest per config file under ROOT (<family>.cfg anywhere below it): EMITTER --check-golden,
# the native golden check of that family, hashed in C++ (platform and library use the same one).
function(rocke_add_golden_tests emitter root)
  file(GLOB_RECURSE _configs CONFIGURE_DEPENDS "${root}/*.cfg")
  foreach(_cfg IN LISTS _configs)
    get_filename_component(_family "${_cfg}" NAME_WE)
    add_test(NAME golden_native_${_family} COMMAND ${emitter} --check-golden --family ${_family} --root "${root}")
  endforeach()
endfunction()

# rocke_install_package(TARGET <t> PACKAGE <p> NATIVE_DIR <dir> [FILES <extra>...]): install the
# archive under <dir>/lib, the headers under <dir>/include and the CMake package
# find_package(<p> CONFIG) -> <p>::<export name> under <dir>/lib/cmake/<p>: the export set
# <p>Targets, <p>Config.cmake configured from cmake/<p>Config.cmake.in, an exact-version file and
# the extra FILES beside them.
function(rocke_install_package)
  cmake_parse_arguments(ARG "" "TARGET;PACKAGE;NATIVE_DIR" "FILES" ${ARGN})
  set(_cmake_dir "${ARG_NATIVE_DIR}/lib/cmake/${ARG_PACKAGE}")
  install(TARGETS ${ARG_TARGET} EXPORT ${ARG_PACKAGE}Targets ARCHIVE DESTINATION "${ARG_NATIVE_DIR}/lib")
  install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/cpp/include/" DESTINATION "${ARG_NATIVE_DIR}/include")
  install(EXPORT ${ARG_PACKAGE}Targets NAMESPACE ${ARG_PACKAGE}:: DESTINATION "${_cmake_dir}")
  include(CMakePackageConfigHelpers)
  configure_package_config_file("${CMAKE_CURRENT_SOURCE_DIR}/cmake/${ARG_PACKAGE}Config.cmake.in"
    "${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}Config.cmake"
    INSTALL_DESTINATION "${_cmake_dir}")
  write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}ConfigVersion.cmake"
    COMPATIBILITY ExactVersion)
  install(FILES "${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}Config.cmake"
    "${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}ConfigVersion.cmake" ${ARG_FILES}
    DESTINATION "${_cmake_dir}")
endfunction()
