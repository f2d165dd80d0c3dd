# SPDX-License-Identifier: Apache-2.0
# anycl-info: the listing with specs, its JSON checked against the schema and against clinfo,
# --device, two platforms (POCL and Oclgrind), no platform, .icd files that fool or crash the
# loader (reported from child processes, never crashing the tool), and bad usage.
# Included from tests/CMakeLists.txt inside if(ANYCL_BUILD_TOOLS); uses its anycl_tool_test.
if(NOT TARGET anycl-info)
  return()
endif()
set(info_tool $<TARGET_FILE:anycl-info>)
set(info_dir ${CMAKE_CURRENT_LIST_DIR}/info)
set(info_out ${CMAKE_BINARY_DIR}/tool-info-out)
set(pocl_icd /etc/OpenCL/vendors/pocl.icd)  # installed by pocl-opencl-icd
find_program(ANYCL_CLINFO clinfo)
# Oclgrind installs no .icd file; the tests name its ICD library themselves.
find_file(ANYCL_OCLGRIND_ICD liboclgrind-rt-icd.so
          PATHS /usr/lib/oclgrind /usr/lib/x86_64-linux-gnu/oclgrind /usr/local/lib/oclgrind
          NO_DEFAULT_PATH)

# A fake driver that crashes when loaded; built with anycl-info so that the tool's tests find it.
add_library(anycl-info-test-crashing-driver MODULE ${info_dir}/crashing_driver.cpp)
anycl_set_warnings(anycl-info-test-crashing-driver)
add_dependencies(anycl-info anycl-info-test-crashing-driver)

# anycl_info_test(name rc match [ARGS ...] [VENDORS NAME=SOURCE ...] [EMPTY_VENDORS]
#                 [VENDORS_ENV suffix] [JSON] [CLINFO] [EXPECT VAR=VALUE ...] [ENV ...])
# Runs anycl-info ARGS through info/run.cmake. VENDORS (or EMPTY_VENDORS) makes a vendor folder
# for this test at test time (so a driver update is followed) and points OCL_ICD_VENDORS at it, or
# at VENDORS_ENV under it; a SOURCE is a file to copy, "text:LINE" or "empty". JSON checks the
# output with info/json_checks.cmake and the EXPECT_* variables; CLINFO compares it with clinfo.
function(anycl_info_test name rc match)
  cmake_parse_arguments(T "EMPTY_VENDORS;JSON;CLINFO" "VENDORS_ENV" "ARGS;VENDORS;EXPECT;ENV"
                        ${ARGN})
  list(JOIN T_ARGS "|" args)
  list(JOIN T_VENDORS "|" vendors)
  set(defs "")
  foreach(e IN LISTS T_EXPECT)
    list(APPEND defs "-D${e}")
  endforeach()
  if(T_VENDORS OR T_EMPTY_VENDORS)
    list(APPEND defs -DMAKE_VENDORS=1 "-DVENDORS=${vendors}" "-DVENDORS_ENV=${T_VENDORS_ENV}")
  endif()
  if(T_JSON)
    list(APPEND defs -DJSON=1)
  endif()
  if(T_CLINFO)
    if(NOT ANYCL_CLINFO)
      add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo
               "clinfo is not installed (tools/install-deps.sh installs it): skipped")
      set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "skipped")
      return()
    endif()
    list(APPEND defs -DCLINFO=${ANYCL_CLINFO})
  endif()
  anycl_tool_test(${name} 0 "anycl-info test passed"
    CMD ${CMAKE_COMMAND} -DTOOL=${info_tool} "-DARGS=${args}" -DRC=${rc} "-DMATCH=${match}"
        -DOUT_DIR=${info_out}/${name} ${defs} -P ${info_dir}/run.cmake
    ENV ${T_ENV})
endfunction()

# The same, for tests that need Oclgrind: skipped (not failed) where it is not installed.
function(anycl_info_oclgrind_test name rc match)
  if(ANYCL_OCLGRIND_ICD)
    anycl_info_test(${name} ${rc} "${match}" ${ARGN})
  else()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo
             "oclgrind is not installed (tools/install-deps.sh installs it): skipped")
    set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "skipped")
  endif()
