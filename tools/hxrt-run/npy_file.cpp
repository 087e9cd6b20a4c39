#include "npy_file.hpp"

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "hxrt/error.hpp"

namespace hxrun {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

struct Descr {
  const char* text;
  hxrt::DType dtype;
};
// NumPy's descr strings for hxrt's dtypes ('|b1' for bool; ml_dtypes' bfloat16 as '<V2'
// cannot be told from other 2-byte records, so it is read by name only).
constexpr Descr kDescrs[] = {
    {"<f4", hxrt::DType::kF32},  {"<f8", hxrt::DType::kF64},  {"<f2", hxrt::DType::kF16},
    {"bfloat16", hxrt::DType::kBF16}, {"<i4", hxrt::DType::kI32}, {"<i8", hxrt::DType::kI64},
    {"|b1", hxrt::DType::kBool}, {"|i1", hxrt::DType::kI8},  {"|u1", hxrt::DType::kU8},
    {"<i2", hxrt::DType::kI16},  {"<u2", hxrt::DType::kU16}, {"<u4", hxrt::DType::kU32},
    {"<u8", hxrt::DType::kU64},
};

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw hxrt::Error(hxrt::StatusCode::kInvalidArgument, "'" + path + "': " + why);
}

// The quoted value of `key` in the header's dict ("'descr': '<f4'"), or of the parenthesized
// one for shape.
std::string field(const std::string& header, const std::string& key, const std::string& path) {
  const size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) refuse(path, "its header has no '" + key + "'");
  const size_t colon = header.find(':', at);
  const size_t start = header.find_first_not_of(" ", colon + 1);
  if (colon == std::string::npos || start == std::string::npos) {
    refuse(path, "its header's '" + key + "' has no value");
  }
  const char open = header[start];
  const char close = open == '(' ? ')' : open;
  const size_t end = header.find(close, start + 1);
  if (open == '\'' || open == '(') {
    if (end == std::string::npos) refuse(path, "its header's '" + key + "' is not closed");
    return header.substr(start + 1, end - start - 1);
  }
  return header.substr(start, header.find_first_of(",}", start) - start);
}

hxrt::Shape parse_shape(const std::string& text, const std::string& path) {
  std::vector<int64_t> dims;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t first = item.find_first_not_of(" ");
    if (first == std::string::npos) continue;
    const std::string digits = item.substr(first, item.find_last_not_of(" L") - first + 1);
    if (digits.empty() || digits.size() > 18 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      refuse(path, "its shape (" + text + ") is not a tuple of extents");
    }
    dims.push_back(std::stoll(digits));
  }
  try {
    return hxrt::Shape(dims);
  } catch (const hxrt::Error& error) {
    refuse(path, error.what());
  }
}

}  // namespace

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, "cannot be opened");
  std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (contents.size() < 10 || contents.compare(0, 6, kMagic, 6) != 0) {
    refuse(path, "is not a NumPy .npy file (save arrays with numpy.save)");
  }
  const int major = static_cast<unsigned char>(contents[6]);
  size_t header_length = 0;
  size_t header_start = 0;
  if (major == 1) {
    header_length = static_cast<unsigned char>(contents[8]) |
                    static_cast<size_t>(static_cast<unsigned char>(contents[9])) << 8;
    header_start = 10;
  } else if ((major == 2 || major == 3) && contents.size() >= 12) {
    for (int i = 3; i >= 0; --i) {
      header_length = header_length << 8 | static_cast<unsigned char>(contents[8 + i]);
    }
    header_start = 12;
  } else {
    refuse(path, "has .npy format version " + std::to_string(major) + ", not 1, 2 or 3");
  }
  if (header_length > contents.size() - header_start) refuse(path, "its header is cut short");
  const std::string header = contents.substr(header_start, header_length);
  NpyArray array;
  const std::string descr = field(header, "descr", path);
  bool known = false;
  for (const Descr& candidate : kDescrs) {
    if (descr == candidate.text || (descr == "<b1" && candidate.dtype == hxrt::DType::kBool)) {
      array.dtype = candidate.dtype;
      known = true;
    }
  }
  if (!known) {
    std::string known_descrs;
    for (const Descr& candidate : kDescrs) {
      known_descrs += std::string(known_descrs.empty() ? "" : ", ") +
                      hxrt::dtype_name(candidate.dtype) + " (" + candidate.text + ")";
    }
    refuse(path, "its dtype '" + descr + "' is not one hxrt has: " + known_descrs);
  }
  if (field(header, "fortran_order", path) != "False") {
    refuse(path, "is in Fortran order; save a C-ordered array (numpy.ascontiguousarray)");
  }
  array.shape = parse_shape(field(header, "shape", path), path);
  const size_t bytes = hxrt::tensor_bytes(array.dtype, array.shape);
  const size_t data_start = header_start + header_length;
  if (contents.size() - data_start != bytes) {
    refuse(path, "holds " + std::to_string(contents.size() - data_start) + " bytes of data; " +
                     array.shape.to_string() + " " + hxrt::dtype_name(array.dtype) + " needs " +
                     std::to_string(bytes));
  }
  array.bytes = contents.substr(data_start);
  if (array.dtype == hxrt::DType::kBool) {
    for (char& byte : array.bytes) byte = byte != 0 ? 1 : 0;
  }
  return array;
}

void write_npy(const std::string& path, const NpyArray& array) {
  const char* descr = "";
  for (const Descr& candidate : kDescrs) {
    if (candidate.dtype == array.dtype) descr = candidate.text;
  }
  std::string shape;
  for (int i = 0; i < array.shape.rank(); ++i) {
    shape += std::to_string(array.shape[i]) + ",";  // NumPy's (2, 3,) is (2, 3); (5,) is 1-D
  }
  std::string header =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Padded with spaces and a newline so that the data starts at a multiple of 64 bytes.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    throw hxrt::Error(hxrt::StatusCode::kInvalidArgument,
                      "cannot write '" + path + "'; does its folder exist?");
  }
  out.write(kMagic, 6);
  const char version[2] = {1, 0};
  out.write(version, 2);
  const char length[2] = {static_cast<char>(header.size() & 0xff),
                          static_cast<char>(header.size() >> 8)};
  out.write(length, 2);
  out << header;
  out.write(array.bytes.data(), static_cast<std::streamsize>(array.bytes.size()));
  if (!out) throw hxrt::Error(hxrt::StatusCode::kInvalidArgument, "writing '" + path + "' failed");
}

}  // namespace hxrun
