// rocKE C++ engine: reading rocke.ir/1 input from a file or stdin, bounded in size.
// Python twin: rocke/ir/source.py
//
// The limit is ir.toml's format.max_input_bytes (256 MiB), overridden by the environment
// variable ROCKE_MAX_INPUT_BYTES. A reader stops one byte past the limit and refuses the input,
// so a device like /dev/zero or an endless pipe never fills memory. Every refusal is an
// InputError whose text is the Python twin's.
#pragma once

#include <cstdint>
#include <string>

#include "rocke/errors.hpp"

namespace rocke::ir {

// An input that cannot be read or is over the size limit; the message names the input.
class InputError : public ValueError {
 public:
  explicit InputError(std::string message) : Error(std::move(message)) {}
};

// The input size limit in bytes: $ROCKE_MAX_INPUT_BYTES if set, else ir.toml's default.
std::int64_t max_input_bytes();

// The bytes of file `path` ("-" is stdin), refusing more than max_input_bytes().
std::string read_source(const std::string& path);

}  // namespace rocke::ir