endfunction()

# --- the listing: POCL alone, its device with the spec that selects it ---
anycl_info_test(tool-info 0
  "drivers from +folder [^\n]+/vendors \\(1 \\.icd file\\)\n +[^\n]+/pocl\\.icd -> libpocl[^:]*: loads, 1 platform\n.*Devices, with the spec that selects each[^\n]*\n  platform 0: Portable Computing Language [^\n]+\n    0:0   \\(or 0\\)  cpu  [^\n]+\nDefault device: 0:0 .*Device 0:0 \\(or 0\\): .*compute units +[1-9][0-9]*\n.*global memory +[0-9.]+ [KMGT]iB\n.*max work-group size +[1-9][0-9]*.*sub-devices +[^\n]+\n +extensions +[0-9]+ \\(--verbose lists them\\)"
  VENDORS pocl.icd=${pocl_icd})
anycl_info_test(tool-info-verbose 0 "\n +extensions +cl_khr_[a-z0-9_]+ " ARGS --verbose
  VENDORS pocl.icd=${pocl_icd})
# The system's own vendor folder, whatever it holds.
anycl_info_test(tool-info-system 0
  "drivers from +folder /etc/OpenCL/vendors \\([0-9]+ \\.icd files?\\)\n.*\n  platform 0: [^\n]+\n    0:0 ")

# --- JSON: the documented schema, and the same platforms and devices as clinfo ---
anycl_info_test(tool-info-json 0 "" ARGS --json VENDORS pocl.icd=${pocl_icd} JSON CLINFO
  EXPECT EXPECT_PLATFORMS=1 "EXPECT_PLATFORM_NAMES=Portable Computing Language"
         EXPECT_LISTING=direct EXPECT_ICD_STATUS=pocl.icd=ok)
anycl_info_test(tool-info-json-system 0 "" ARGS --json JSON CLINFO)

# --- two platforms: POCL and Oclgrind (ocl-icd puts the GPU-claiming Oclgrind first) ---
set(two_platforms VENDORS pocl.icd=${pocl_icd} oclgrind.icd=text:${ANYCL_OCLGRIND_ICD})
anycl_info_oclgrind_test(tool-info-two-platforms 0
  "\\(2 \\.icd files\\)\n.*  platform 0: [^\n]+\n    0:0   \\(or 0\\)  [^\n]+\n  platform 1: [^\n]+\n    1:0   \\(or 1\\)  .*Platform 0: .*Platform 1: "
  ${two_platforms})
anycl_info_oclgrind_test(tool-info-two-platforms-json 0 "" ARGS --json ${two_platforms} JSON CLINFO
  EXPECT EXPECT_PLATFORMS=2 "EXPECT_PLATFORM_NAMES=Oclgrind|Portable Computing Language"
         "EXPECT_ICD_STATUS=oclgrind.icd=ok|pocl.icd=ok")
anycl_info_oclgrind_test(tool-info-two-platforms-device 0
  "'oclgrind:0': platform name or vendor contains 'oclgrind', device index 0 on the platform: matches ([01]):0  <- selects\nSelected: [01]:0\n\nPlatform [01]: Oclgrind\n  Device [01]:0 \\(or [01]\\): Oclgrind Simulator"
  ARGS --device oclgrind:0 ${two_platforms})
# The specs the listing prints select exactly their device: "platform:device" and the global index.
anycl_info_oclgrind_test(tool-info-two-platforms-spec 0 "" ARGS --device 1:0 --json ${two_platforms}
  JSON EXPECT EXPECT_SELECTED=1:0)
anycl_info_oclgrind_test(tool-info-two-platforms-global-index 0 "" ARGS --device 1 --json
  ${two_platforms} JSON EXPECT EXPECT_SELECTED=1:0)
# OCL_ICD_VENDORS may name one .icd file, or a driver library itself (ocl-icd, libOpenCL(7)).
anycl_info_oclgrind_test(tool-info-one-icd-file 0
  "drivers from +one \\.icd file, [^\n]+/oclgrind\\.icd\n.*  platform 0: Oclgrind [^\n]+\n    0:0 [^\n]+\n(Default|  platform 1)"
  ${two_platforms} VENDORS_ENV /oclgrind.icd)
