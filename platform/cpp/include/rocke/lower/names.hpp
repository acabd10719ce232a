// rocKE C++ engine: names in the emitted function, all derived deterministically from the IR.
// Python twin: rocke/lower/names.py
//
// * a value (param, op result, region argument) with name hint H and id N is %H.N, without a hint
//   %vN. Hints already match [A-Za-z_][A-Za-z0-9_.]*; any other character would become '_';
// * temporaries are %tK, K counting from 0 in emission order over the whole kernel;
// * blocks are entry, then per scf op, numbered from 0 in program order: forK.header, forK.body,
//   forK.latch, forK.exit and ifK.then, ifK.else, ifK.join.
#pragma once

#include <string>
#include <string_view>

#include "rocke/ir/core.hpp"

namespace rocke::lower {

// Every character outside [A-Za-z0-9_.] becomes '_' (a UTF-8 sequence is one character).
std::string sanitize_hint(std::string_view hint);
// %H.N or %vN
std::string value_name(const ir::Value& value);
// value_name(value) appended to out.
void append_value_name(std::string& out, const ir::Value& value);

}  // namespace rocke::lower
