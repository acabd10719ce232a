// Python twin: rocke/ir/source.py
#include "rocke/ir/source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "rocke/ir/facts.hpp"

namespace rocke::ir {

namespace {

constexpr std::string_view kLimitEnv = "ROCKE_MAX_INPUT_BYTES";
constexpr std::size_t kChunk = 1 << 20;

std::string read_limited(int fd, const std::string& name, std::int64_t limit) {
  std::string data;
  const auto cap = static_cast<std::size_t>(limit) + 1;
  while (true) {
    std::size_t want = std::min(kChunk, cap - data.size());
    std::size_t old = data.size();
    data.resize(old + want);
    ssize_t got = ::read(fd, data.data() + old, want);
    if (got < 0 && errno == EINTR) {
      data.resize(old);
      continue;
    }
    if (got < 0) {
      int code = errno;
      data.resize(old);
      throw InputError("cannot read " + name + ": " + std::strerror(code));
    }
    data.resize(old + static_cast<std::size_t>(got));
    if (got == 0) return data;
    if (data.size() > static_cast<std::size_t>(limit)) {
      throw InputError(name + ": input larger than " + std::to_string(limit) + " bytes (the limit; " +
                       std::string(kLimitEnv) + " changes it)");
    }
  }
}

}  // namespace

std::int64_t max_input_bytes() {
  const char* text = std::getenv(std::string(kLimitEnv).c_str());
  if (text == nullptr) return format_facts().max_input_bytes;
  std::string_view digits(text);
  bool ok = !digits.empty() && digits.size() <= 18;
  for (char c : digits) ok = ok && c >= '0' && c <= '9';
  std::int64_t value = ok ? std::stoll(std::string(digits)) : 0;
  if (!ok || value <= 0) {
    throw InputError(std::string(kLimitEnv) + ": expected a positive decimal number of bytes (at most 18 digits)");
  }
  return value;
}

std::string read_source(const std::string& path) {
  std::int64_t limit = max_input_bytes();
  if (path == "-") return read_limited(STDIN_FILENO, "<stdin>", limit);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    throw InputError("cannot read " + path + ": " + std::strerror(EISDIR));
  }
  try {
    std::string data = read_limited(fd, path, limit);
    ::close(fd);
    return data;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

}  // namespace rocke::ir
