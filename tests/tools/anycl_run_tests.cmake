# SPDX-License-Identifier: Apache-2.0
# anycl-run: outputs checked against host computations, --json and --out checked by a cmake -P
# driver, every kind of argument, and every bad input with its exit code (2: bad usage, 1: runtime
# failure or arguments that do not fit the kernel). Also the argument-spec parser's unit tests.
# Included from tests/CMakeLists.txt inside if(ANYCL_BUILD_TOOLS); uses its anycl_tool_test and
# anycl_test_executable.

# --- the argument-spec parser: no device ---
anycl_test_executable(anycl-run-arg-spec-tests ${CMAKE_CURRENT_LIST_DIR}/run/arg_spec_test.cpp
                      ${CMAKE_CURRENT_LIST_DIR}/../support/unit_setup.cpp)
target_link_libraries(anycl-run-arg-spec-tests PRIVATE anycl_run_args)
add_test(NAME run-arg-spec COMMAND anycl-run-arg-spec-tests)
set_tests_properties(run-arg-spec PROPERTIES
  ENVIRONMENT "OCL_ICD_VENDORS=${CMAKE_BINARY_DIR}/empty-icd-vendors")

set(run_tool $<TARGET_FILE:anycl-run>)
set(run_cl ${CMAKE_CURRENT_LIST_DIR}/run)
set(run_out ${CMAKE_BINARY_DIR}/tool-run-out)
set(saxpy ${run_cl}/saxpy.cl saxpy)
set(kinds ${run_cl}/kinds.cl)
# saxpy(uint n, float a, __global const float* x, __global float* y) with arguments that fit.
set(saxpy_args uint:8 float:2 in:float:8:range inout:float:8:range)

# A test run by run/steps.cmake in ${run_out}/<name>/ (made afresh): WRITE files there first, run
# CMD there, check rc and MATCH, then the JSON checks on stdout and the FILES written.
function(anycl_run_steps_test name rc match)
  cmake_parse_arguments(T "" "" "CMD;WRITE;JSON;FILES;ENV" ${ARGN})
  list(JOIN T_CMD "|" cmd)
  list(JOIN T_WRITE "|" write)
  list(JOIN T_JSON "|" json)
  list(JOIN T_FILES "|" files)
  anycl_tool_test(${name} 0 "exit ${rc} as expected, output matches"
    CMD ${CMAKE_COMMAND} -DOUT_DIR=${run_out}/${name} "-DWRITE=${write}" "-DSTEP_CMD=${cmd}"
        -DRC=${rc} "-DMATCH=${match}" "-DJSON=${json}" "-DFILES=${files}"
        -P ${run_cl}/steps.cmake
    ENV ${T_ENV})
endfunction()

# --- outputs equal host computations ---
# y = 2 * x + y with x = y = 0, 1, 2, ...: y[i] = 3i.
anycl_tool_test(tool-run-saxpy 0
  "^saxpy \\([^)]*saxpy\\.cl\\) on '[^']+', global 1024, local chosen by the driver\nkernel time: [0-9]+\\.[0-9][0-9][0-9] us\narg 3 'y' inout float\\[1024\\]: 0 3 6 9 12 15 18 21 24 27 30 33 36 39 42 45 \\.\\.\\. \\(1008 more\\)\n"
  CMD ${run_tool} ${saxpy} --global 1024 uint:1024 float:2 in:float:1024:range
      inout:float:1024:range)
# n = 4 of 8: y[i] = 2i + 1 below n, 1 (the fill) from there; --show all, a local size.
anycl_tool_test(tool-run-saxpy-scalar-n 0 "arg 3 'y' inout float\\[8\\]: 1 3 5 7 1 1 1 1\n"
  CMD ${run_tool} ${saxpy} --global 8 --local 4 --show all uint:4 float:2 in:float:8:range
      inout:float:8:fill=1)
anycl_tool_test(tool-run-show 0 "arg 3 'y' inout float\\[8\\]: 0 3 \\.\\.\\. \\(6 more\\)\n"
  CMD ${run_tool} ${saxpy} --global 8 --show 2 ${saxpy_args})
