# SPDX-License-Identifier: Apache-2.0
# tools/device-check.sh here against POCL: packs BUILD_DIR into WORK_DIR/pack (under 64 MiB), then
# runs the pack twice: through the machine's .icd files, and with none installed but POCL's
# library under NVIDIA's file name in a folder the script searches (the GPU machine's case). Each
# run's report must show the vendor library, and anycl-info, the device suite's [launch] tests and
# a short anycl-bench passing. Bad usage exits 2; no vendor library at all exits 1.
#   cmake -DSCRIPT=... -DBUILD_DIR=... -DWORK_DIR=... -DPOCL_LIBRARY=... -DPOCL_SHARE_DIR=...
#         -P device_check_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/empty-icds)
set(pack ${WORK_DIR}/pack)

function(run_script expect_rc)
  execute_process(COMMAND bash ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expect_rc}")
    message(FATAL_ERROR "bash ${ARGN}: exit ${rc}, expected ${expect_rc}:\n${out}${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

run_script(0 ${SCRIPT} pack ${BUILD_DIR} ${pack})
if(NOT out MATCHES "packed .* \\(([0-9]+) MiB\\)")
  message(FATAL_ERROR "pack did not say its size:\n${out}")
endif()
message(STATUS "pack: ${CMAKE_MATCH_1} MiB")

set(ENV{DEVICE_CHECK_SUITES} device)
set(ENV{DEVICE_CHECK_FILTER} "[launch]")
set(ENV{DEVICE_CHECK_BENCH} "--launches 100 --repetitions 1 --filter ^launch")
function(check_report what vendor_regex)
  file(READ ${pack}/report.txt report)
  foreach(re "vendor libraries: [1-9][0-9]* in [^\n]*\n *${vendor_regex}" "\ninfo +passed"
             "\ndevice +passed [^\n]*\n +All tests passed" "\nbench +passed" "anycl-info:\n.*Portable Computing Language"
             "launch_empty: anycl [0-9.]+ us")
    if(NOT report MATCHES "${re}")
      message(FATAL_ERROR "${what}: the report does not match '${re}':\n${report}")
    endif()
  endforeach()
endfunction()

# The machine's own .icd files.
run_script(0 ${pack}/device-check.sh run ${pack})
check_report("with the installed .icd files" "[^\n]*pocl")

# No .icd installed, the vendor library found by its file name.
# POCL finds its device drivers and headers relative to the path it was loaded from
# (<dir>/pocl, <dir>/../../share/pocl), so those sit beside the link as well.
set(driver ${WORK_DIR}/root/lib/driver)
get_filename_component(pocl_libdir ${POCL_LIBRARY} DIRECTORY)
file(MAKE_DIRECTORY ${driver} ${WORK_DIR}/root/share)
file(CREATE_LINK ${POCL_LIBRARY} ${driver}/libnvidia-opencl.so.1 SYMBOLIC)
file(CREATE_LINK ${pocl_libdir}/pocl ${driver}/pocl SYMBOLIC)
file(CREATE_LINK ${POCL_SHARE_DIR} ${WORK_DIR}/root/share/pocl SYMBOLIC)
set(ENV{DEVICE_CHECK_SYSTEM_ICDS} ${WORK_DIR}/empty-icds)
set(ENV{DEVICE_CHECK_ICD_DIRS} ${driver})
run_script(0 ${pack}/device-check.sh run ${pack})
check_report("with libnvidia-opencl.so.1 found by name" "${driver}/libnvidia-opencl.so.1")

# No vendor library anywhere: exit 1 and say so.
set(ENV{DEVICE_CHECK_ICD_DIRS} ${WORK_DIR}/empty-icds)
run_script(1 ${pack}/device-check.sh run ${pack})
if(NOT out MATCHES "no vendor OpenCL library found")
  message(FATAL_ERROR "no vendor library: unexpected output:\n${out}")
endif()

# Bad usage.
set(ENV{DEVICE_CHECK_SUITES} "device gpu-only")
run_script(2 ${pack}/device-check.sh run ${pack})
if(NOT out MATCHES "unknown suite 'gpu-only'")
  message(FATAL_ERROR "bad suite: unexpected output:\n${out}")
endif()
run_script(2 ${SCRIPT} unpack)
run_script(2 ${SCRIPT} run ${WORK_DIR}/no-such-pack)
message(STATUS "device-check: pack, two vendor discoveries, no vendor and bad usage as expected")
