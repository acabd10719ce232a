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
constexpr std::size_t kProbe = 1 << 12;

// How many bytes the next read asks for, `have` bytes read so far of an input `expected` bytes
// long (a regular file's fstat size; 0 when unknown: a pipe, a device, a /proc file). A known
// file is read in one piece plus a byte, so its end shows in the first read, then confirmed by a
// small probe; an input of unknown size starts small. Only past that does a read ask for a whole
// chunk. Each read's buffer is zeroed first (std::string::resize), so this is what a small input
// costs: its own size, not a zeroed, faulted MiB.
std::size_t next_read(std::size_t have, std::size_t expected) {
  if (have < expected) return expected - have + 1;
  if (have < expected + kProbe) return kProbe;
  return kChunk;
}

std::string read_limited(int fd, const std::string& name, std::int64_t limit, std::size_t expected = 0) {
  std::string data;
  const auto cap = static_cast<std::size_t>(limit) + 1;
  while (true) {
    std::size_t want = std::min(next_read(data.size(), expected), cap - data.size());
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
  bool known = ::fstat(fd, &info) == 0;
  if (known && S_ISDIR(info.st_mode)) {
    ::close(fd);
    throw InputError("cannot read " + path + ": " + std::strerror(EISDIR));
  }
  // A regular file's size sizes the first read (capped at the limit: a larger file is refused
  // after limit + 1 bytes, as any input is); other inputs report no usable size.
  std::size_t expected = 0;
  if (known && S_ISREG(info.st_mode) && info.st_size > 0) {
    expected = static_cast<std::size_t>(std::min<std::int64_t>(info.st_size, limit));
  }
  try {
    std::string data = read_limited(fd, path, limit, expected);
    ::close(fd);
    return data;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

}  // namespace rocke::ir