# The library's embedded copy of cl_kernels/anycl/demo.cl, found on the loader's search path.
anycl_tool_test(tool-run-embedded-kernel 0 "arg 3 'y' inout float\\[8\\]: 1 4 7 10 13 16 19 22\n"
  CMD ${run_tool} anycl/demo.cl anycl_saxpy --global 8 uint:8 float:3 in:float:8:range
      inout:float:8:fill=1)
# __local memory: per-group sums of 0..63 in groups of 16.
anycl_tool_test(tool-run-local-memory 0 "arg 1 'out' out int\\[4\\]: 120 376 632 888\n"
  CMD ${run_tool} ${kinds} group_sum --global 64 --local 16 in:int:64:range out:int:4
      local:int:16)
# Vector values: uint2 (3, 1) gives 3i + 1; float4 scales; float3 takes 16 bytes.
anycl_tool_test(tool-run-vector-uint2 0 "arg 1 'out' out uint\\[8\\]: 1 4 7 10 13 16 19 22\n"
  CMD ${run_tool} ${kinds} affine --global 8 uint2:3,1 out:uint:8)
anycl_tool_test(tool-run-vector-float4 0
  "arg 1 'out' out float4\\[4\\]: \\(0,0,0,0\\) \\(1,2,3,4\\) \\(2,4,6,8\\) \\(3,6,9,12\\)\n"
  CMD ${run_tool} ${kinds} scale4 --global 4 float4:1,2,3,4 out:float4:4)
anycl_tool_test(tool-run-vector-float3 0 "arg 1 'out' out float\\[4\\]: 6 7 8 9\n"
  CMD ${run_tool} ${kinds} sum3 --global 4 float3:1,2,3 out:float:4)
# __constant table c = 0, 1, 2, 3 times k = 3; a void* buffer takes any element type.
anycl_tool_test(tool-run-constant-buffer 0 "arg 2 'out' out int\\[8\\]: 0 3 6 9 0 3 6 9\n"
  CMD ${run_tool} ${kinds} from_constant --global 8 in:int:4:range int:3 out:int:8)
anycl_tool_test(tool-run-void-pointer 0 "arg 0 'p' inout float\\[4\\]: 0 0 0 0\n"
  CMD ${run_tool} ${kinds} clear_bytes --global 16 inout:float:4:fill=1.5 uint:16)
anycl_tool_test(tool-run-2d 0 "global 4x2, local 2x2\n.*arg 0 'out' out uint\\[8\\]: 0 2 4 6 8 10 12 14\n"
  CMD ${run_tool} ${kinds} index2d --global 4,2 --local 2,2 out:uint:8)
# random=SEED is SplitMix64 from SEED, integers uniform in 0..99: seed 5 gives 18 44 63 9 ...
# (computed independently in Python), plus one here. The sequence is part of the documented
# behaviour: a seed gives the same buffer on every platform.
anycl_tool_test(tool-run-random-input 0
  "arg 1 'out' out uchar\\[16\\]: 19 45 64 10 62 37 10 16 81 96 72 85 24 18 32 27\n"
  CMD ${run_tool} ${kinds} bytes_plus_one --global 16 in:uchar:16:random=5 out:uchar:16)
# -D in both forms, -I in both forms: out[i] = i * SCALE + OFFSET (7, from inc/offset.h).
anycl_tool_test(tool-run-defines 0 "arg 0 'out' out int\\[4\\]: 7 10 13 16\n"
  CMD ${run_tool} ${run_cl}/defines.cl scaled --global 4 -DSCALE=3 -I ${run_cl}/inc out:int:4)
anycl_tool_test(tool-run-defines-separate 0 "arg 0 'out' out int\\[4\\]: 7 12 17 22\n"
  CMD ${run_tool} ${run_cl}/defines.cl scaled --global 4 -D SCALE=5 -I${run_cl}/inc out:int:4)
# file=: raw bytes "0123456789abcdef" (48..57, 97..102), plus one.
anycl_run_steps_test(tool-run-file-input 0
  "arg 1 'out' out uchar\\[16\\]: 49 50 51 52 53 54 55 56 57 58 98 99 100 101 102 103\n"
  WRITE "input.bin=0123456789abcdef"
  CMD ${run_tool} ${kinds} bytes_plus_one --global 16 in:uchar:16:file=input.bin out:uchar:16)

