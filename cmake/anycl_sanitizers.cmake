# SPDX-License-Identifier: Apache-2.0
# ANYCL_SANITIZE=address,undefined (or thread) instruments AnyCL, its tests and tools.
function(anycl_set_sanitizers target)
  if(ANYCL_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${ANYCL_SANITIZE} -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${ANYCL_SANITIZE})
  endif()
endfunction()
