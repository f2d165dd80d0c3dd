# SPDX-License-Identifier: Apache-2.0
# anycl-build: binaries written where the loader looks (and loaded back in binary-only mode), build
# logs with the original file and line, --check, runtime failures (exit 1) and bad usage (exit 2).
# Included from tests/CMakeLists.txt inside if(ANYCL_BUILD_TOOLS); uses its anycl_tool_test.
set(build_tool $<TARGET_FILE:anycl-build>)
set(cl ${CMAKE_CURRENT_LIST_DIR}/cl)
set(build_out ${CMAKE_BINARY_DIR}/tool-build-out)

# A test that may write files: anycl_build_steps.cmake makes ${build_out}/<name>/ afresh, copies
# COPY there, runs CMD in it, checks rc and MATCH, then that each of GLOBS matches one file and
# NO_GLOBS nothing. Fixtures are copied so that nothing is ever written
# into the source tree, even by a tool that wrongly succeeds.
function(anycl_build_files_test name rc match)
  cmake_parse_arguments(T "" "" "CMD;COPY;GLOBS;NO_GLOBS;ENV" ${ARGN})
  list(JOIN T_CMD "|" cmd)
  list(JOIN T_COPY "|" copy)
  list(JOIN T_GLOBS "|" globs)
  list(JOIN T_NO_GLOBS "|" no_globs)
  anycl_tool_test(${name} 0 "exit ${rc} as expected, output matches"
    CMD ${CMAKE_COMMAND} -DOUT_DIR=${build_out}/${name} "-DCOPY=${copy}" "-DSTEP_CMD=${cmd}"
        -DRC=${rc} "-DMATCH=${match}" "-DGLOBS=${globs}" "-DNO_GLOBS=${no_globs}"
        -P ${CMAKE_CURRENT_LIST_DIR}/anycl_build_steps.cmake
    ENV "ANYCL_CACHE=off" ${T_ENV})
endfunction()

# --- success: binaries under the loader's name, read back by a binary-only loader ---
anycl_build_files_test(tool-build-writes-binary 0
  "wrote [^\n]*/good\\.[a-z0-9-]+-[0-9a-f]+\\.bin for '[^']+' \\(checked: a binary-only kernel_loader loads it\\)"
  COPY ${cl}/good.cl CMD ${build_tool} ${build_out}/tool-build-writes-binary/good.cl
  GLOBS "good.*.bin")
# A relative FILE: the binary goes to FILE's folder, relative to the working directory.
anycl_build_files_test(tool-build-relative-file 0
  "^wrote check/good\\.[^ ]+\\.bin for '[^']+' \\(checked"
  COPY ${cl}/check CMD ${build_tool} check/good.cl GLOBS "check/good.*.bin")
anycl_build_files_test(tool-build-output-option 0 "wrote [^\n]*/custom\\.bin for '[^']+'\n"
  COPY ${cl}/good.cl
  CMD ${build_tool} ${build_out}/tool-build-output-option/good.cl
      -o ${build_out}/tool-build-output-option/custom.bin
  GLOBS "custom.bin" NO_GLOBS "good.*.bin")
# Two devices of one platform: identical devices share a device key, hence one file.
anycl_build_files_test(tool-build-two-devices 0
  "wrote [^\n]*/good\\.[^ ]+\\.bin for '[^']+', '[^']+' \\(checked: a binary-only kernel_loader loads it\\)"
  COPY ${cl}/good.cl CMD ${build_tool} --device all ${build_out}/tool-build-two-devices/good.cl
  GLOBS "good.*.bin" ENV "POCL_DEVICES=pthread pthread")
# A name on the search path, here the library's embedded copy: written under FILE's folder in
# the working directory, where a loader searching "." looks.
anycl_build_files_test(tool-build-embedded 0 "wrote anycl/demo\\.[^ ]+\\.bin for '[^']+' \\(checked"
  CMD ${build_tool} anycl/demo.cl GLOBS "anycl/demo.*.bin")
# -D in both forms, -I in the joined form, --options passed through.
anycl_build_files_test(tool-build-defines 0 "^wrote needs_defines\\.bin for '[^']+'"
  COPY ${cl}/needs_defines.cl
  CMD ${build_tool} needs_defines.cl -D ANYCL_T=float -DANYCL_FILL -I${cl}/inc
      --options -cl-fast-relaxed-math -o needs_defines.bin
  GLOBS "needs_defines.bin")
