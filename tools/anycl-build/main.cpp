// SPDX-License-Identifier: Apache-2.0
// anycl-build: offline builds of .cl files through kernel_loader. Writes the prebuilt binaries the
// loader looks for (the FPGA / binary-only flow), or checks that every .cl file in a folder builds.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "anycl/anycl.hpp"
#include "cli.hpp"

namespace {

namespace fs = std::filesystem;
using anycl::tools::arguments;
using anycl::tools::json_string;
using anycl::tools::split_short_options;
using anycl::tools::usage_error;

// What the command line asks for beyond the shared flags.
struct request {
  anycl::build_options options;
  std::string file;    // FILE; empty with --check
  std::string output;  // -o OUT; empty for the default name
};

// -D, -I and -o are short options the shared parser leaves among the positional arguments; they
// are read here in order, in both the joined (-DNAME) and the separate (-D NAME) form.
request parse_request(const arguments& args) {
  request r;
  const std::vector<std::string> files =
      split_short_options(args.positional, "DIo", [&r](char letter, const std::string& value) {
        try {
          if (letter == 'D') {
            const std::size_t eq = value.find('=');
            if (eq == std::string::npos) {
              r.options.define(value);
            } else {
              r.options.define(value.substr(0, eq), value.substr(eq + 1));
            }
          } else if (letter == 'I') {
            r.options.include_dir(value);
          } else {
            if (!r.output.empty()) throw usage_error("-o is given twice");
            r.output = value;
          }
        } catch (const std::invalid_argument& e) {  // a bad macro name, whitespace in a value
          throw usage_error(e.what());
        }
      });
  try {
    if (args.has("options")) r.options.flag(args.value("options"));
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  const bool check = args.has("check");
  if (files.size() > 1) throw usage_error("one FILE at a time, got '" + files[1] + "' too");
  if (check && !files.empty())
    throw usage_error("--check takes a folder; FILE '" + files[0] + "' cannot go with it");
  if (!check && files.empty()) throw usage_error("no FILE to build (or --check DIR)");
  if (!files.empty() && files[0].empty())
    throw usage_error("FILE is empty: give the path of a .cl file");
  if (check && !r.output.empty())
    throw usage_error("-o cannot go with --check (it writes nothing)");
  if (!check && args.has("json")) throw usage_error("--json goes with --check");
  if (!files.empty()) r.file = files[0];
  // The loader reads .aocx/.xclbin files as they are, straight from the vendor's compiler; a
  // binary written here carries AnyCL's header and checksum and must be named .bin.
  const std::string ext = fs::path(r.output).extension().string();
  if (ext == ".aocx" || ext == ".xclbin")
    throw usage_error("-o " + r.output + ": " + ext +
                      " files come from the vendor's offline compiler; anycl-build writes .bin "
                      "files (<stem>.<device-key>.bin)");
  return r;
}

// The devices to build for: --device SPEC (all it selects), else every device for --check and the
// default device (ANYCL_DEVICE, else GPU, accelerator, CPU) for one FILE.
std::vector<anycl::device> pick_devices(const arguments& args, bool check) {
  if (args.has("device")) {
    try {
      return anycl::select_devices(args.value("device"));
    } catch (const std::invalid_argument& e) {  // a malformed spec
      throw usage_error(e.what());
    }
  }
  if (check) return anycl::select_devices("all");
  return {anycl::select_device()};
}

// Devices grouped by platform, in the order given: a context cannot span platforms.
std::vector<std::vector<anycl::device>> by_platform(const std::vector<anycl::device>& devices) {
  std::vector<std::vector<anycl::device>> groups;
  for (const anycl::device& d : devices) {
    const anycl::platform p = d.platform();
    auto same = [&](const std::vector<anycl::device>& g) { return g.front().platform() == p; };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end()) {
      groups.push_back({d});
    } else {
      it->push_back(d);
    }
  }
  return groups;
}

// Creates every kernel of `prog`: some drivers compile only then, and the binary must be taken
// after that; it also catches kernels a driver refuses after a successful build.
void create_kernels(const anycl::program& prog) {
  for (const std::string& name : prog.kernel_names()) (void)prog.kernel(name);
}

std::string trimmed_log(const anycl::program& prog, const anycl::device& dev) {
  std::string log = prog.build_log(dev);
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  return log;
}

anycl::loader_options source_loader(std::vector<std::string> search_path) {
  anycl::loader_options o;
  o.search_path = std::move(search_path);
  o.disk_cache = false;  // an offline build always compiles; it never reads or fills the cache
  return o;
}

// --- one FILE ---

// -o names one file, and every device needs a compiler (an FPGA's binaries come from its vendor).
void check_devices(const arguments& args, const request& r,
                   const std::vector<anycl::device>& devices) {
  if (!r.output.empty() && devices.size() != 1)
    throw usage_error("-o names one output, but --device '" + args.value("device") + "' selects " +
                      std::to_string(devices.size()) +
                      " devices; leave out -o to write <stem>.<device-key>.bin for each");
  for (const anycl::device& d : devices)
    if (!d.compiler_available())
      throw std::runtime_error(
          "device '" + d.name() + "' has no OpenCL C compiler (an FPGA?): build " + r.file +
          " with the vendor's offline compiler (Intel: aoc, giving <stem>.aocx; Xilinx: v++, "
          "giving <stem>.xclbin) and put the result next to it, where the loader looks");
}

// FILE as a path if something is there (the loader then reports what is wrong with it), else a
// name on the loader's search path (ANYCL_KERNEL_PATH, the installed and embedded cl_kernels/).
struct source_place {
  fs::path given;
  bool on_disk = false;
  fs::path folder;   // FILE's folder; empty: the current directory
  std::string name;  // what the loader is asked for
  std::vector<std::string> search_path;
};

source_place place_of(const std::string& file) {
  source_place p;
  p.given = file;
  std::error_code ec;
  p.on_disk = fs::exists(p.given, ec);
  p.folder = p.given.parent_path();
  p.name = p.on_disk ? p.given.filename().string() : file;
  if (p.on_disk) p.search_path.push_back(p.folder.empty() ? "." : p.folder.string());
  return p;
}

// The default output goes where a loader searching FILE's folder looks: next to the file found,
// or under FILE's folder in the current directory for the library's embedded copy.
fs::path output_folder(const anycl::kernel_loader& loader, const request& r,
                       const source_place& place) {
  if (place.on_disk) return place.folder;
  std::string found;
  try {
    found = loader.locate(r.file);
  } catch (const anycl::source_error& e) {
    throw std::runtime_error("no such file '" + r.file + "', and " + e.what());
  }
  return found.rfind("embedded:", 0) != 0 ? fs::path(found).parent_path() : place.folder;
}

// The binaries written, in order, with the devices each is for.
struct written_files {
  std::map<std::string, std::vector<std::string>> devices;  // path -> device names
  std::vector<std::string> order;
};

void write_binaries(const arguments& args, const request& r, const anycl::program& prog,
                    const std::vector<anycl::device>& group, const fs::path& out_dir,
                    written_files& written) {
  for (const anycl::device& d : group) {
    if (args.has("verbose"))
      if (std::string log = trimmed_log(prog, d); !log.empty())
        std::cout << "build log of " << r.file << " on '" << d.name() << "':\n" << log << "\n";
    const std::string path =
        r.output.empty() ? (out_dir / anycl::prebuilt_file_name(r.file, d)).string() : r.output;
    if (written.devices.count(path) == 0) {  // identical devices share a key, hence a file
      try {
        if (r.output.empty() && !out_dir.empty()) fs::create_directories(out_dir);
        anycl::write_prebuilt(prog, d, path);
      } catch (const std::system_error& e) {
        throw std::runtime_error("cannot write " + path + ": " + e.code().message());
      }
      written.order.push_back(path);
    }
    written.devices[path].push_back(d.name());
  }
}

// Reads the binaries back as a device without a compiler would: proves they are where the loader
// looks and in the form it accepts. Only possible under the name the loader uses: false (nothing
// checked) otherwise.
bool verify_binaries(const anycl::context& ctx, const request& r,
                     const std::vector<anycl::device>& group, const fs::path& out_dir,
                     const source_place& place) {
  bool default_names = true;
  for (const anycl::device& d : group)
    default_names = default_names && (r.output.empty() || fs::path(r.output).filename() ==
                                                              anycl::prebuilt_file_name(r.file, d));
  if (!default_names) return false;
  anycl::loader_options o = source_loader(
      {r.output.empty() ? out_dir.string() : fs::path(r.output).parent_path().string()});
  if (o.search_path.front().empty()) o.search_path.front() = ".";
  o.binary_only = true;
  o.use_environment = false;
  try {
    create_kernels(anycl::kernel_loader(ctx, o).load(place.given.filename().string(), r.options));
  } catch (const std::exception& e) {
    throw std::runtime_error("wrote the binaries to " + o.search_path.front() +
                             ", but a binary-only kernel_loader cannot use them: " + e.what());
  }
  return true;
}

void print_written(written_files& written, bool verified) {
  for (const std::string& path : written.order) {
    std::cout << "wrote " << path << " for";
    const auto& names = written.devices[path];
    for (std::size_t i = 0; i < names.size(); ++i)
      std::cout << (i ? ", '" : " '") << names[i] << "'";
    std::cout << (verified ? " (checked: a binary-only kernel_loader loads it)" : "") << "\n";
  }
}

int build_file(const arguments& args, const request& r) {
  const std::vector<anycl::device> devices = pick_devices(args, false);
  check_devices(args, r, devices);
  const source_place place = place_of(r.file);
  written_files written;
  bool verified = true;  // every binary was read back through a binary-only loader
  for (const auto& group : by_platform(devices)) {
    anycl::context ctx(group);
    anycl::kernel_loader loader(ctx, source_loader(place.search_path));
    const fs::path out_dir = output_folder(loader, r, place);
    anycl::program prog = loader.load(place.name, r.options);
    create_kernels(prog);
    write_binaries(args, r, prog, group, out_dir, written);
    verified = verify_binaries(ctx, r, group, out_dir, place) && verified;
  }
  print_written(written, verified);
  return 0;
}

// --- --check DIR ---

struct check_row {
  std::string file, device, log;
  bool ok = false;
};

// Every .cl file below DIR, sorted; headers meant for #include only are .h and not built alone.
std::vector<std::string> cl_files(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("--check " + dir.string() + ": no such folder");
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->path().extension() == ".cl" && it->is_regular_file(ec))
      files.push_back(it->path().lexically_relative(dir).generic_string());
  if (ec) throw std::runtime_error("--check " + dir.string() + ": " + ec.message());
  if (files.empty())
    throw std::runtime_error("--check " + dir.string() +
                             ": no .cl files there (headers meant for #include are .h)");
  std::sort(files.begin(), files.end());
  return files;
}

