// SPDX-License-Identifier: Apache-2.0
// Status names, hints and the messages of api_error, build_error and no_platform_error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/error.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

struct named_code {
  cl_int code;
  const char* name;
};

// The value comes from the Khronos header, the expected name from the macro's own spelling.
#define ANYCL_TEST_CODE(macro) \
  named_code { macro, #macro }

// Every OpenCL 3.0 core status code.
const named_code core_codes[] = {
    ANYCL_TEST_CODE(CL_SUCCESS),
    ANYCL_TEST_CODE(CL_DEVICE_NOT_FOUND),
    ANYCL_TEST_CODE(CL_DEVICE_NOT_AVAILABLE),
    ANYCL_TEST_CODE(CL_COMPILER_NOT_AVAILABLE),
    ANYCL_TEST_CODE(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    ANYCL_TEST_CODE(CL_OUT_OF_RESOURCES),
    ANYCL_TEST_CODE(CL_OUT_OF_HOST_MEMORY),
    ANYCL_TEST_CODE(CL_PROFILING_INFO_NOT_AVAILABLE),
    ANYCL_TEST_CODE(CL_MEM_COPY_OVERLAP),
    ANYCL_TEST_CODE(CL_IMAGE_FORMAT_MISMATCH),
    ANYCL_TEST_CODE(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    ANYCL_TEST_CODE(CL_BUILD_PROGRAM_FAILURE),
    ANYCL_TEST_CODE(CL_MAP_FAILURE),
    ANYCL_TEST_CODE(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    ANYCL_TEST_CODE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    ANYCL_TEST_CODE(CL_COMPILE_PROGRAM_FAILURE),
    ANYCL_TEST_CODE(CL_LINKER_NOT_AVAILABLE),
    ANYCL_TEST_CODE(CL_LINK_PROGRAM_FAILURE),
    ANYCL_TEST_CODE(CL_DEVICE_PARTITION_FAILED),
    ANYCL_TEST_CODE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
    ANYCL_TEST_CODE(CL_INVALID_VALUE),
    ANYCL_TEST_CODE(CL_INVALID_DEVICE_TYPE),
    ANYCL_TEST_CODE(CL_INVALID_PLATFORM),
    ANYCL_TEST_CODE(CL_INVALID_DEVICE),
    ANYCL_TEST_CODE(CL_INVALID_CONTEXT),
    ANYCL_TEST_CODE(CL_INVALID_QUEUE_PROPERTIES),
    ANYCL_TEST_CODE(CL_INVALID_COMMAND_QUEUE),
    ANYCL_TEST_CODE(CL_INVALID_HOST_PTR),
    ANYCL_TEST_CODE(CL_INVALID_MEM_OBJECT),
    ANYCL_TEST_CODE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    ANYCL_TEST_CODE(CL_INVALID_IMAGE_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_SAMPLER),
    ANYCL_TEST_CODE(CL_INVALID_BINARY),
    ANYCL_TEST_CODE(CL_INVALID_BUILD_OPTIONS),
    ANYCL_TEST_CODE(CL_INVALID_PROGRAM),
    ANYCL_TEST_CODE(CL_INVALID_PROGRAM_EXECUTABLE),
    ANYCL_TEST_CODE(CL_INVALID_KERNEL_NAME),
    ANYCL_TEST_CODE(CL_INVALID_KERNEL_DEFINITION),
    ANYCL_TEST_CODE(CL_INVALID_KERNEL),
    ANYCL_TEST_CODE(CL_INVALID_ARG_INDEX),
    ANYCL_TEST_CODE(CL_INVALID_ARG_VALUE),
    ANYCL_TEST_CODE(CL_INVALID_ARG_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_KERNEL_ARGS),
    ANYCL_TEST_CODE(CL_INVALID_WORK_DIMENSION),
    ANYCL_TEST_CODE(CL_INVALID_WORK_GROUP_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_WORK_ITEM_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_GLOBAL_OFFSET),
    ANYCL_TEST_CODE(CL_INVALID_EVENT_WAIT_LIST),
    ANYCL_TEST_CODE(CL_INVALID_EVENT),
    ANYCL_TEST_CODE(CL_INVALID_OPERATION),
    ANYCL_TEST_CODE(CL_INVALID_GL_OBJECT),
    ANYCL_TEST_CODE(CL_INVALID_BUFFER_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_MIP_LEVEL),
    ANYCL_TEST_CODE(CL_INVALID_GLOBAL_WORK_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_PROPERTY),
    ANYCL_TEST_CODE(CL_INVALID_IMAGE_DESCRIPTOR),
    ANYCL_TEST_CODE(CL_INVALID_COMPILER_OPTIONS),
    ANYCL_TEST_CODE(CL_INVALID_LINKER_OPTIONS),
    ANYCL_TEST_CODE(CL_INVALID_DEVICE_PARTITION_COUNT),
    ANYCL_TEST_CODE(CL_INVALID_PIPE_SIZE),
    ANYCL_TEST_CODE(CL_INVALID_DEVICE_QUEUE),
    ANYCL_TEST_CODE(CL_INVALID_SPEC_ID),
    ANYCL_TEST_CODE(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
};
#undef ANYCL_TEST_CODE

std::string str(std::string_view s) { return std::string(s); }

}  // namespace

static_assert(std::is_base_of_v<std::runtime_error, anycl::error>);
static_assert(std::is_base_of_v<anycl::error, anycl::api_error>);
static_assert(std::is_base_of_v<anycl::api_error, anycl::no_platform_error>);
static_assert(std::is_base_of_v<anycl::api_error, anycl::build_error>);
static_assert(std::is_base_of_v<anycl::error, anycl::device_not_found>);

TEST_CASE("status_name: every OpenCL 3.0 core code has its spec name", "[unit][error]") {
  REQUIRE(std::size(core_codes) == 1 + 19 + 43);  // 0, -1..-19, -30..-72
  for (const auto& c : core_codes) {
    INFO("code " << c.code);
    CHECK(str(anycl::status_name(c.code)) == c.name);
  }
}

TEST_CASE("status_name: sample codes read as in the OpenCL spec", "[unit][error]") {
  CHECK(anycl::status_name(0) == "CL_SUCCESS");
  CHECK(anycl::status_name(-1) == "CL_DEVICE_NOT_FOUND");
  CHECK(anycl::status_name(-5) == "CL_OUT_OF_RESOURCES");
  CHECK(anycl::status_name(-11) == "CL_BUILD_PROGRAM_FAILURE");
  CHECK(anycl::status_name(-14) == "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST");
  CHECK(anycl::status_name(-19) == "CL_KERNEL_ARG_INFO_NOT_AVAILABLE");
  CHECK(anycl::status_name(-30) == "CL_INVALID_VALUE");
  CHECK(anycl::status_name(-38) == "CL_INVALID_MEM_OBJECT");
  CHECK(anycl::status_name(-46) == "CL_INVALID_KERNEL_NAME");
  CHECK(anycl::status_name(-54) == "CL_INVALID_WORK_GROUP_SIZE");
  CHECK(anycl::status_name(-63) == "CL_INVALID_GLOBAL_WORK_SIZE");
  CHECK(anycl::status_name(-68) == "CL_INVALID_DEVICE_PARTITION_COUNT");
  CHECK(anycl::status_name(-72) == "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
  CHECK(anycl::status_name(-1000) == "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR");
  CHECK(anycl::status_name(-1001) == "CL_PLATFORM_NOT_FOUND_KHR");
  CHECK(anycl::status_name(-1142) == "CL_INVALID_SEMAPHORE_KHR");
}

TEST_CASE("status_name: every core code in -1..-19 and -30..-72 is named", "[unit][error]") {
  std::vector<cl_int> codes;
  for (cl_int c = -1; c >= -19; --c) codes.push_back(c);
  for (cl_int c = -30; c >= -72; --c) codes.push_back(c);
  for (cl_int c : codes) {
    INFO("code " << c);
    std::string name = str(anycl::status_name(c));
    CHECK_THAT(name, StartsWith("CL_"));
    CHECK(name != "unknown OpenCL status");
  }
}

TEST_CASE("status_name: codes that OpenCL does not define are unknown", "[unit][error]") {
  for (cl_int c : {12345, 1, -20, -29, -73, -999, -1143, -100000}) {
    INFO("code " << c);
    CHECK(anycl::status_name(c) == "unknown OpenCL status");
  }
}

TEST_CASE("status_name: names are unique across core and extension codes", "[unit][error]") {
  std::set<std::string> seen;
  int named = 0;
  for (cl_int c = 0; c >= -1200; --c) {
    std::string name = str(anycl::status_name(c));
    if (name == "unknown OpenCL status") continue;
    ++named;
    INFO("code " << c << " name " << name);
    CHECK(seen.insert(name).second);
  }
  CHECK(named >= 63 + 2);  // all core codes plus at least the two checked KHR codes
}

TEST_CASE("status_hint: known causes have a hint, others none", "[unit][error]") {
  CHECK_THAT(str(anycl::status_hint(-1001)), Contains("pocl-opencl-icd"));
  CHECK_FALSE(anycl::status_hint(CL_INVALID_KERNEL_NAME).empty());
  CHECK(anycl::status_hint(CL_SUCCESS).empty());
  CHECK(anycl::status_hint(12345).empty());
}

TEST_CASE("api_error: message reads call, status name, code, detail and hint", "[unit][error]") {
  anycl::api_error e("clCreateKernel", CL_INVALID_KERNEL_NAME,
                     "no kernel 'saxpyy' in program 'saxpy.cl'; kernels there: saxpy, scale");
  const std::string hint = str(anycl::status_hint(CL_INVALID_KERNEL_NAME));
  REQUIRE_FALSE(hint.empty());
  CHECK(std::string(e.what()) ==
        "clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46): no kernel 'saxpyy' in program "
        "'saxpy.cl'; kernels there: saxpy, scale. Hint: " +
            hint);
  CHECK(e.call() == "clCreateKernel");
  CHECK(e.status() == -46);
  CHECK(e.detail() == "no kernel 'saxpyy' in program 'saxpy.cl'; kernels there: saxpy, scale");
}

TEST_CASE("api_error: no hint part when the status has no hint", "[unit][error]") {
  REQUIRE(anycl::status_hint(CL_IMAGE_FORMAT_MISMATCH).empty());
  anycl::api_error e("clEnqueueCopyImage", CL_IMAGE_FORMAT_MISMATCH, "src and dst differ");
  CHECK(std::string(e.what()) ==
        "clEnqueueCopyImage failed: CL_IMAGE_FORMAT_MISMATCH (-9): src and dst differ");
}

TEST_CASE("api_error: an unknown status still shows its number", "[unit][error]") {
  anycl::api_error e("clFoo", 12345, "detail");
  CHECK(std::string(e.what()) == "clFoo failed: unknown OpenCL status (12345): detail");
  CHECK(e.status() == 12345);
}

TEST_CASE("api_error: an empty detail adds no dangling separator", "[unit][error]") {
  anycl::api_error e("clEnqueueCopyImage", CL_IMAGE_FORMAT_MISMATCH, "");
  CHECK(std::string(e.what()) == "clEnqueueCopyImage failed: CL_IMAGE_FORMAT_MISMATCH (-9)");
  CHECK(e.detail().empty());
}

TEST_CASE("build_error: message carries source, options and every device's log", "[unit][error]") {
  std::vector<anycl::build_log> logs = {
      {"pthread-skylake", "blur.cl:17:5: error: use of undeclared identifier 'widht'"},
      {"gfx1030", "blur.cl:17:5: error: 'widht' undeclared"},
  };
  anycl::build_error e(CL_BUILD_PROGRAM_FAILURE, "blur.cl", "-DT=float -cl-std=CL1.2", logs);
  const std::string m = e.what();
  CHECK_THAT(m, StartsWith("clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)"));
  CHECK_THAT(m, Contains("'blur.cl'"));
  CHECK_THAT(m, Contains("-DT=float -cl-std=CL1.2"));
  const auto first_header = m.find("--- build log, device 'pthread-skylake' ---");
  const auto first_log = m.find("use of undeclared identifier 'widht'");
  const auto second_header = m.find("--- build log, device 'gfx1030' ---");
  const auto second_log = m.find("'widht' undeclared");
  REQUIRE(first_header != std::string::npos);
  REQUIRE(second_header != std::string::npos);
  REQUIRE(first_log != std::string::npos);
  REQUIRE(second_log != std::string::npos);
  CHECK(first_header < first_log);  // each header comes before its log, in the devices' order
  CHECK(first_log < second_header);
  CHECK(second_header < second_log);
  CHECK(e.call() == "clBuildProgram");
  CHECK(e.status() == CL_BUILD_PROGRAM_FAILURE);
  CHECK(e.source_name() == "blur.cl");
  CHECK(e.options() == "-DT=float -cl-std=CL1.2");
  REQUIRE(e.logs().size() == 2);
  CHECK(e.logs()[1].device == "gfx1030");
  CHECK(e.logs()[1].log == "blur.cl:17:5: error: 'widht' undeclared");
}

TEST_CASE("build_error: no options reads 'none', one device is named in the first line",
          "[unit][error]") {
  anycl::build_error e(CL_BUILD_PROGRAM_FAILURE, "k.cl", "", {{"cpu0", "k.cl:1:1: error: x"}});
  const std::string m = e.what();
  CHECK_THAT(m, Contains("(options: none)"));
  const std::string first_line = m.substr(0, m.find('\n'));
  CHECK_THAT(first_line, Contains("'k.cl'"));
  CHECK_THAT(first_line, Contains("'cpu0'"));
  CHECK_THAT(m, Contains("--- build log, device 'cpu0' ---\nk.cl:1:1: error: x"));
  CHECK(e.options().empty());
}

TEST_CASE("build_error: an empty log is shown as such", "[unit][error]") {
  anycl::build_error e(CL_BUILD_PROGRAM_FAILURE, "k.cl", "-DX", {{"cpu0", ""}, {"cpu1", "oops"}});
  const std::string m = e.what();
  CHECK_THAT(m, Contains("--- build log, device 'cpu0' ---\n(empty)"));
  CHECK_THAT(m, Contains("--- build log, device 'cpu1' ---\noops"));
}

TEST_CASE("build_error: invalid build options carry their hint", "[unit][error]") {
  anycl::build_error e(CL_INVALID_BUILD_OPTIONS, "k.cl", "-Dbad option", {{"cpu0", ""}});
  const std::string m = e.what();
  CHECK_THAT(m, StartsWith("clBuildProgram failed: CL_INVALID_BUILD_OPTIONS (-43)"));
  CHECK_THAT(m, Contains("-Dbad option"));
  CHECK_THAT(m, Contains(str(anycl::status_hint(CL_INVALID_BUILD_OPTIONS))));
}

TEST_CASE("no_platform_error: says what to install and how to check", "[unit][error]") {
  anycl::no_platform_error e(CL_PLATFORM_NOT_FOUND_KHR);
  const std::string m = e.what();
  CHECK(e.status() == -1001);
  CHECK(e.call() == "clGetPlatformIDs");
  CHECK_THAT(m, Contains("CL_PLATFORM_NOT_FOUND_KHR (-1001)"));
  CHECK_THAT(m, Contains("pocl-opencl-icd"));
  CHECK_THAT(m, Contains("check with 'anycl-info'"));
  CHECK_THAT(m, Contains("OCL_ICD_VENDORS"));
}

TEST_CASE("no_platform_error: counts the .icd files where the loader looks", "[unit][error][env]") {
  // The unit suite runs with OCL_ICD_VENDORS set to an empty folder (see tests/CMakeLists.txt).
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  REQUIRE(vendors != nullptr);
  const std::string dir = vendors;
  std::ofstream(dir + "/a.icd") << "liba.so\n";
  std::ofstream(dir + "/b.icd") << "libb.so\n";
  const std::string m = anycl::no_platform_error(CL_PLATFORM_NOT_FOUND_KHR).what();
  std::remove((dir + "/a.icd").c_str());
  std::remove((dir + "/b.icd").c_str());
  CHECK_THAT(m, Contains("OCL_ICD_VENDORS=" + dir + ", " + dir + " (2 .icd files)"));
}

TEST_CASE("throw_api_error: -1001 throws no_platform_error", "[unit][error]") {
  SECTION("caught as no_platform_error") {
    CHECK_THROWS_AS(anycl::detail::throw_api_error("clGetPlatformIDs", -1001, "x"),
                    anycl::no_platform_error);
  }
  SECTION("caught as api_error") {
    try {
      anycl::detail::throw_api_error("clGetPlatformIDs", -1001, "x");
      FAIL("throw_api_error returned");
    } catch (const anycl::api_error& e) {
      CHECK(e.status() == -1001);
      CHECK(dynamic_cast<const anycl::no_platform_error*>(&e) != nullptr);
      CHECK_THAT(std::string(e.what()), Contains("pocl-opencl-icd"));
    }
  }
  SECTION("caught as anycl::error") {
    CHECK_THROWS_AS(anycl::detail::throw_api_error("clGetPlatformIDs", -1001, "x"), anycl::error);
  }
}

TEST_CASE("throw_api_error: other codes throw a plain api_error", "[unit][error]") {
  try {
    anycl::detail::throw_api_error("clCreateBuffer", CL_INVALID_BUFFER_SIZE, "0 bytes");
    FAIL("throw_api_error returned");
  } catch (const anycl::api_error& e) {
    CHECK(dynamic_cast<const anycl::no_platform_error*>(&e) == nullptr);
    CHECK(e.call() == "clCreateBuffer");
    CHECK(e.status() == CL_INVALID_BUFFER_SIZE);
    CHECK(e.detail() == "0 bytes");
    CHECK_THAT(std::string(e.what()),
               StartsWith("clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61): 0 bytes"));
  }
}
