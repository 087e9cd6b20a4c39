#include "installation.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CL/cl.h>
#include <hxcommon/cache_file.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

extern char** environ;

namespace hxopencl {
namespace {

std::string identity(const std::string& path) {
  return hxcommon::file_identity(path).value_or("missing");
}

// A small file's text; "" when it is missing or larger than `limit` (its identity, beside it in
// the fingerprint, still tells a change).
std::string text_of(const std::string& path, size_t limit) {
  return hxcommon::read_small_file(path, limit).value_or("");
}

std::string trimmed(std::string text) {
  text.erase(text.find_last_not_of(" \t\r\n") + 1);
  return text;
}

std::vector<std::string> entries(const std::string& folder) {
  std::vector<std::string> names;
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return names;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') names.emplace_back(entry->d_name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

// The file of the loaded object that holds `address`; "" when the dynamic loader cannot say.
std::string object_file(const void* address) {
  Dl_info info;
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return {};
  return info.dli_fname;
}

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

bool is_folder(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Where a vendor library named in an ICD file would be found, as far as can be told without
// the dynamic loader: an absolute path as it is, else the first folder of $LD_LIBRARY_PATH or
// the ICD loader's own folder (where distributions install their ICDs) that holds it.
std::string find_library(const std::string& name, const std::string& loader_folder) {
  if (name.empty() || name[0] == '/') return name;
  std::vector<std::string> folders;
  if (const char* paths = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream list(paths);
    std::string folder;
    while (std::getline(list, folder, ':')) {
      if (!folder.empty()) folders.push_back(folder);
    }
  }
  folders.push_back(loader_folder);
  for (const std::string& folder : folders) {
    const std::string path = folder + "/" + name;
    if (access(path.c_str(), F_OK) == 0) return path;
  }
  return {};
}

void describe_vendors(std::string& out) {
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  const std::string source = vendors != nullptr && vendors[0] != '\0'
                                 ? std::string(vendors)
                                 : std::string("/etc/OpenCL/vendors");
  std::vector<std::string> files;
  if (is_folder(source)) {
    for (const std::string& name : entries(source)) files.push_back(source + "/" + name);
  } else {
    files.push_back(source);
  }
  const std::string loader_folder =
      folder_of(object_file(reinterpret_cast<void*>(&clGetPlatformIDs)));
  out += "icd-loader " + loader_folder + "\n";
  for (const std::string& file : files) {
    const std::string library = trimmed(text_of(file, 4096));
    const std::string path = find_library(library, loader_folder);
    out += "icd " + file + " " + identity(file) + " names '" + library + "' at '" + path +
           "' " + identity(path) + "\n";
  }
}

void describe_kernel_drivers(std::string& out) {
  std::istringstream modules(text_of("/proc/modules", 1 << 20));
  std::string line;
  out += "modules";
  while (std::getline(modules, line)) out += " " + line.substr(0, line.find(' '));
  out += "\ndevices";
  for (const char* folder : {"/dev/dri", "/dev/accel"}) {
    for (const std::string& name : entries(folder)) out += std::string(" ") + folder + "/" + name;
  }
  for (const std::string& name : entries("/dev")) {
    if (name.rfind("nvidia", 0) == 0 || name == "kfd") out += " /dev/" + name;
  }
  out += "\n";
}

void describe_machine(std::string& out) {
  cpu_set_t cpus;
  const int usable = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : -1;
  out += "cpus " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " usable " +
         std::to_string(usable) + " pages " + std::to_string(sysconf(_SC_PHYS_PAGES)) + "\n";
}

void describe_environment(std::string& out) {
  static const char* const kPrefixes[] = {
      "OCL_", "OPENCL_", "POCL_", "CUDA_", "NVIDIA_", "ROCR_", "HIP_",    "GPU_", "HSA_",
      "AMD_", "ZE_",     "NEO_",  "IGC_",  "RUSTICL_", "MESA_", "CL_", "LD_LIBRARY_PATH=",
      "LD_PRELOAD="};
  std::vector<std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    for (const char* prefix : kPrefixes) {
      if (std::strncmp(*entry, prefix, std::strlen(prefix)) == 0) {
        variables.emplace_back(*entry);
        break;
      }
    }
  }
  std::sort(variables.begin(), variables.end());
  for (const std::string& variable : variables) out += "env " + variable + "\n";
}

}  // namespace

std::string installation_fingerprint() {
  // Canonical: the same file loaded by another path (a folder reached through a link) is the
  // same plugin.
  std::string plugin = object_file(reinterpret_cast<void*>(&installation_fingerprint));
  if (char* canonical = realpath(plugin.c_str(), nullptr)) {
    plugin = canonical;
    std::free(canonical);
  }
  std::string out = "plugin " + plugin + " " + identity(plugin) + "\n";
  out += "boot " + trimmed(text_of("/proc/sys/kernel/random/boot_id", 64)) + "\n";
  describe_vendors(out);
  out += "ld.so.cache " + identity("/etc/ld.so.cache") + "\n";
  describe_kernel_drivers(out);
  describe_machine(out);
  describe_environment(out);
  return out;
}

}  // namespace hxopencl