using check_target = std::pair<anycl::device, anycl::kernel_loader>;

// One loader per device, so that each line's ok/FAILED is that device's own: a build for all the
// devices of a platform fails as one. DIR is the search path, as cl_kernels/ is the library's:
// `#include "anycl/x.h"` resolves as it will at run time.
std::vector<check_target> check_targets(const arguments& args, const fs::path& dir) {
  std::vector<check_target> targets;
  for (const anycl::device& d : pick_devices(args, true)) {
    if (!d.compiler_available()) {
      std::cerr << "anycl-build: skipping '" << d.name()
                << "': it has no OpenCL C compiler (its binaries come from the vendor's offline "
                   "compiler)\n";
      continue;
    }
    targets.emplace_back(d, anycl::kernel_loader(anycl::context(d), source_loader({dir.string()})));
  }
  if (targets.empty()) throw std::runtime_error("--check: no selected device has a compiler");
  return targets;
}

// Builds `file` for one device and creates its kernels; the row says how it went.
check_row check_one(const fs::path& dir, const std::string& file, check_target& target,
                    const request& r) {
  auto& [dev, loader] = target;
  check_row row{(dir / file).string(), dev.name(), "", false};
  try {
    anycl::program prog = loader.load(file, r.options);
    create_kernels(prog);
    row.ok = true;
    row.log = trimmed_log(prog, dev);
  } catch (const anycl::build_error& e) {
    for (const auto& l : e.logs()) row.log += (row.log.empty() ? "" : "\n") + l.log;
    if (row.log.empty()) row.log = e.what();
  } catch (const std::exception& e) {  // a missing #include, an unreadable file, ...
    row.log = e.what();
  }
  return row;
}

