// rocKE C++ engine: the format facts of data/ir.toml (limits, version, indentation).
// Python twin: rocke/ir/facts.py
#pragma once

#include <cstdint>
#include <string>

#include "rocke/data/document.hpp"

namespace rocke::ir {

struct FormatFacts {
  std::string version;             // the exact first line of every text ("rocke.ir/1")
  std::int64_t max_region_depth;   // the kernel body is depth 1
  std::int64_t max_value_id;       // ids are 0..max_value_id
  std::int64_t max_int_digits;     // longer integer literals are refused before conversion
  std::int64_t indent;             // spaces per region depth
  std::int64_t max_input_bytes;    // default input size limit of the command-line readers
  std::string param_types;         // constraint every kernel parameter type satisfies
};

// The root of ir.toml.
data::NodeRef ir_facts();

// [format] and [kernel] of ir.toml, read once.
const FormatFacts& format_facts();

}  // namespace rocke::ir
