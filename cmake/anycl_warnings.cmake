# SPDX-License-Identifier: Apache-2.0
# Compiler warnings for AnyCL's own targets; ANYCL_WERROR turns them into errors (CI does).
function(anycl_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    if(ANYCL_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