void print_check_json(const std::vector<check_row>& rows) {
  std::cout << "[";
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::cout << (i ? ",\n " : "") << "{\"file\": " << json_string(rows[i].file)
              << ", \"device\": " << json_string(rows[i].device)
              << ", \"ok\": " << (rows[i].ok ? "true" : "false")
              << ", \"log\": " << json_string(rows[i].log) << "}";
  std::cout << "]\n";
}

int check_folder(const arguments& args, const request& r) {
  const fs::path dir = args.value("check");
  const std::vector<std::string> files = cl_files(dir);
  const bool json = args.has("json");
  std::vector<check_target> targets = check_targets(args, dir);

  std::vector<check_row> rows;
  for (const std::string& file : files) {
    for (check_target& target : targets) {
      check_row row = check_one(dir, file, target, r);
      if (!json) {
        std::cout << (row.ok ? "ok" : "FAILED") << ": " << row.file << " on '" << row.device
                  << "'\n";
        if (!row.log.empty() && (!row.ok || args.has("verbose"))) std::cout << row.log << "\n";
      }
      rows.push_back(std::move(row));
    }
  }

  const auto failed = static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const check_row& c) { return !c.ok; }));
  if (json) {
    print_check_json(rows);
  } else {
    std::cout << "checked " << files.size() << " file" << (files.size() == 1 ? "" : "s") << " on "
              << targets.size() << " device" << (targets.size() == 1 ? "" : "s") << ": "
              << rows.size() - failed << " ok, " << failed << " failed\n";
  }
  return failed == 0 ? 0 : 1;
}