anycl_info_oclgrind_test(tool-info-library-path 0
  "drivers from +one driver library named by OCL_ICD_VENDORS, [^\n]+liboclgrind-rt-icd\\.so\n.*  platform 0: Oclgrind "
  ENV OCL_ICD_VENDORS=${ANYCL_OCLGRIND_ICD})

# --- --device: what a spec selects and why ---
anycl_info_test(tool-info-device 0
  "1\\. 'gpu': platform any, device type gpu: matches nothing\n  2\\. 'cpu': platform any, device type cpu: matches 0:0  <- selects\nSelected: 0:0\n\nPlatform 0: Portable Computing Language\n  Device 0:0 \\(or 0\\): "
  ARGS --device gpu,cpu VENDORS pocl.icd=${pocl_icd})
anycl_info_test(tool-info-device-json 0 "" ARGS --device 0:0 --json VENDORS pocl.icd=${pocl_icd}
  JSON EXPECT EXPECT_SELECTED=0:0)
anycl_info_test(tool-info-device-not-found 1
  "no OpenCL device matches spec 'no-such-device'\\. Available devices, with the spec that selects each:\n  platform 0: [^\n]+\n    0:0   \\(or 0\\)  cpu  "
  ARGS --device no-such-device VENDORS pocl.icd=${pocl_icd})
anycl_info_test(tool-info-device-malformed 2 "malformed device spec 'a:b:c'.*usage: anycl-info"
  ARGS --device a:b:c VENDORS pocl.icd=${pocl_icd})
# Bad usage is found before the loader is asked, so it wins over a missing platform.
anycl_info_test(tool-info-device-malformed-no-platform 2 "malformed device spec ',cpu'"
  ARGS --device ,cpu EMPTY_VENDORS)

# ANYCL_DEVICE: the device select_device() takes, or why it takes none.
anycl_info_test(tool-info-anycl-device 0 "\nDefault device: 0:0 \\(ANYCL_DEVICE='0:0'\\)\n"
  VENDORS pocl.icd=${pocl_icd} ENV ANYCL_DEVICE=0:0)
anycl_info_test(tool-info-anycl-device-bad 0
  "\nDefault device: none \\(ANYCL_DEVICE='no-such-device'\\)\n  no OpenCL device matches ANYCL_DEVICE 'no-such-device'\\.\n.*anycl-info: ANYCL_DEVICE does not work: no OpenCL device matches ANYCL_DEVICE 'no-such-device'\\.\n"
  VENDORS pocl.icd=${pocl_icd} ENV ANYCL_DEVICE=no-such-device)

# A platform without devices (POCL hides them when it cannot make its cache folder): exit 1, and
# the hint on why.
anycl_info_test(tool-info-no-device 1
  "  platform 0: Portable Computing Language [^\n]+\n    \\(no devices\\)\nDefault device: none .*POCL lists no device: .*anycl-info: select_device\\(\\) finds no device"
  VENDORS pocl.icd=${pocl_icd} ENV POCL_CACHE_DIR=/proc/anycl-no-cache-here)

# --- no platform: advice, exit 1 ---
anycl_info_test(tool-info-no-platform 1
  "drivers from +folder [^\n]+ \\(0 \\.icd files\\)\nanycl-info: no OpenCL platform found \\(clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR \\(-1001\\)\\)\\.\n  Install a driver: 'apt-get install pocl-opencl-icd' for the CPU[^\n]*\n  Check: 'ls /etc/OpenCL/vendors'[^\n]*\n  OCL_ICD_VENDORS is set to '[^']+', so /etc/OpenCL/vendors is not read[^\n]*\n  The folder [^\n]+ holds no \\.icd file"
  EMPTY_VENDORS)
anycl_info_test(tool-info-no-platform-json 1 "no OpenCL platform found" ARGS --json EMPTY_VENDORS
  JSON EXPECT EXPECT_PLATFORMS=0 EXPECT_LISTING=direct EXPECT_ADVICE=1)