anycl_build_files_test(tool-build-verbose 0
  "build log of warns\\.cl on '[^']+':\n[^\n]*warns\\.cl:3:[0-9]+:[^\n]*anycl-build verbose test.*\nwrote warns\\.[^ ]+\\.bin for"
  COPY ${cl}/warns.cl CMD ${build_tool} --verbose warns.cl GLOBS "warns.*.bin")

# --- runtime failures (exit 1): logs and messages name the original file and line ---
anycl_build_files_test(tool-build-syntax-error 1
  "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE .*broken_build\\.cl:3:[0-9]+:"
  COPY ${cl}/broken_build.cl CMD ${build_tool} broken_build.cl NO_GLOBS "*.bin")
anycl_build_files_test(tool-build-error-in-header 1
  "for '[^']*includes_broken\\.cl'.*broken_header\\.h:4:[0-9]+:"
  COPY ${cl}/includes_broken.cl ${cl}/broken_header.h CMD ${build_tool} includes_broken.cl
  NO_GLOBS "*.bin")
anycl_build_files_test(tool-build-missing-define 1
  "needs_defines\\.cl:5:[0-9]+:[^\n]*ANYCL_T is not defined"
  COPY ${cl}/needs_defines.cl CMD ${build_tool} needs_defines.cl NO_GLOBS "*.bin")
anycl_build_files_test(tool-build-missing-include 1
  "anycl-build: [^\n]*missing_include\\.cl:3: #include \"no_such_header\\.h\": file not found"
  COPY ${cl}/missing_include.cl CMD ${build_tool} missing_include.cl NO_GLOBS "*.bin")
anycl_build_files_test(tool-build-missing-file 1 "anycl-build: no such file 'no_such_file\\.cl'"
  CMD ${build_tool} no_such_file.cl NO_GLOBS "*")
anycl_build_files_test(tool-build-unwritable-output 1
  "anycl-build: cannot write no/such/folder/x\\.bin"
  COPY ${cl}/good.cl CMD ${build_tool} good.cl -o no/such/folder/x.bin NO_GLOBS "*.bin")
anycl_tool_test(tool-build-no-device 1 "no OpenCL device matches spec 'no-such-device'"
  CMD ${build_tool} --device no-such-device ${cl}/good.cl)

# --- --check: every .cl file under a folder on every device, nothing written ---
anycl_build_files_test(tool-build-check-folder 1
  "FAILED: [^\n]*/bad\\.cl on '[^']+'\n[^\n]*bad\\.cl:3:[0-9]+:[^\n]*undeclared_thing[^\n]*\n.*ok: [^\n]*/good\\.cl on '[^']+'\nchecked 2 files on 1 device: 1 ok, 1 failed"
  CMD ${build_tool} --check ${cl}/check NO_GLOBS "*")
anycl_tool_test(tool-build-check-json 1
  "^\\[{\"file\": \"[^\"]*/bad\\.cl\", \"device\": \"[^\"]+\", \"ok\": false, \"log\": \"[^\"]*bad\\.cl:3:[^\n]*\n {\"file\": \"[^\"]*/good\\.cl\", \"device\": \"[^\"]+\", \"ok\": true, \"log\": \"\"}\\]\n"
  CMD ${build_tool} --check ${cl}/check --json ENV "ANYCL_CACHE=off")
anycl_tool_test(tool-build-check-two-devices 1
  "FAILED: [^\n]*/bad\\.cl on[^\n]*\n.*FAILED: [^\n]*/bad\\.cl on[^\n]*\n.*ok: [^\n]*/good\\.cl on [^\n]*\nok: [^\n]*/good\\.cl on [^\n]*\nchecked 2 files on 2 devices: 2 ok, 2 failed"
  CMD ${build_tool} --check ${cl}/check ENV "ANYCL_CACHE=off;POCL_DEVICES=pthread pthread")
# The CI check: every shipped kernel builds on every device.
anycl_tool_test(tool-build-check-cl-kernels 0
  "checked [0-9]+ files? on [0-9]+ devices?: [0-9]+ ok, 0 failed"
  CMD ${build_tool} --check ${PROJECT_SOURCE_DIR}/cl_kernels ENV "ANYCL_CACHE=off")
