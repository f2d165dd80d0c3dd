// SPDX-License-Identifier: Apache-2.0
// anycl-run's argument specs without a device: parsing good and bad specs, initial buffer
// contents, printing of values, --global/--local sizes, and the check against a kernel's
// declared parameters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arg_check.hpp"
#include "arg_spec.hpp"
#include "support/matchers.hpp"

using anycl::address_space;
using anycl::kernel_arg_info;
using anycl::test::what;
using anycl::tools::arg_kind;
using anycl::tools::arg_spec;
using anycl::tools::check_arguments;
using anycl::tools::element_type;
using anycl::tools::format_element;
using anycl::tools::init_kind;
using anycl::tools::initial_contents;
using anycl::tools::normalize_type_name;
using anycl::tools::parse_arg_spec;
using anycl::tools::parse_element_type;
using anycl::tools::parse_sizes;
using anycl::tools::scalar_type;
using Catch::Matchers::Contains;

namespace {

/// The bytes of `spec`'s value read as a T.
template <class T>
T value_as(const arg_spec& spec, std::size_t index = 0) {
  REQUIRE(spec.value.size() >= (index + 1) * sizeof(T));
  T v;
  std::memcpy(&v, spec.value.data() + index * sizeof(T), sizeof(T));
  return v;
}

/// A buffer's initial contents as Ts.
template <class T>
std::vector<T> contents_as(const arg_spec& spec) {
  const std::vector<unsigned char> bytes = initial_contents(spec);
  REQUIRE(bytes.size() == spec.bytes());
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

/// The message parse_arg_spec throws for `text` ("" when it parses).
std::string spec_error(const std::string& text) {
  try {
    (void)parse_arg_spec(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

kernel_arg_info param(const char* name, const char* type, address_space space) {
  return kernel_arg_info{name, type, space};
}

/// saxpy(uint n, float a, __global const float* x, __global float* y) as -cl-kernel-arg-info
/// gives it on POCL.
std::vector<kernel_arg_info> saxpy_params() {
  return {param("n", "uint", address_space::private_), param("a", "float", address_space::private_),
          param("x", "float*", address_space::global), param("y", "float*", address_space::global)};
}

std::vector<arg_spec> specs(std::initializer_list<const char*> texts) {
  std::vector<arg_spec> out;
  for (const char* t : texts) out.push_back(parse_arg_spec(t));
  return out;
}

}  // namespace

// --- types ---

TEST_CASE("arg_spec: type names, vector widths and sizes", "[unit][arg_spec]") {
  CHECK(parse_element_type("float").size() == 4);
  CHECK(parse_element_type("double").size() == 8);
  CHECK(parse_element_type("char").size() == 1);
  CHECK(parse_element_type("ulong").size() == 8);
  const element_type u2 = parse_element_type("uint2");
  CHECK(u2.scalar == scalar_type::u32);
  CHECK(u2.width == 2);
  CHECK(u2.size() == 8);
  CHECK(u2.name() == "uint2");
  const element_type f3 = parse_element_type("float3");
  CHECK(f3.width == 3);
  CHECK(f3.size() == 16);  // a 3-vector takes the room of a 4-vector
  CHECK(parse_element_type("short16").size() == 32);
  CHECK(parse_element_type("double8").size() == 64);

  CHECK_THROWS_MATCHES(parse_element_type("float5"), std::invalid_argument,
                       what(Contains("bad vector width 5") && Contains("2, 3, 4, 8 or 16")));
  CHECK_THROWS_MATCHES(parse_element_type("int1"), std::invalid_argument,
                       what(Contains("bad vector width 1")));
  CHECK_THROWS_MATCHES(parse_element_type("flaot"), std::invalid_argument,
                       what(Contains("unknown type 'flaot'") && Contains("uchar")));
  CHECK_THROWS_MATCHES(parse_element_type("half"), std::invalid_argument,
                       what(Contains("not supported")));
  CHECK_THROWS_AS(parse_element_type("size_t"), std::invalid_argument);
  CHECK_THROWS_AS(parse_element_type(""), std::invalid_argument);
}

// --- good specs ---

TEST_CASE("arg_spec: scalar values of every type", "[unit][arg_spec]") {
  arg_spec s = parse_arg_spec("float:2.5");
  CHECK(s.kind == arg_kind::scalar);
  CHECK(s.bytes() == 4);
  CHECK(value_as<float>(s) == 2.5f);
  CHECK(value_as<double>(parse_arg_spec("double:-0.125")) == -0.125);
  CHECK(value_as<std::int32_t>(parse_arg_spec("int:-3")) == -3);
  CHECK(value_as<std::int32_t>(parse_arg_spec("int:+3")) == 3);
  CHECK(value_as<std::uint32_t>(parse_arg_spec("uint:0xff")) == 255u);
  CHECK(value_as<std::uint32_t>(parse_arg_spec("uint:4294967295")) == 4294967295u);
  CHECK(value_as<std::int8_t>(parse_arg_spec("char:-128")) == -128);
  CHECK(value_as<std::uint8_t>(parse_arg_spec("uchar:255")) == 255);
  CHECK(value_as<std::int16_t>(parse_arg_spec("short:-32768")) == -32768);
  CHECK(value_as<std::uint16_t>(parse_arg_spec("ushort:65535")) == 65535);
  CHECK(value_as<std::int64_t>(parse_arg_spec("long:-9223372036854775808")) == INT64_MIN);
  CHECK(value_as<std::uint64_t>(parse_arg_spec("ulong:18446744073709551615")) == UINT64_MAX);
  CHECK(std::isinf(value_as<float>(parse_arg_spec("float:-inf"))));
  CHECK(std::isnan(value_as<float>(parse_arg_spec("float:nan"))));
  CHECK(value_as<float>(parse_arg_spec("float:0.1")) == 0.1f);  // rounded once, to float
}

TEST_CASE("arg_spec: vector values take one value per component", "[unit][arg_spec]") {
  const arg_spec u2 = parse_arg_spec("uint2:1,2");
  CHECK(u2.bytes() == 8);
  CHECK(value_as<std::uint32_t>(u2, 0) == 1);
  CHECK(value_as<std::uint32_t>(u2, 1) == 2);
  const arg_spec f4 = parse_arg_spec("float4:1,2,3,4.5");
  CHECK(value_as<float>(f4, 3) == 4.5f);
  const arg_spec f3 = parse_arg_spec("float3:1,2,3");
  CHECK(f3.bytes() == 16);
  CHECK(value_as<float>(f3, 2) == 3.0f);
  CHECK(value_as<float>(f3, 3) == 0.0f);  // padding
  CHECK(parse_arg_spec("char16:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15").bytes() == 16);
}

TEST_CASE("arg_spec: buffers and local memory", "[unit][arg_spec]") {
  const arg_spec in = parse_arg_spec("in:float:1024");
  CHECK(in.kind == arg_kind::in);
  CHECK(in.is_buffer());
  CHECK(in.count == 1024);
  CHECK(in.bytes() == 4096);
  CHECK(in.init.kind == init_kind::zero);
  CHECK(parse_arg_spec("out:int:16").kind == arg_kind::out);
  const arg_spec io = parse_arg_spec("inout:uint2:8:range");
  CHECK(io.kind == arg_kind::inout);
  CHECK(io.init.kind == init_kind::range);
  CHECK(io.bytes() == 64);
  const arg_spec local = parse_arg_spec("local:int:64");
  CHECK(local.kind == arg_kind::local);
  CHECK_FALSE(local.is_buffer());
  CHECK(local.bytes() == 256);
  CHECK(parse_arg_spec("in:float:4:fill=1.5").init.kind == init_kind::fill);
  CHECK(parse_arg_spec("in:float:4:zero").init.kind == init_kind::zero);
  const arg_spec rnd = parse_arg_spec("in:int:4:random=42");
  CHECK(rnd.init.kind == init_kind::random);
  CHECK(rnd.init.seed == 42);
  // A path is the rest of the spec, colons included.
  const arg_spec file = parse_arg_spec("in:uchar:3:file=C:/data/x:y.bin");
  CHECK(file.init.kind == init_kind::file);
  CHECK(file.init.path == "C:/data/x:y.bin");
}

// --- bad specs ---

TEST_CASE("arg_spec: bad specs name the spec and what is wrong", "[unit][arg_spec]") {
  // unknown type or kind
  CHECK_THAT(spec_error("flaot:1"), Contains("argument 'flaot:1'") && Contains("unknown type"));
  CHECK_THAT(spec_error("buffer:float:4"), Contains("unknown type 'buffer'"));
  CHECK_THAT(spec_error("in:flaot:4"), Contains("unknown type 'flaot'"));
  CHECK_THAT(spec_error("12"), Contains("expected TYPE:VALUE"));
  CHECK_THAT(spec_error(""), Contains("empty"));
  // bad numbers
  CHECK_THAT(spec_error("float:abc"), Contains("'abc' is not a number"));
  CHECK_THAT(spec_error("float:--1"), Contains("is not a number"));
  CHECK_THAT(spec_error("int:1.5"), Contains("'1.5' is not a whole number"));
  CHECK_THAT(spec_error("int:12x"), Contains("not a whole number"));
  CHECK_THAT(spec_error("int:0x"), Contains("not a whole number"));
  CHECK_THAT(spec_error("int: 1"), Contains("not a whole number"));
  CHECK_THAT(spec_error("uchar:256"), Contains("out of range for uchar (0 to 255)"));
  CHECK_THAT(spec_error("char:-129"), Contains("out of range for char (-128 to 127)"));
  CHECK_THAT(spec_error("int:2147483648"), Contains("out of range for int"));
  CHECK_THAT(spec_error("uint:-1"), Contains("out of range for uint"));
  CHECK_THAT(spec_error("ulong:18446744073709551616"), Contains("out of range for ulong"));
  CHECK_THAT(spec_error("long:-9223372036854775809"), Contains("out of range for long"));
  CHECK_THAT(spec_error("float:1e39"), Contains("out of range for float"));
  CHECK_THAT(spec_error("double:1e400"), Contains("out of range for double"));
  CHECK_THAT(spec_error("float"), Contains("VALUE is missing"));
  CHECK_THAT(spec_error("float:"), Contains("VALUE is missing"));
  // vector width and arity
  CHECK_THAT(spec_error("float5:1,2,3,4,5"), Contains("bad vector width 5"));
  CHECK_THAT(spec_error("uint2:1"), Contains("uint2 needs 2 comma-separated values, got 1"));
  CHECK_THAT(spec_error("float4:1,2,3,4,5"), Contains("needs 4 comma-separated values, got 5"));
  CHECK_THAT(spec_error("float3:1,2,3,4"), Contains("needs 3 comma-separated values"));
  CHECK_THAT(spec_error("int:1,2"), Contains("int needs 1 value, got 2"));
  CHECK_THAT(spec_error("uint2:1,"), Contains("a value is missing"));
  // missing, negative, zero and huge counts
  CHECK_THAT(spec_error("in"), Contains("TYPE is missing"));
  CHECK_THAT(spec_error("in::4"), Contains("TYPE is missing"));
  CHECK_THAT(spec_error("in:float"), Contains("COUNT is missing"));
  CHECK_THAT(spec_error("in:float:"), Contains("COUNT is missing"));
  CHECK_THAT(spec_error("out:float:-4"), Contains("positive whole number of elements, got '-4'"));
  CHECK_THAT(spec_error("in:float:1.5"), Contains("positive whole number"));
  CHECK_THAT(spec_error("local:int:0"), Contains("COUNT must be at least 1"));
  CHECK_THAT(spec_error("in:float:99999999999999999999999"), Contains("too large"));
  CHECK_THAT(spec_error("in:double16:2305843009213693952"), Contains("overflow"));
  // bad INIT
  CHECK_THAT(spec_error("in:float:4:sequence"), Contains("unknown INIT 'sequence'"));
  CHECK_THAT(spec_error("in:float:4:random"), Contains("random needs a seed"));
  CHECK_THAT(spec_error("in:float:4:random=x"), Contains("random=SEED needs a whole number"));
  CHECK_THAT(spec_error("in:float:4:fill"), Contains("fill needs a value"));
  CHECK_THAT(spec_error("in:float:4:fill=x"), Contains("'x' is not a number"));
  CHECK_THAT(spec_error("in:int:4:fill=1.5"), Contains("not a whole number"));
  CHECK_THAT(spec_error("in:float4:4:fill=1,2"), Contains("1 value or 4 comma-separated values"));
  CHECK_THAT(spec_error("in:float:4:file="), Contains("file= needs a PATH"));
  CHECK_THAT(spec_error("in:float:4:range=3"), Contains("takes no value"));
  // trailing garbage
  CHECK_THAT(spec_error("float:1:2"), Contains("unexpected ':2' after the value"));
  CHECK_THAT(spec_error("in:float:4:range:x"), Contains("unexpected ':x' after INIT 'range'"));
  CHECK_THAT(spec_error("out:float:4:range"), Contains("out: buffers start as zeros"));
  CHECK_THAT(spec_error("local:int:4:fill=1"), Contains("local memory takes no INIT"));
}

// --- initial contents ---

TEST_CASE("arg_spec: INIT gives zeros, fills, ranges and seeded random values",
          "[unit][arg_spec]") {
  CHECK(contents_as<float>(parse_arg_spec("in:float:3")) == std::vector<float>{0, 0, 0});
  CHECK(contents_as<float>(parse_arg_spec("in:float:3:fill=1.5")) ==
        std::vector<float>{1.5f, 1.5f, 1.5f});
  CHECK(contents_as<int>(parse_arg_spec("inout:int2:2:fill=7")) == std::vector<int>{7, 7, 7, 7});
  CHECK(contents_as<int>(parse_arg_spec("inout:int2:2:fill=1,2")) == std::vector<int>{1, 2, 1, 2});
  CHECK(contents_as<int>(parse_arg_spec("in:int:5:range")) == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(contents_as<float>(parse_arg_spec("in:float2:2:range")) == std::vector<float>{0, 1, 2, 3});
  // 3-vectors: components count on, padding stays zero.
  CHECK(contents_as<float>(parse_arg_spec("in:float3:2:range")) ==
        std::vector<float>{0, 1, 2, 0, 3, 4, 5, 0});
  // Narrow integer types wrap.
  const std::vector<std::uint8_t> bytes =
      contents_as<std::uint8_t>(parse_arg_spec("in:uchar:258:range"));
  CHECK(bytes[255] == 255);
  CHECK(bytes[256] == 0);
  CHECK(bytes[257] == 1);
  CHECK(contents_as<std::int8_t>(parse_arg_spec("in:char:130:range"))[128] == -128);

  // random: the same seed gives the same values; integers in 0..99, floats in [0, 1).
  const std::vector<int> r1 = contents_as<int>(parse_arg_spec("in:int:1000:random=7"));
  CHECK(r1 == contents_as<int>(parse_arg_spec("in:int:1000:random=7")));
  CHECK(r1 != contents_as<int>(parse_arg_spec("in:int:1000:random=8")));
  int lo = 100, hi = -1;
  for (int v : r1) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  CHECK(lo == 0);
  CHECK(hi == 99);
  double sum = 0;
  for (float v : contents_as<float>(parse_arg_spec("in:float:1000:random=1"))) {
    REQUIRE(v >= 0.0f);
    REQUIRE(v < 1.0f);
    sum += v;
  }
  CHECK(sum / 1000 == Approx(0.5).margin(0.05));  // uniform: the mean is near 1/2
  for (double v : contents_as<double>(parse_arg_spec("in:double:100:random=1"))) {
    REQUIRE(v >= 0.0);
    REQUIRE(v < 1.0);
  }
}

TEST_CASE("arg_spec: file= reads raw bytes of exactly the buffer's size", "[unit][arg_spec]") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() /
      ("anycl-arg-spec-test-" + std::to_string(reinterpret_cast<std::uintptr_t>(&dir)));
  fs::create_directories(dir);
  const std::string path = (dir / "input.bin").string();
  {
    std::ofstream f(path, std::ios::binary);
    f << "0123456789abcdef";
  }
  const std::vector<std::uint8_t> bytes =
      contents_as<std::uint8_t>(parse_arg_spec("in:uchar:16:file=" + path));
  CHECK(bytes.front() == '0');
  CHECK(bytes.back() == 'f');
  CHECK(contents_as<std::uint32_t>(parse_arg_spec("in:uint:4:file=" + path))[0] == 0x33323130u);
  CHECK_THROWS_MATCHES(initial_contents(parse_arg_spec("in:float:5:file=" + path)),
                       std::runtime_error,
                       what(Contains("holds 16 bytes; 5 x float needs 20 (4 bytes each)")));
  CHECK_THROWS_MATCHES(initial_contents(parse_arg_spec("in:float:4:file=" + path + ".missing")),
                       std::runtime_error, what(Contains("no such file")));
  CHECK_THROWS_MATCHES(initial_contents(parse_arg_spec("in:float:4:file=" + dir.string())),
                       std::runtime_error, what(Contains("not a regular file")));
  fs::remove_all(dir);
}

// --- printing ---

TEST_CASE("arg_spec: values print in their shortest exact form", "[unit][arg_spec]") {
  auto show = [](const char* spec, bool json = false) {
    const arg_spec s = parse_arg_spec(spec);
    return format_element(s.type, s.value.data(), json);
  };
  CHECK(show("float:3") == "3");
  CHECK(show("float:0.1") == "0.1");
  CHECK(show("double:-2.5") == "-2.5");
  CHECK(show("char:-5") == "-5");
  CHECK(show("uchar:200") == "200");
  CHECK(show("ulong:18446744073709551615") == "18446744073709551615");
  CHECK(show("uint2:3,1") == "(3,1)");
  CHECK(show("uint2:3,1", true) == "[3, 1]");
  CHECK(show("float3:1,2,3") == "(1,2,3)");  // no padding printed
  CHECK(show("float:nan") == "nan");
  CHECK(show("float:nan", true) == "\"nan\"");
  CHECK(show("float:-inf", true) == "\"-inf\"");
}

// --- work sizes ---

TEST_CASE("arg_spec: --global and --local sizes", "[unit][arg_spec]") {
  CHECK(parse_sizes("1024", "--global") == std::vector<std::size_t>{1024});
  CHECK(parse_sizes("4,2,1", "--global") == std::vector<std::size_t>{4, 2, 1});
  CHECK_THROWS_MATCHES(parse_sizes("1,2,3,4", "--global"), std::invalid_argument,
                       what(Contains("--global takes 1 to 3")));
  CHECK_THROWS_MATCHES(parse_sizes("0", "--local"), std::invalid_argument,
                       what(Contains("--local sizes must be at least 1")));
  CHECK_THROWS_AS(parse_sizes("", "--global"), std::invalid_argument);
  CHECK_THROWS_AS(parse_sizes("4,", "--global"), std::invalid_argument);
  CHECK_THROWS_AS(parse_sizes("-4", "--global"), std::invalid_argument);
  CHECK_THROWS_AS(parse_sizes("4x2", "--global"), std::invalid_argument);
}

// --- the check against the kernel ---

TEST_CASE("arg_spec: declared type names are normalized", "[unit][arg_spec]") {
  CHECK(normalize_type_name("float*") == "float*");
  CHECK(normalize_type_name("float *") == "float*");
  CHECK(normalize_type_name("const __global float*") == "float*");
  CHECK(normalize_type_name("unsigned int") == "uint");
  CHECK(normalize_type_name("unsigned char*") == "uchar*");
  CHECK(normalize_type_name("signed char") == "char");
  CHECK(normalize_type_name("uint2") == "uint2");
}

TEST_CASE("arg_spec: arguments that fit the kernel pass", "[unit][arg_spec]") {
  CHECK(check_arguments("saxpy", saxpy_params(),
                        specs({"uint:4", "float:2", "in:float:4", "inout:float:4:range"}))
            .empty());
  CHECK(check_arguments("saxpy", saxpy_params(),
                        specs({"uint:4", "float:2", "out:float:4", "out:float:8"}))
            .empty());
  const std::vector<kernel_arg_info> mixed = {
      param("v", "uint2", address_space::private_), param("c", "int*", address_space::constant),
      param("s", "float4*", address_space::local), param("p", "void*", address_space::global)};
  CHECK(
      check_arguments("k", mixed, specs({"uint2:1,2", "in:int:4", "local:float4:8", "out:char:3"}))
          .empty());
}

TEST_CASE("arg_spec: mismatches name the argument, the declaration and what was given",
          "[unit][arg_spec]") {
  auto one = [](std::initializer_list<const char*> given) {
    const std::vector<std::string> p = check_arguments("saxpy", saxpy_params(), specs(given));
    REQUIRE(p.size() == 1);
    return p[0];
  };
  CHECK_THAT(check_arguments("saxpy", saxpy_params(), specs({"uint:4", "float:2"})).at(0),
             Contains("kernel 'saxpy' takes 4 arguments, 2 given") &&
                 Contains("saxpy(uint n, float a, __global float* x, __global float* y)"));
  CHECK_THAT(one({"float:4", "float:2", "in:float:4", "inout:float:4"}),
             Contains("argument 0 'n'") && Contains("declared 'uint'") &&
                 Contains("given 'float:4'") && Contains("pass uint:VALUE"));
  CHECK_THAT(one({"uint:4", "float:2", "in:int:4", "inout:float:4"}),
             Contains("argument 2 'x'") && Contains("declared '__global float*'") &&
                 Contains("given 'in:int:4'") && Contains("in:float:COUNT"));
  CHECK_THAT(one({"uint:4", "float:2", "local:float:4", "inout:float:4"}),
             Contains("argument 2 'x'") && Contains("__local memory"));
  CHECK_THAT(
      one({"out:uint:4", "float:2", "in:float:4", "inout:float:4"}),
      Contains("argument 0 'n'") && Contains("a __global buffer") && Contains("pass uint:VALUE"));
  CHECK_THAT(one({"uint:4", "float:2", "float:1", "inout:float:4"}),
             Contains("argument 2 'x'") && Contains("a value, not memory"));

  const std::vector<kernel_arg_info> other = {
      param("c", "int*", address_space::constant), param("s", "int*", address_space::local),
      param("r", "real", address_space::private_), param("img", "image2d_t", address_space::global),
      param("t", "real*", address_space::global)};
  std::vector<std::string> assumed;
  const std::vector<std::string> p = check_arguments(
      "k", other, specs({"inout:int:4", "in:int:4", "float:1", "in:float:4", "in:float:4"}), {},
      &assumed);
  REQUIRE(p.size() == 3);
  CHECK_THAT(p[0], Contains("cannot write __constant memory"));
  CHECK_THAT(p[1], Contains("argument 1 's'") && Contains("pass local:int:COUNT"));
  CHECK_THAT(p[2], Contains("argument 3 'img'") && Contains("(a __global buffer)") &&
                       Contains("pass image2d:FORMAT:SIZES[:INIT]"));
  // 'real' names no OpenCL C type and no typedef is known: checked by address space, and said.
  REQUIRE(assumed.size() == 2);
  CHECK_THAT(assumed[0], Contains("argument 2 'r': 'real' is not an OpenCL C type: the 4 bytes of "
                                  "'float:1' are passed as its value"));
  CHECK_THAT(assumed[1], Contains("argument 4 't': 'real' is not an OpenCL C type: its memory is "
                                  "passed as float elements"));
}

TEST_CASE("arg_spec: typedefs of the source are found, resolved and checked as their types",
          "[unit][arg_spec]") {
  const anycl::tools::type_aliases a = anycl::tools::find_typedefs(
      "// typedef int commented_t;\n/* typedef int block_t; */\n"
      "typedef float real_t;\ntypedef real_t scalar_t;  // a chain\n"
      "typedef unsigned   int count_t;\ntypedef float* fptr;\n"
      "typedef struct { float x, y; } point_t;\ntypedef struct node node_t;\n"
      "typedef int (*fn_t)(int);\ntypedef float arr_t[4];\ntypedef cycle_a cycle_b;\n"
      "typedef cycle_b cycle_a;\nint my_typedef_count;\n");
  CHECK(a.count("commented_t") == 0);
  CHECK(a.count("block_t") == 0);
  CHECK(a.count("point_t") == 0);  // a struct body
  CHECK(a.count("fn_t") == 0);
  CHECK(a.count("arr_t") == 0);
  using anycl::tools::resolve_alias;
  CHECK(resolve_alias(a, "real_t") == "float");
  CHECK(resolve_alias(a, "scalar_t*") == "float*");
  CHECK(resolve_alias(a, "count_t") == "uint");
  CHECK(resolve_alias(a, "fptr") == "float*");
  CHECK(resolve_alias(a, "node_t") == "struct node");
  CHECK(resolve_alias(a, "int") == "int");
  CHECK_FALSE(resolve_alias(a, "cycle_a").empty());  // a cycle stops after 16 rounds

  const std::vector<kernel_arg_info> params = {param("y", "real_t*", address_space::global),
                                               param("alpha", "scalar_t", address_space::private_),
                                               param("p", "point_t*", address_space::global),
                                               param("q", "point_t", address_space::private_)};
  anycl::tools::source_types types{a, {{"point_t", 8}}};
  CHECK(anycl::tools::unknown_types(params, a) == std::vector<std::string>{"point_t"});
  std::vector<std::string> assumed;
  CHECK(check_arguments("k", params,
                        specs({"inout:float:4", "float:2", "in:float2:2", "float2:1,2"}), types,
                        &assumed)
            .empty());
  REQUIRE(assumed.size() == 4);
  CHECK_THAT(assumed[0], Contains("'real_t*' is 'float*' (a typedef in the source)"));
  CHECK_THAT(assumed[2], Contains("'point_t' (sizeof 8)"));
  const std::vector<std::string> p =
      check_arguments("k", params, specs({"inout:int:4", "int:2", "in:float:3", "float:1"}), types);
  REQUIRE(p.size() == 4);
  CHECK_THAT(p[0], Contains("declared '__global real_t*'") && Contains("pass in:float:COUNT"));
  CHECK_THAT(p[1], Contains("(int); pass float:VALUE"));
  CHECK_THAT(p[2], Contains("12 bytes, not a whole number of 'point_t', 8 bytes each"));
  CHECK_THAT(p[3], Contains("4 bytes; 'point_t' takes 8"));
}

// --- SVM, images and samplers ---

TEST_CASE("arg_spec: SVM, image and sampler specs", "[unit][arg_spec]") {
  const arg_spec v = parse_arg_spec("svm:float2:3:range");
  CHECK(v.kind == arg_kind::svm);
  CHECK(v.holds_memory());
  CHECK_FALSE(v.is_buffer());
  CHECK(v.bytes() == 24);
  CHECK(contents_as<float>(v) == std::vector<float>{0, 1, 2, 3, 4, 5});

  // A pixel is one value per channel in its stored type.
  const arg_spec i = parse_arg_spec("image2d:CL_RGBA/CL_UNORM_INT8:5,3:fill=1,2,3,4");
  CHECK(i.kind == arg_kind::image);
  CHECK(i.image.type == anycl::image_type::image2d);
  CHECK(i.image.format == (anycl::image_format{CL_RGBA, CL_UNORM_INT8}));
  CHECK(i.type.name() == "uchar4");
  CHECK(i.count == 15);
  CHECK(i.bytes() == 60);
  const std::vector<std::uint8_t> px = contents_as<std::uint8_t>(i);
  CHECK(std::vector<std::uint8_t>(px.begin() + 4, px.begin() + 8) ==
        std::vector<std::uint8_t>{1, 2, 3, 4});
  // Each image type takes its own sizes into its extent.
  const arg_spec a1 = parse_arg_spec("image1d_array:r/float:7,2");
  CHECK(a1.image.extent.width == 7);
  CHECK(a1.image.extent.layers == 2);
  CHECK(a1.image.extent.height == 1);
  CHECK(anycl::tools::image_sizes(a1.image) == std::vector<std::size_t>{7, 2});
  const arg_spec a2 = parse_arg_spec("image2d_array:rg/signed_int16:4,3,2:range");
  CHECK(a2.image.extent.height == 3);
  CHECK(a2.image.extent.layers == 2);
  CHECK(a2.type.name() == "short2");
  CHECK(a2.count == 24);
  CHECK(contents_as<std::int16_t>(a2)[47] == 47);
  const arg_spec d3 = parse_arg_spec("image3d:r/unsigned_int32:2,3,4");
  CHECK(d3.image.extent.depth == 4);
  CHECK(d3.count == 24);
  CHECK(anycl::tools::image_sizes(d3.image) == std::vector<std::size_t>{2, 3, 4});
  CHECK(parse_arg_spec("image1d:a/snorm_int8:9").type.name() == "char");

  const arg_spec s = parse_arg_spec("sampler:repeat:linear:normalized");
  CHECK(s.kind == arg_kind::sampler);
  CHECK(s.sampler.addressing == anycl::addressing_mode::repeat);
  CHECK(s.sampler.filter == anycl::filter_mode::linear);
  CHECK(s.sampler.normalized);
  CHECK(s.bytes() == 0);
  CHECK_FALSE(s.holds_memory());
  CHECK(parse_arg_spec("sampler:none:nearest").sampler.to_string() == "none:nearest:unnormalized");
}

TEST_CASE("arg_spec: bad SVM, image and sampler specs say what is wrong", "[unit][arg_spec]") {
  CHECK_THAT(spec_error("svm:float:0"), Contains("COUNT must be at least 1"));
  CHECK_THAT(spec_error("svm:float"), Contains("COUNT is missing: svm:TYPE:COUNT"));
  CHECK_THAT(spec_error("image2d"), Contains("FORMAT is missing: image2d:FORMAT:W,H[:INIT]"));
  CHECK_THAT(spec_error("image2d:r/float"), Contains("SIZES is missing"));
  CHECK_THAT(spec_error("image2d:r/float:"), Contains("SIZES is missing"));
  CHECK_THAT(spec_error("image2d:rgba:4,4"), Contains("'rgba' is not ORDER/TYPE"));
  CHECK_THAT(spec_error("image2d:rgb/float:4,4"), Contains("3-channel orders are not supported"));
  CHECK_THAT(spec_error("image2d:r/half_float:4,4"), Contains("the host has no half type"));
  CHECK_THAT(spec_error("image2d:rgb/unorm_short_565:4,4"), Contains("packed channel types"));
  CHECK_THAT(spec_error("image2d:r/float:4"), Contains("an image2d takes 2 sizes (W,H), got '4'"));
  CHECK_THAT(spec_error("image3d:r/float:4,4"), Contains("an image3d takes 3 sizes (W,H,D)"));
  CHECK_THAT(spec_error("image1d:r/float:4,4"), Contains("an image1d takes 1 size (W)"));
  CHECK_THAT(spec_error("image2d:r/float:0,4"), Contains("sizes must be at least 1"));
  CHECK_THAT(spec_error("image2d:r/float:-1,4"), Contains("positive whole numbers"));
  CHECK_THAT(spec_error("image2d:r/float:4294967296,4294967296"), Contains("overflow size_t"));
  CHECK_THAT(spec_error("image2d:r/float:4,4:sequence"), Contains("unknown INIT 'sequence'"));
  CHECK_THAT(spec_error("image2d:rgba/float:4,4:fill=1,2"),
             Contains("1 value or 4 comma-separated values"));
  CHECK_THAT(spec_error("sampler"), Contains("ADDRESSING and FILTER are needed"));
  CHECK_THAT(spec_error("sampler:clamp"), Contains("ADDRESSING and FILTER are needed"));
  CHECK_THAT(spec_error("sampler:wrap:nearest"),
             Contains("ADDRESSING 'wrap' is not one of none, clamp_to_edge, clamp, repeat"));
  CHECK_THAT(spec_error("sampler:clamp:bilinear"), Contains("FILTER 'bilinear' is not one of"));
  CHECK_THAT(spec_error("sampler:clamp:linear:pixels"), Contains("COORDS 'pixels' is not one of"));
  CHECK_THAT(spec_error("sampler:repeat:linear"),
             Contains("repeat needs normalized coordinates: add ':normalized'"));
  CHECK_THAT(spec_error("sampler:mirrored_repeat:nearest:unnormalized"),
             Contains("mirrored_repeat needs normalized coordinates"));
  CHECK_THAT(spec_error("image4d:r/float:4"), Contains("unknown type 'image4d'") &&
                                                  Contains("image2d: (and the other image types)"));
}

TEST_CASE("arg_spec: SVM, images and samplers are checked against the kernel", "[unit][arg_spec]") {
  const std::vector<kernel_arg_info> params = {
      param("in", "image2d_t", address_space::global),
      param("s", "sampler_t", address_space::private_),
      param("out", "image3d_t", address_space::private_),
      param("x", "float*", address_space::global),
      param("c", "float*", address_space::constant),
      param("l", "image1d_array_t", address_space::global)};
  CHECK(check_arguments(
            "k", params,
            specs({"image2d:r/float:4,4", "sampler:clamp:nearest", "image3d:r/float:2,2,2",
                   "svm:float:4", "svm:float:4", "image1d_array:r/float:4,2"}))
            .empty());
  const std::vector<std::string> p = check_arguments(
      "k", params,
      specs({"image3d:r/float:4,4,4", "image2d:r/float:4,4", "sampler:clamp:nearest",
             "image2d:r/float:4,4", "local:float:4", "in:float:4"}));
  REQUIRE(p.size() == 6);
  CHECK_THAT(p[0], Contains("argument 0 'in'") && Contains("declared '__global image2d_t'") &&
                       Contains("(an image3d); pass image2d:FORMAT:SIZES[:INIT]"));
  CHECK_THAT(
      p[1], Contains("argument 1 's'") && Contains("(an image2d); pass sampler:ADDRESSING:FILTER"));
  CHECK_THAT(p[2], Contains("argument 2 'out'") && Contains("(a sampler); pass image3d:"));
  CHECK_THAT(p[3], Contains("argument 3 'x'") &&
                       Contains("(an image2d); pass in:float:COUNT, out:float:COUNT, "
                                "inout:float:COUNT or svm:float:COUNT"));
  CHECK_THAT(p[4], Contains("argument 4 'c'") && Contains("(__local memory)"));
  CHECK_THAT(p[5], Contains("(a __global buffer); pass image1d_array:FORMAT:SIZES"));
  // SVM where a value or __local memory is declared; a value where an image is.
  const std::vector<kernel_arg_info> other = {param("n", "uint", address_space::private_),
                                              param("l", "int*", address_space::local),
                                              param("i", "image1d_t", address_space::global),
                                              param("q", "pipe int", address_space::global)};
  const std::vector<std::string> o =
      check_arguments("k", other, specs({"svm:uint:1", "svm:int:4", "int:3", "image1d:r/float:4"}));
  REQUIRE(o.size() == 4);
  CHECK_THAT(o[0], Contains("(SVM memory); pass uint:VALUE"));
  CHECK_THAT(o[1], Contains("(SVM memory); pass local:int:COUNT"));
  CHECK_THAT(o[2], Contains("(a value); pass image1d:FORMAT:SIZES[:INIT]"));
  CHECK_THAT(o[3], Contains("cannot pass a 'pipe int'") && Contains("image3d_t and sampler_t"));
}
