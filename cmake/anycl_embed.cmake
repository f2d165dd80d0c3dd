# SPDX-License-Identifier: Apache-2.0
# Embeds the files of cl_kernels/ in the library, so that a relocated binary still finds its kernels.
function(anycl_embed_kernels output root)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DROOT=${root} "-DFILES=${files}"
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/anycl_embed_run.cmake
    DEPENDS ${files} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/anycl_embed_run.cmake
    COMMENT "Embedding cl_kernels/" VERBATIM)
endfunction()
