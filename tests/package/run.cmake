# SPDX-License-Identifier: Apache-2.0
# CTest driver for the consumer project in this folder. Inputs: MODE, BUILD_DIR (AnyCL's build
# tree), ANYCL_SOURCE_DIR, SOURCE_DIR (this folder), WORK_DIR, GENERATOR, CXX (for pkg-config),
# WITH_MPI (AnyCL was built with anycl::mpi: the package must provide it).
#   find_package      installs BUILD_DIR to a prefix, builds the consumer with find_package (and,
#                     with WITH_MPI, a small program on anycl::mpi) and,
#                     when pkg-config is found, with g++ $(pkg-config --cflags --libs anycl); runs
#                     both, then again from the prefix's bin/ and after the tree has been moved.
#   add_subdirectory  builds AnyCL's library inside the consumer's build (build type None, unity
#                     build) and runs the consumer.
#   FetchContent      the same through FetchContent_Declare(SOURCE_DIR).
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
function(timed label)
  string(TIMESTAMP t0 "%s")
  run(${ARGN})
  string(TIMESTAMP t1 "%s")
  math(EXPR dt "${t1} - ${t0}")
  message(STATUS "${MODE}: ${label} took ${dt} s")
endfunction()

if(MODE MATCHES "^(add_subdirectory|FetchContent)$")
  # ccache is the consumer's choice (AnyCL sets it only as the top-level project).
  find_program(ccache ccache)
  set(launcher "")
  if(ccache)
    set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${ccache})
  endif()
  # Build type None (Debian packaging's: no flags of CMake's own, so no optimisation) compiles the
  # library in half the time of Release; the consumer's choice must survive AnyCL's CMakeLists.
  # A unity build (CMAKE_UNITY_BUILD, also the consumer's choice) compiles it in batches of files,
  # in well under half the time (docs/testing.md), and shows that its sources build that way (no
  # clashing file-local names); the top-level build compiles every file on its own.
  timed("configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
        -DANYCL_CONSUMER_VIA=${MODE} -DANYCL_SOURCE_DIR=${ANYCL_SOURCE_DIR}
        -DCMAKE_BUILD_TYPE=None -DCMAKE_UNITY_BUILD=ON ${launcher})
  file(STRINGS ${WORK_DIR}/build/CMakeCache.txt build_type REGEX "^CMAKE_BUILD_TYPE:")
  if(NOT build_type MATCHES "=None$")
    message(FATAL_ERROR "${MODE}: AnyCL changed the consumer's build type (${build_type})")
  endif()
  timed("build" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  file(GLOB batches ${WORK_DIR}/build/_deps/anycl-build/CMakeFiles/anycl.dir/Unity/unity_*_cxx.cxx)
  if(NOT batches)
    message(FATAL_ERROR "${MODE}: AnyCL's library was not compiled as a unity build")
  endif()
  # AnyCL's tests, tools and examples are off: the library is the only thing built from it.
  foreach(unwanted tools tests examples)
    if(IS_DIRECTORY ${WORK_DIR}/build/_deps/anycl-build/${unwanted})
      message(FATAL_ERROR "${MODE}: AnyCL's ${unwanted} were configured in the consumer's build")
    endif()
  endforeach()
  # Nor are its install rules (ANYCL_INSTALL is off below a top-level project).
  file(READ ${WORK_DIR}/build/_deps/anycl-build/cmake_install.cmake anycl_install)
  if(anycl_install MATCHES "anyclTargets")
    message(FATAL_ERROR "${MODE}: AnyCL added its install rules to the consumer's build")
  endif()
  run(${WORK_DIR}/build/consumer)
  return()
elseif(NOT MODE STREQUAL "find_package")
  message(FATAL_ERROR "MODE is '${MODE}', expected find_package, add_subdirectory or FetchContent")
endif()

include(GNUInstallDirs)
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# Everything a user of the install tree relies on.
foreach(f ${CMAKE_INSTALL_INCLUDEDIR}/anycl/anycl.hpp ${CMAKE_INSTALL_INCLUDEDIR}/anycl/export.hpp
          ${CMAKE_INSTALL_DATADIR}/anycl/cl_kernels/anycl/demo.cl
          ${CMAKE_INSTALL_DATADIR}/doc/anycl/LICENSE
          ${CMAKE_INSTALL_LIBDIR}/cmake/anycl/anyclConfig.cmake
          ${CMAKE_INSTALL_LIBDIR}/cmake/anycl/anyclConfigVersion.cmake
          ${CMAKE_INSTALL_LIBDIR}/cmake/anycl/anyclTargets.cmake
          ${CMAKE_INSTALL_LIBDIR}/pkgconfig/anycl.pc
          ${CMAKE_INSTALL_BINDIR}/anycl-info ${CMAKE_INSTALL_BINDIR}/anycl-run
          ${CMAKE_INSTALL_BINDIR}/anycl-build ${CMAKE_INSTALL_BINDIR}/anycl-demo)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()
file(GLOB libs ${prefix}/${CMAKE_INSTALL_LIBDIR}/libanycl.*)
if(NOT libs)
  message(FATAL_ERROR "cmake --install did not install libanycl in ${CMAKE_INSTALL_LIBDIR}")
endif()

# anycl/mpi.hpp is installed exactly when anycl::mpi is.
if(WITH_MPI AND NOT EXISTS ${prefix}/${CMAKE_INSTALL_INCLUDEDIR}/anycl/mpi.hpp)
  message(FATAL_ERROR "AnyCL was built with MPI but cmake --install did not install anycl/mpi.hpp")
elseif(NOT WITH_MPI AND EXISTS ${prefix}/${CMAKE_INSTALL_INCLUDEDIR}/anycl/mpi.hpp)
  message(FATAL_ERROR "cmake --install installed anycl/mpi.hpp without anycl::mpi")
endif()

timed("configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DANYCL_CONSUMER_MPI=${WITH_MPI})
timed("build" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(WITH_MPI)
  run(${WORK_DIR}/build/consumer-mpi)
endif()
set(consumers ${WORK_DIR}/build/consumer)

find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  # What a user types; the .pc file is found through PKG_CONFIG_PATH, as for any prefix.
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  timed("pkg-config build" sh -c "\"${CXX}\" -std=c++17 -o \"${WORK_DIR}/consumer-pc\" \
\"${SOURCE_DIR}/main.cpp\" '-DCONSUMER_KERNEL_DIR=\"${SOURCE_DIR}/kernels\"' \
$(pkg-config --cflags --libs anycl)")
  run(${WORK_DIR}/consumer-pc)
  list(APPEND consumers ${WORK_DIR}/consumer-pc)
else()
  message(STATUS "pkg-config not found: anycl.pc is installed but not tried")
endif()

# Installed next to the library's own tools, the consumers find the shipped kernels in the install
# tree, and still do after the whole tree has been moved.
file(COPY ${consumers} DESTINATION ${prefix}/${CMAKE_INSTALL_BINDIR})
set(kernels ${CMAKE_INSTALL_DATADIR}/anycl/cl_kernels/anycl/demo.cl)
foreach(c ${consumers})
  get_filename_component(name ${c} NAME)
  run(${prefix}/${CMAKE_INSTALL_BINDIR}/${name} ${prefix}/${kernels})
endforeach()
file(RENAME ${prefix} ${WORK_DIR}/moved)
foreach(c ${consumers})
  get_filename_component(name ${c} NAME)
  run(${WORK_DIR}/moved/${CMAKE_INSTALL_BINDIR}/${name} ${WORK_DIR}/moved/${kernels})
endforeach()
if(PKG_CONFIG)
  # The moved .pc file still points at the moved tree.
  set(ENV{PKG_CONFIG_PATH} ${WORK_DIR}/moved/${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  execute_process(COMMAND pkg-config --variable=includedir anycl OUTPUT_VARIABLE inc
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${inc}/anycl/anycl.hpp")
    message(FATAL_ERROR "the moved anycl.pc gives includedir '${inc}', without anycl/anycl.hpp")
  endif()
endif()
