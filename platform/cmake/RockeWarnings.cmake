# Shared warning policy for rocKE's C++ (platform and library use the same one).
function(rocke_strict_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()
