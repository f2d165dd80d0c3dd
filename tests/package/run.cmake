# SPDX-License-Identifier: Apache-2.0
# CTest driver: installs the build tree to a prefix, builds the consumer against it, runs it.
# Inputs: BUILD_DIR, SOURCE_DIR (tests/package), WORK_DIR, GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
# Installed next to the library's own tools, the consumer finds the kernels in the install tree,
# and still does after the whole tree has been moved.
include(GNUInstallDirs)
file(COPY ${WORK_DIR}/build/consumer DESTINATION ${WORK_DIR}/prefix/${CMAKE_INSTALL_BINDIR})
set(kernels ${CMAKE_INSTALL_DATADIR}/anycl/cl_kernels/anycl/demo.cl)
run(${WORK_DIR}/prefix/${CMAKE_INSTALL_BINDIR}/consumer ${WORK_DIR}/prefix/${kernels})
file(RENAME ${WORK_DIR}/prefix ${WORK_DIR}/moved)
run(${WORK_DIR}/moved/${CMAKE_INSTALL_BINDIR}/consumer ${WORK_DIR}/moved/${kernels})
