# SPDX-License-Identifier: Apache-2.0
# The install rules of the library, its headers and kernels, and its CMake and pkg-config
# packages (included from the top-level CMakeLists.txt when ANYCL_INSTALL is on).
include(CMakePackageConfigHelpers)
install(TARGETS anycl EXPORT anyclTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# mpi.hpp only with the library it declares.
install(DIRECTORY include/anycl DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} PATTERN mpi.hpp EXCLUDE)
# anycl::mpi, when built, is part of the package: find_package(anycl) then brings in MPI.
if(TARGET anycl_mpi)
  install(TARGETS anycl_mpi EXPORT anyclTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES include/anycl/mpi.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/anycl)
  set(ANYCL_PACKAGE_HAS_MPI ON)  # anyclConfig.cmake then finds MPI
else()
  set(ANYCL_PACKAGE_HAS_MPI OFF)
endif()
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/include/anycl/export.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/anycl)
install(DIRECTORY cl_kernels/ DESTINATION ${CMAKE_INSTALL_DATADIR}/anycl/cl_kernels)
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/anycl)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/anycl-version
        DESTINATION ${CMAKE_INSTALL_DATADIR}/anycl/cl_kernels RENAME .anycl-version)
install(EXPORT anyclTargets NAMESPACE anycl:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/anycl)
# A static libanycl needs its private dependencies at the consumer's link.
if(BUILD_SHARED_LIBS)
  set(ANYCL_STATIC_LIBRARY OFF)
else()
  set(ANYCL_STATIC_LIBRARY ON)
endif()
configure_package_config_file(cmake/anyclConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/anyclConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/anycl)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/anyclConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/anyclConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/anyclConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/anycl)
# pkg-config: OpenCL is public. A static libanycl has no shared library to carry CLBlast, clFFT
# and libdl, so they are listed as the consumer's own (`pkg-config --libs` links without --static);
# a shared one needs them only at its own link.
file(RELATIVE_PATH ANYCL_PC_PREFIX_FROM_PCDIR ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" ANYCL_PC_PREFIX_FROM_PCDIR "${ANYCL_PC_PREFIX_FROM_PCDIR}")
if(ANYCL_STATIC_LIBRARY)
  set(ANYCL_PC_REQUIRES "OpenCL clblast clFFT")
  set(ANYCL_PC_LIBS "-pthread -ldl")
  set(ANYCL_PC_PRIVATE "")
  set(ANYCL_PC_CFLAGS "-pthread -DANYCL_STATIC_DEFINE")
else()
  set(ANYCL_PC_REQUIRES "OpenCL")
  set(ANYCL_PC_LIBS "-pthread")
  set(ANYCL_PC_PRIVATE "Requires.private: clblast clFFT\nLibs.private: -ldl\n")
  set(ANYCL_PC_CFLAGS "-pthread")
endif()
configure_file(cmake/anycl.pc.in ${CMAKE_CURRENT_BINARY_DIR}/anycl.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/anycl.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