int build(const arguments& args) {
  const request r = parse_request(args);
  return args.has("check") ? check_folder(args, r) : build_file(args, r);
}

}  // namespace

int main(int argc, char** argv) {
  anycl::tools::cli c(
      "anycl-build",
      "FILE.cl [-D NAME[=VAL]]... [-I DIR]... [--options FLAGS] [--device SPEC] [-o OUT]\n"
      "       anycl-build --check DIR [-D NAME[=VAL]]... [-I DIR]... [--device SPEC] [--json]",
      "Builds FILE offline through the kernel loader and prints the compiler's log with the\n"
      "original file and line. Writes the binary under the name the loader looks for,\n"
      "<FILE's folder>/<stem>.<device-key>.bin, for each selected device (default: ANYCL_DEVICE,\n"
      "else GPU, accelerator, CPU), so that a binary-only loader or a device without a compiler\n"
      "uses it. FILE may also be a name on the search path (e.g. anycl/demo.cl).\n"
      "--check builds every .cl file under DIR on every selected device (default: all) and\n"
      "writes nothing; it exits 1 if any build fails.\n\n"
      "  -D NAME[=VAL]           define a macro (also -DNAME[=VAL])\n"
      "  -I DIR                  look for #include files in DIR too (also -IDIR)\n"
      "  -o OUT                  write the binary to OUT (one device only)");
  c.option("options", "FLAGS", "more compiler flags, e.g. \"-cl-fast-relaxed-math\"")
      .option("check", "DIR", "build every .cl file under DIR on every selected device")
      .flag("verbose", "print the log of successful builds too")
      .flag("json", "with --check: print a JSON array of {file, device, ok, log}");
  return anycl::tools::run_tool(c, argc, argv, build);
}