# --- --json, parsed and checked ---
anycl_run_steps_test(tool-run-json 0 "\"kernel\": \"saxpy\""
  CMD ${run_tool} ${saxpy} --json --global 8 --local 4 --show 4 ${saxpy_args}
  JSON "kernel=saxpy" "file=${run_cl}/saxpy.cl" "device@=STRING" "global#=1" "global.0=8"
       "local.0=4" "time_ns@=NUMBER" "args#=4"
       "args.0.name=n" "args.0.declared=uint" "args.0.kind=scalar" "args.0.value=8"
       "args.1.name=a" "args.1.value=2"
       "args.2.name=x" "args.2.declared=__global float*" "args.2.kind=in" "args.2.count=8"
       "args.2.bytes=32" "args.2.init=range"
       "args.3.name=y" "args.3.kind=inout" "args.3.type=float" "args.3.shown=4"
       "args.3.values#=4" "args.3.values.0=0" "args.3.values.1=3" "args.3.values.3=9")
anycl_run_steps_test(tool-run-json-vector 0 "\"kernel\": \"scale4\""
  CMD ${run_tool} ${kinds} scale4 --json --global 2 float4:1,2,3,4 out:float4:2
  JSON "local@=NULL" "args.0.value#=4" "args.0.value.3=4" "args.1.values#=2"
       "args.1.values.1#=4" "args.1.values.1.2=3")

# --- --out DIR: one raw file per output, named by index and name ---
# y[2] = 6.0f = 0x40c00000, little-endian at byte 8; out[0] = 7 from defines.cl.
anycl_run_steps_test(tool-run-out-dir 0
  "arg 3 'y' inout float\\[8\\]: wrote results/arg3_y\\.bin \\(32 bytes\\)\n"
  CMD ${run_tool} ${saxpy} --global 8 --out results ${saxpy_args}
  FILES "results/arg3_y.bin:32:8:0000c040" "results/arg3_y.bin:32:0:00000000")
anycl_run_steps_test(tool-run-out-dir-json 0 "\"path\": \"out/arg0_out\\.bin\""
  CMD ${run_tool} ${run_cl}/defines.cl scaled --global 4 -DSCALE=3 -I ${run_cl}/inc --json
      --out out out:int:4
  JSON "args.0.path=out/arg0_out.bin" "args.0.values.3=16"
  FILES "out/arg0_out.bin:16:0:07000000" "out/arg0_out.bin:16:12:10000000")

# --- help and version ---
anycl_tool_test(tool-run-help 0
  "usage: anycl-run FILE\\.cl KERNEL --global .*in:TYPE:COUNT\\[:INIT\\].*random=SEED.*Exit status: 0 on success; 2 on bad usage.*1 on a runtime failure"
  CMD ${run_tool} --help)
anycl_tool_test(tool-run-version 0 "anycl-run \\(AnyCL\\) [0-9]+\\.[0-9]+" CMD ${run_tool} --version)

# --- bad usage (exit 2): the message, then the usage text ---
anycl_tool_test(tool-run-unknown-flag 2 "unknown option '--bogus'.*usage: anycl-run"
  CMD ${run_tool} ${saxpy} --global 8 --bogus ${saxpy_args})
anycl_tool_test(tool-run-unknown-short-option 2 "unknown option '-x'.*usage: anycl-run"
  CMD ${run_tool} ${saxpy} --global 8 -x ${saxpy_args})
anycl_tool_test(tool-run-no-args 2 "no FILE\\.cl given.*usage: anycl-run" CMD ${run_tool})
anycl_tool_test(tool-run-no-kernel 2 "no KERNEL given after [^\n]*saxpy\\.cl.*usage:"
  CMD ${run_tool} ${run_cl}/saxpy.cl --global 8)
# Empty words (the command lines the fuzz target found): through sh, as CMake drops empty list items.
anycl_tool_test(tool-run-empty-file 2 "FILE is empty: give the path of a \\.cl file.*usage:"
  CMD sh -c "exec \"$0\" '' saxpy --global 8" ${run_tool})
anycl_tool_test(tool-run-empty-kernel 2 "KERNEL is empty: give a kernel name of [^\n]*saxpy\\.cl.*usage:"
  CMD sh -c "exec \"$0\" \"$1\" '' --global 8" ${run_tool} ${run_cl}/saxpy.cl)
