# Shared CMake functions of rocKE's C++ (platform and library use the same ones): the warning policy
# and the native golden ctests.
function(rocke_strict_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
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