anycl_info_test(tool-info-missing-library 1
  "bad\\.icd -> /nonexistent/libanycl-no-such-driver\\.so: does not load: [^\n]*cannot open shared object file.*no OpenCL platform found.*bad\\.icd names '/nonexistent/libanycl-no-such-driver\\.so', which does not load"
  VENDORS bad.icd=text:/nonexistent/libanycl-no-such-driver.so)

# --- .icd files the loader skips: reported, harmless ---
anycl_info_test(tool-info-odd-icd-files 0 "" ARGS --json JSON
  VENDORS pocl.icd=${pocl_icd} empty.icd=empty blank.icd=text: libm.icd=text:libm.so.6
          missing.icd=text:/nonexistent/libanycl-no-such-driver.so
  EXPECT EXPECT_PLATFORMS=1 EXPECT_LISTING=direct
         "EXPECT_ICD_STATUS=pocl.icd=ok|empty.icd=ignored|blank.icd=ignored|libm.icd=not_a_driver|missing.icd=library_missing")

# --- .icd files that crash the loader: found, tried in a child, left out; exit 1 ---
# A file starting with a NUL byte makes ocl-icd's clGetPlatformIDs crash (SIGSEGV); the child's
# crash is reported (an ASan build exits 1 from its SEGV handler instead) and POCL still listed.
set(nul_icd VENDORS pocl.icd=${pocl_icd} bad.icd=${info_dir}/nul_first_byte.icd.in)
anycl_info_test(tool-info-nul-icd 1
  "[^\n]+/bad\\.icd: starts with a NUL byte[^\n]+\\[UNSAFE\\]\n.*  probe: clGetPlatformIDs, tried in a child process, (was killed by SIGSEGV \\(signal 11\\)|failed \\(exit code [0-9]+\\)[^\n]*)\n  The listing below leaves out the unsafe files.*  platform 0: Portable Computing Language .*anycl-info: [^\n]+/bad\\.icd starts with a NUL byte"
  ${nul_icd})
anycl_info_test(tool-info-nul-icd-json 1 "" ARGS --json ${nul_icd} JSON
  EXPECT EXPECT_PLATFORMS=1 EXPECT_LISTING=without_unsafe_files EXPECT_PROBE_UNSAFE=1
         "EXPECT_ICD_STATUS=bad.icd=crashes_loader|pocl.icd=ok")
# A driver library that crashes when loaded: found by its own check in a child.
anycl_info_test(tool-info-crashing-driver 1
  "[^\n]+/crash\\.icd -> [^\n]+: loading it and asking for its platforms: (killed by SIGSEGV \\(signal 11\\)|exit code [0-9]+ without a result)[^\n]*\\[UNSAFE\\]\n.*  platform 0: Portable Computing Language "
  VENDORS pocl.icd=${pocl_icd} crash.icd=text:$<TARGET_FILE:anycl-info-test-crashing-driver>)

# --- usage ---
anycl_tool_test(tool-info-help 0 "usage: anycl-info .*--json.*--verbose" CMD ${info_tool} --help)
anycl_tool_test(tool-info-version 0 "anycl-info \\(AnyCL\\) [0-9]+\\.[0-9]+\\.[0-9]+"
                CMD ${info_tool} --version)
anycl_tool_test(tool-info-bad-option 2 "unknown option '--bogus'.*usage: anycl-info"
                CMD ${info_tool} --bogus)
anycl_tool_test(tool-info-extra-argument 2 "unexpected argument 'extra'.*usage: anycl-info"
                CMD ${info_tool} extra)

# A driver that refuses to list its devices: the problem names the call and its status (the
# fault shim fails the first clGetDeviceIDs; sanitizer builds would need their runtime first).
if(TARGET anycl-faultshim AND NOT ANYCL_SANITIZE)
  anycl_tool_test(tool-info-device-list-fault 1
    "anycl-info: platform 0 \\([^\n]+\\) refuses to list its devices: clGetDeviceIDs failed: CL_OUT_OF_RESOURCES \\(-5\\): counting all devices"
    CMD ${info_tool}
    ENV "LD_PRELOAD=$<TARGET_FILE:anycl-faultshim>" FAULT_FN=clGetDeviceIDs FAULT_CODE=-5)
endif()