# Shipped kernels build with an empty log: no warning on any device, with the defaults and with
# the launch-shape and double-precision macros the array layer defines (on a CPU without AVX-512,
# random.cl's double8 code once logged clang's -Wpsabi warnings), and with the macros that turn on
# the vectorised CPU shapes of the float and double reductions (reduce.cl's 16 compensated or
# double lanes, argreduce.cl's 16-lane candidates), which logged the same warnings.
foreach(variant "" "cpu-fp64;-D;ANYCL_CPU;-D;ANYCL_FP64" "gpu-fp64;-D;ANYCL_GPU;-D;ANYCL_FP64"
        "cpu-float-sums;-D;ANYCL_CPU;-D;ANYCL_FP64;-D;ACC2=float2;-D;ANYCL_WIDE_SUM;-D;ANYCL_MASK16=int16"
        "cpu-double-sums;-D;ANYCL_CPU;-D;ANYCL_FP64;-D;T=double;-D;ACC=double;-D;ACC2=double2;-D;ANYCL_MASK16=long16")
  set(suffix "")
  set(defines "")
  if(variant)
    list(POP_FRONT variant suffix)
    set(suffix "-${suffix}")
    set(defines ${variant})
  endif()
  anycl_tool_test(tool-build-check-cl-kernels-no-warnings${suffix} 0
    "^\\[{\"file\": .*\"ok\": true, \"log\": \"\"}\\]\n"
    NO_MATCH "\"ok\": false|\"log\": \"[^\"]"
    CMD ${build_tool} --check ${PROJECT_SOURCE_DIR}/cl_kernels ${defines} --json ENV "ANYCL_CACHE=off")
endforeach()
anycl_tool_test(tool-build-check-missing-folder 1
  "anycl-build: --check [^\n]*no-such-folder: no such folder"
  CMD ${build_tool} --check ${cl}/no-such-folder)

# --- bad usage (exit 2): the message, then the usage text ---
anycl_tool_test(tool-build-help 0 "usage: anycl-build FILE\\.cl .*--check DIR.*-D NAME\\[=VAL\\]"
  CMD ${build_tool} --help)
anycl_tool_test(tool-build-version 0 "anycl-build \\(AnyCL\\) [0-9]+\\.[0-9]+"
  CMD ${build_tool} --version)
anycl_tool_test(tool-build-no-args 2 "no FILE to build.*usage: anycl-build" CMD ${build_tool})
# An empty word, through sh: CMake drops empty list items.
anycl_tool_test(tool-build-empty-file 2 "FILE is empty: give the path of a \\.cl file.*usage: anycl-build"
  CMD sh -c "exec \"$0\" ''" ${build_tool})
anycl_tool_test(tool-build-bad-option 2 "unknown option '--bogus'.*usage:"
  CMD ${build_tool} --bogus ${cl}/good.cl)
anycl_tool_test(tool-build-bad-short-option 2 "unknown option '-x'.*usage:"
  CMD ${build_tool} -x ${cl}/good.cl)
anycl_tool_test(tool-build-bad-define 2 "'1bad' is not a macro name.*usage:"
  CMD ${build_tool} ${cl}/good.cl -D 1bad=2)
anycl_tool_test(tool-build-define-without-name 2 "-D needs a value.*usage:"
  CMD ${build_tool} ${cl}/good.cl -D)
anycl_tool_test(tool-build-two-files 2 "one FILE at a time.*usage:"
  CMD ${build_tool} ${cl}/good.cl ${cl}/warns.cl)
anycl_tool_test(tool-build-bad-spec 2 "malformed device spec 'a:b:c'.*usage:"
  CMD ${build_tool} --device a:b:c ${cl}/good.cl)
anycl_build_files_test(tool-build-output-several-devices 2
  "-o names one output, but --device 'all' selects 2 devices.*usage:"
  COPY ${cl}/good.cl CMD ${build_tool} --device all good.cl -o x.bin NO_GLOBS "*.bin"
  ENV "POCL_DEVICES=pthread pthread")
anycl_tool_test(tool-build-output-aocx 2
  "\\.aocx files come from the vendor's offline compiler.*usage:"
  CMD ${build_tool} ${cl}/good.cl -o good.aocx)
anycl_tool_test(tool-build-output-with-check 2 "-o cannot go with --check.*usage:"
  CMD ${build_tool} --check ${cl}/check -o x.bin)
anycl_tool_test(tool-build-json-without-check 2 "--json goes with --check.*usage:"
  CMD ${build_tool} ${cl}/good.cl --json)