anycl_tool_test(tool-run-no-global 2 "--global is missing.*usage:" CMD ${run_tool} ${saxpy} ${saxpy_args})
anycl_tool_test(tool-run-bad-spec 2
  "argument 'flaot:2': unknown type 'flaot'; types: char, uchar.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 flaot:2 in:float:8 inout:float:8)
anycl_tool_test(tool-run-bad-number 2 "argument 'int:1\\.5': '1\\.5' is not a whole number.*usage:"
  CMD ${run_tool} ${kinds} from_constant --global 8 in:int:4 int:1.5 out:int:8)
anycl_tool_test(tool-run-value-out-of-range 2
  "argument 'uint:-8': '-8' is out of range for uint \\(0 to 4294967295\\).*usage:"
  CMD ${run_tool} ${saxpy} --global 8 uint:-8 float:2 in:float:8 inout:float:8)
anycl_tool_test(tool-run-bad-vector-arity 2 "argument 'uint2:3': uint2 needs 2 comma-separated values, got 1"
  CMD ${run_tool} ${kinds} affine --global 8 uint2:3 out:uint:8)
anycl_tool_test(tool-run-count-zero 2 "argument 'in:float:0': COUNT must be at least 1.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:0 inout:float:8)
anycl_tool_test(tool-run-missing-count 2 "argument 'out:float': COUNT is missing.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:8 out:float)
anycl_tool_test(tool-run-bad-init 2 "argument 'in:float:8:sequence': unknown INIT 'sequence'.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:8:sequence inout:float:8)
anycl_tool_test(tool-run-trailing-garbage 2 "argument 'float:2:3': unexpected ':3' after the value"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2:3 in:float:8 inout:float:8)
anycl_tool_test(tool-run-not-divisible 2
  "--global 100 is not divisible by --local 16 \\(dimension 0: 100 % 16 = 4\\).*usage:"
  CMD ${run_tool} ${saxpy} --global 100 --local 16 ${saxpy_args})
anycl_tool_test(tool-run-dims-mismatch 2 "--local 8 has 1 dimension\\(s\\), --global 64,64 has 2.*usage:"
  CMD ${run_tool} ${saxpy} --global 64,64 --local 8 ${saxpy_args})
anycl_tool_test(tool-run-four-dims 2 "--global takes 1 to 3 comma-separated sizes.*usage:"
  CMD ${run_tool} ${saxpy} --global 1,2,3,4 ${saxpy_args})
anycl_tool_test(tool-run-zero-global 2 "--global sizes must be at least 1.*usage:"
  CMD ${run_tool} ${saxpy} --global 0 ${saxpy_args})
anycl_tool_test(tool-run-bad-show 2 "--show needs a number of elements or 'all', got 'x'.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 --show x ${saxpy_args})
anycl_tool_test(tool-run-bad-define 2 "'1bad' is not a macro name.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 -D 1bad=2 ${saxpy_args})
anycl_tool_test(tool-run-bad-device-spec 2 "malformed device spec 'a:b:c'.*usage:"
  CMD ${run_tool} ${saxpy} --global 8 --device a:b:c ${saxpy_args})

# --- arguments that do not fit the kernel (exit 1), found before anything is enqueued ---
anycl_tool_test(tool-run-wrong-arg-count 1
  "anycl-run: kernel 'saxpy' takes 4 arguments, 3 given: saxpy\\(uint n, float a, __global float\\* x, __global float\\* y\\)"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:8)
anycl_tool_test(tool-run-float-for-int 1
  "argument 1 'k' of kernel 'from_constant' is declared 'int', given 'float:3' \\(float\\); pass int:VALUE"
  CMD ${run_tool} ${kinds} from_constant --global 8 in:int:4 float:3 out:int:8)
anycl_tool_test(tool-run-int-buffer-for-float 1
  "argument 2 'x' of kernel 'saxpy' is declared '__global float\\*', given 'in:int:8' \\(elements of int\\); pass in:float:COUNT"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:int:8 inout:float:8)
anycl_tool_test(tool-run-local-for-global 1
  "argument 2 'x' of kernel 'saxpy' is declared '__global float\\*', given 'local:float:8' \\(__local memory\\)"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 local:float:8 inout:float:8)
anycl_tool_test(tool-run-global-for-local 1
  "argument 2 'scratch' of kernel 'group_sum' is declared '__local int\\*', given 'in:int:16' \\(a __global buffer\\); pass local:int:COUNT"
  CMD ${run_tool} ${kinds} group_sum --global 64 --local 16 in:int:64 out:int:4 in:int:16)
anycl_tool_test(tool-run-out-for-scalar 1
  "argument 0 'n' of kernel 'saxpy' is declared 'uint', given 'out:uint:8' \\(a __global buffer\\); pass uint:VALUE"
  CMD ${run_tool} ${saxpy} --global 8 out:uint:8 float:2 in:float:8 inout:float:8)
anycl_tool_test(tool-run-scalar-for-buffer 1
  "argument 3 'y' of kernel 'saxpy' is declared '__global float\\*', given 'float:1' \\(a value, not memory\\)"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:8 float:1)
anycl_tool_test(tool-run-write-constant 1
  "argument 0 'c' of kernel 'from_constant' is declared '__constant int\\*', given 'out:int:4' \\(out: the kernel cannot write __constant memory\\)"
  CMD ${run_tool} ${kinds} from_constant --global 8 out:int:4 int:3 out:int:8)
anycl_tool_test(tool-run-vector-width-mismatch 1
  "argument 0 'ab' of kernel 'affine' is declared 'uint2', given 'uint4:1,2,3,4' \\(uint4\\)"
  CMD ${run_tool} ${kinds} affine --global 8 uint4:1,2,3,4 out:uint:8)
# Several mismatches: one line each.
anycl_tool_test(tool-run-several-mismatches 1
  "argument 0 'n' [^\n]*'int:8'[^\n]*\nargument 2 'x' [^\n]*'in:double:8'"
  CMD ${run_tool} ${saxpy} --global 8 int:8 float:2 in:double:8 inout:float:8)

# --- other runtime failures (exit 1) ---
anycl_tool_test(tool-run-missing-input-file 1
  "argument 'in:float:8:file=no_such_input\\.bin': file=no_such_input\\.bin: no such file"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:8:file=no_such_input.bin
      inout:float:8)
# saxpy.cl is not 8 bytes long.
anycl_tool_test(tool-run-input-file-wrong-size 1
  "file=[^ ]*saxpy\\.cl holds [0-9]+ bytes; 8 x uchar needs 8 \\(1 bytes each\\)"
  CMD ${run_tool} ${kinds} bytes_plus_one --global 8 in:uchar:8:file=${run_cl}/saxpy.cl
      out:uchar:8)
anycl_tool_test(tool-run-unknown-kernel 1
  "clCreateKernel failed: CL_INVALID_KERNEL_NAME \\(-46\\): no kernel 'saxpyy' in program '[^']*saxpy\\.cl'; kernels there: saxpy"
  CMD ${run_tool} ${run_cl}/saxpy.cl saxpyy --global 8 ${saxpy_args})
anycl_tool_test(tool-run-unknown-kernel-lists-all 1
  "no kernel 'nope' in program '[^']*kinds\\.cl'; kernels there: [^\n]*group_sum[^\n]*affine"
  CMD ${run_tool} ${kinds} nope --global 8)
anycl_tool_test(tool-run-build-error 1
  "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE \\(-11\\) for '[^']*broken\\.cl'.*broken\\.cl:5:[0-9]+:[^\n]*undeclared_thing"
  CMD ${run_tool} ${run_cl}/broken.cl broken --global 4 out:int:4 ENV "ANYCL_CACHE=off")
anycl_tool_test(tool-run-missing-define 1 "defines\\.cl:5:[0-9]+:[^\n]*SCALE is not defined"
  CMD ${run_tool} ${run_cl}/defines.cl scaled --global 4 -I ${run_cl}/inc out:int:4)
anycl_tool_test(tool-run-missing-source 1 "anycl-run: no such file 'no_such_kernel\\.cl'"
  CMD ${run_tool} no_such_kernel.cl k --global 4)
anycl_tool_test(tool-run-over-max-alloc 1
  "argument 2 'x' \\('in:float:1000000000000'\\): 4000000000000 bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE"
  CMD ${run_tool} ${saxpy} --global 8 uint:8 float:2 in:float:1000000000000 inout:float:8)
anycl_tool_test(tool-run-local-too-big 1 "kernel 'group_sum': needs 400000000 bytes of __local memory.*CL_DEVICE_LOCAL_MEM_SIZE"
  CMD ${run_tool} ${kinds} group_sum --global 64 --local 16 in:int:64 out:int:4
      local:int:100000000)
anycl_tool_test(tool-run-huge-global 1 "global size 1000000000000000 exceeds the limit of [0-9]+ work-items"
  CMD ${run_tool} ${saxpy} --global 1000000000000000 ${saxpy_args})
anycl_tool_test(tool-run-no-device 1 "no OpenCL device matches spec 'no-such-device'"
  CMD ${run_tool} ${saxpy} --global 8 --device no-such-device ${saxpy_args})
anycl_tool_test(tool-run-no-platform 1 "no OpenCL platform found.*pocl-opencl-icd"
  CMD ${run_tool} ${saxpy} --global 8 ${saxpy_args}
  ENV "OCL_ICD_VENDORS=${CMAKE_BINARY_DIR}/empty-icd-vendors")

# --- parameters declared through typedefs, macros and structs (tests/tools/run/typedefs.cl):
# checked as the types they stand for, each assumption said on stderr ---
set(typedefs ${run_cl}/typedefs.cl)
anycl_tool_test(tool-run-typedefs 0
  "arg 0 'a' inout float\\[4\\]: 0 2 4 3\nanycl-run: assumed: argument 0 'a': 'real_t\\*' is 'float\\*' \\(a typedef in the source\\)\nanycl-run: assumed: argument 1 'alpha': 'scalar_t' is 'float'[^\n]*\nanycl-run: assumed: argument 2 'n': 'count_t' is 'uint'"
  CMD ${run_tool} ${typedefs} scale --global 4 inout:float:4:range float:2 uint:3)
anycl_tool_test(tool-run-typedef-vector 0
  "arg 0 'v' inout float4\\[2\\]: \\(1,3,5,7\\) \\(5,7,9,11\\)\n.*'vec_t\\*' is 'float4\\*'"
  CMD ${run_tool} ${typedefs} widen --global 2 inout:float4:2:range)
anycl_tool_test(tool-run-macro-type 0 "arg 0 'out' out int\\[4\\]: 0 3 6 9\n"
  NO_MATCH "assumed"
  CMD ${run_tool} ${typedefs} index --global 4 out:int:4)
anycl_tool_test(tool-run-typedef-mismatch 1
  "argument 0 'a' of kernel 'scale' is declared '__global real_t\\*', given 'inout:int:4:range' \\(elements of int\\); pass in:float:COUNT"
  CMD ${run_tool} ${typedefs} scale --global 4 inout:int:4:range float:2 uint:3)
# A struct: its size from the compiler (a kernel appended to the source), then checked.
anycl_tool_test(tool-run-struct 0
  "arg 0 'p' inout float2\\[2\\]: \\(1,3\\) \\(3,5\\)\n.*'point_t' \\(sizeof 8\\) is not an OpenCL C type: its memory is passed as float2 elements\n.*the 8 bytes of 'float2:1,2' are passed as its value\n"
  CMD ${run_tool} ${typedefs} shift --global 2 inout:float2:2:range float2:1,2)
anycl_tool_test(tool-run-struct-value-size 1
  "argument 1 'by' of kernel 'shift' is declared 'point_t', given 'float:1' \\(4 bytes; 'point_t' takes 8\\)"
  CMD ${run_tool} ${typedefs} shift --global 2 inout:float2:2:range float:1)
anycl_tool_test(tool-run-struct-buffer-size 1
  "given 'inout:float:3:range' \\(12 bytes, not a whole number of 'point_t', 8 bytes each\\)"
  CMD ${run_tool} ${typedefs} shift --global 2 inout:float:3:range float2:1,2)
anycl_tool_test(tool-run-image-parameter 1
  "argument 0 'img' of kernel 'picture' is declared '__global image2d_t', given 'in:float:4' \\(a __global buffer\\); pass image2d:FORMAT:SIZES\\[:INIT\\]"
  CMD ${run_tool} ${typedefs} picture --global 1 in:float:4 out:float:1)

# --- SVM, images and samplers (tests/tools/run/images.cl) ---
set(images ${run_cl}/images.cl)
# y = 2 * x + y in SVM: both allocations print afterwards.
anycl_tool_test(tool-run-svm 0
  "arg 2 'x' svm float\\[4\\]: 0 1 2 3\narg 3 'y' svm float\\[4\\]: 1 3 5 7\n"
  CMD ${run_tool} ${saxpy} --global 4 uint:4 float:2 svm:float:4:range svm:float:4:fill=1)
# 255 - (0, 1, 2, ...): the read_only input is not printed, the write_only output is.
anycl_tool_test(tool-run-image-invert 0
  "kernel time: [^\n]*\narg 1 'out' image2d CL_R/CL_UNSIGNED_INT8 uchar 3x2: 255 254 253 252 251 250\n$"
  CMD ${run_tool} ${images} invert --global 3,2 image2d:r/unsigned_int8:3,2:range
      image2d:CL_R/CL_UNSIGNED_INT8:3,2)
# A linear sampler between pixels x and x + 1 of rows 0 1 2 and 3 4 5: the means, clamped at
# the edge.
anycl_tool_test(tool-run-sampler-linear 0 "arg 2 'out' out float\\[6\\]: 0\\.5 1\\.5 2 3\\.5 4\\.5 5\n"
  CMD ${run_tool} ${images} between --global 3,2 image2d:r/float:3,2:range
      sampler:clamp_to_edge:linear out:float:6)
# Nearest: the pixel to the right of each, the last one clamped.
anycl_tool_test(tool-run-sampler-nearest 0 "arg 2 'out' out float\\[6\\]: 1 2 2 4 5 5\n"
  CMD ${run_tool} ${images} between --global 3,2 image2d:r/float:3,2:range
      sampler:clamp_to_edge:nearest:unnormalized out:float:6)
anycl_tool_test(tool-run-image-array 0
  "arg 0 'out' image2d_array CL_R/CL_SIGNED_INT32 int 2x2x2: 0 1 10 11 100 101 110 111\n"
  CMD ${run_tool} ${images} layer_ids --global 2,2,2 image2d_array:r/signed_int32:2,2,2)
# Layers 0, 1, 2 of range: x, x + 4, x + 8 summed.
anycl_tool_test(tool-run-image1d-array 0 "arg 2 'out' out int\\[4\\]: 12 15 18 21\n"
  CMD ${run_tool} ${images} sum_layers --global 4 image1d_array:r/signed_int32:4,3:range int:3
      out:int:4)
# file=: the raw pixels "0123456789abcdef" of a 4x1 RGBA image (48..57, 97..102), inverted.
anycl_run_steps_test(tool-run-image-file 0
  "uchar4 4x1: \\(207,206,205,204\\) \\(203,202,201,200\\) \\(199,198,158,157\\) \\(156,155,154,153\\)\n"
  WRITE "pixels.bin=0123456789abcdef"
  CMD ${run_tool} ${images} invert --global 4,1 image2d:rgba/unsigned_int8:4,1:file=pixels.bin
      image2d:rgba/unsigned_int8:4,1)
# clamp (not clamp_to_edge): past the edge is the border colour, 0, so the last means are
# (2 + 0) / 2 and (5 + 0) / 2.
anycl_run_steps_test(tool-run-image-json 0 "\"kernel\": \"between\""
  CMD ${run_tool} ${images} between --json --global 3,2 image2d:r/float:3,2:range
      sampler:clamp:linear out:float:6
  JSON "args#=3" "args.0.kind=image" "args.0.image=image2d" "args.0.format=CL_R/CL_FLOAT"
       "args.0.sizes#=2" "args.0.sizes.0=3" "args.0.sizes.1=2" "args.0.type=float"
       "args.0.count=6" "args.0.bytes=24" "args.0.init=range" "args.0.declared=__global image2d_t"
       "args.1.kind=sampler" "args.1.sampler=clamp:linear:unnormalized" "args.1.declared=sampler_t"
       "args.2.values.0=0.5" "args.2.values.2=1" "args.2.values.5=2.5")
# --out: an image's pixels, packed row by row: 255 - 5 = 0xfa last.
anycl_run_steps_test(tool-run-image-out-dir 0 "wrote res/arg1_out\\.bin \\(6 bytes\\)"
  CMD ${run_tool} ${images} invert --global 3,2 --out res image2d:r/unsigned_int8:3,2:range
      image2d:r/unsigned_int8:3,2
  FILES "res/arg1_out.bin:6:0:ff" "res/arg1_out.bin:6:5:fa")
# Bad image and sampler specs are bad usage; specs that do not fit the kernel, or a format or
# size the device refuses, are runtime failures naming the argument or the limit.
anycl_tool_test(tool-run-image-bad-format 2
  "argument 'image2d:r/uint8:3,2': image_format: unknown channel type 'uint8'; types: SNORM_INT8.*usage:"
  CMD ${run_tool} ${images} invert --global 3,2 image2d:r/uint8:3,2 image2d:r/uint8:3,2)
anycl_tool_test(tool-run-image-bad-sizes 2 "argument 'image2d:r/float:3': an image2d takes 2 sizes \\(W,H\\), got '3'"
  CMD ${run_tool} ${images} invert --global 3 image2d:r/float:3 image2d:r/float:3)
anycl_tool_test(tool-run-sampler-repeat-unnormalized 2
  "argument 'sampler:repeat:linear': repeat needs normalized coordinates: add ':normalized'"
  CMD ${run_tool} ${images} between --global 3,2 image2d:r/float:3,2 sampler:repeat:linear
      out:float:6)
anycl_tool_test(tool-run-image-type-mismatch 1
  "argument 0 'in' of kernel 'invert' is declared '__global image2d_t', given 'image3d:r/float:2,2,2' \\(an image3d\\); pass image2d:FORMAT:SIZES\\[:INIT\\]"
  CMD ${run_tool} ${images} invert --global 2,2 image3d:r/float:2,2,2 image2d:r/float:2,2)
anycl_tool_test(tool-run-sampler-for-buffer 1
  "argument 2 'out' of kernel 'between' is declared '__global float\\*', given 'sampler:clamp:nearest' \\(a sampler\\); pass in:float:COUNT"
  CMD ${run_tool} ${images} between --global 3,2 image2d:r/float:3,2 sampler:clamp:nearest
      sampler:clamp:nearest)
anycl_tool_test(tool-run-image-format-unsupported 1
  "format CL_RG/CL_SIGNED_INT16 is not supported for a 2-D image array here; supported: "
  CMD ${run_tool} ${images} layer_ids --global 2,2,2 image2d_array:rg/signed_int16:2,2,2)
anycl_tool_test(tool-run-image-too-wide 1
  "image: width 100000000 exceeds '[^']*''s limit of [0-9]+ for a 2-D image \\(CL_DEVICE_IMAGE2D_MAX_WIDTH\\)"
  CMD ${run_tool} ${images} invert --global 1,1 image2d:r/unsigned_int8:100000000,1
      image2d:r/unsigned_int8:1,1)
anycl_tool_test(tool-run-image-file-wrong-size 1
  "file=[^ ]*saxpy\\.cl holds [0-9]+ bytes; 6 x uchar4 needs 24 \\(4 bytes each\\)"
  CMD ${run_tool} ${images} invert --global 3,2 image2d:rgba/unsigned_int8:3,2:file=${run_cl}/saxpy.cl
      image2d:rgba/unsigned_int8:3,2)
# Oclgrind (an OpenCL 1.2 device with images and no SVM): images run there, SVM is refused naming
# the device's capabilities.
if(ANYCL_OCLGRIND_ICD)  # found by anycl_info_tests.cmake
  set(grind_vendors ${CMAKE_BINARY_DIR}/tool-run-oclgrind-vendors)
  file(WRITE ${grind_vendors}/oclgrind.icd "${ANYCL_OCLGRIND_ICD}\n")
  anycl_tool_test(tool-run-image-oclgrind 0
    "invert [^\n]* on 'Oclgrind Simulator'.*arg 1 'out' image2d CL_R/CL_UNSIGNED_INT8 uchar 3x2: 255 254 253 252 251 250\n"
    CMD sh ${run_cl}/oclgrind_env.sh ${run_tool} ${images} invert --global 3,2 image2d:r/unsigned_int8:3,2:range
        image2d:r/unsigned_int8:3,2
    ENV "OCL_ICD_VENDORS=${grind_vendors}")
  anycl_tool_test(tool-run-svm-oclgrind 1 "CL_DEVICE_SVM_CAPABILITIES"
    CMD ${run_tool} ${saxpy} --global 4 uint:4 float:2 svm:float:4:range svm:float:4
    ENV "OCL_ICD_VENDORS=${grind_vendors}")
endif()
