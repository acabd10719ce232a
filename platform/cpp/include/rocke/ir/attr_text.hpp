// rocKE C++ engine: the text of one attribute, "name = value : kind", written through any writer.
// Python twin: rocke/ir/attrs.py (format_attr)
//
// One spelling for both writers of attribute text: append_attr (a std::string) and the printer's
// buffer. A Writer has put(std::string_view) and put_int(std::int64_t); num_type(writer) writes a
// num attribute's type (the op's first result type, or "?" where there is none).
#pragma once

#include <cstdint>
#include <string_view>

#include "rocke/ir/attrs.hpp"
#include "rocke/ir/floats.hpp"

namespace rocke::ir {

template <class Writer, class NumType>
void write_attr(Writer& out, const AttrDef& adef, const AttrValue& value, NumType&& num_type) {
  out.put(adef.name);
  switch (adef.code) {
    case AttrKind::Bool:
      out.put(value.truthy() ? std::string_view(" = true : bool") : std::string_view(" = false : bool"));
      return;
    case AttrKind::Str:
      out.put(" = \"");
      out.put(value.s);
      out.put("\" : str");
      return;
    case AttrKind::Num:
      out.put(" = ");
      if (value.is_float()) {
        out.put(format_float_hex(value.f));
      } else {
        out.put_int(value.i);
      }
      out.put(" : ");
      num_type(out);
      return;
    case AttrKind::I32:
    case AttrKind::I64: break;
  }
  out.put(" = ");
  out.put_int(value.i);
  out.put(" : ");
  out.put(adef.kind);
}

}  // namespace rocke::ir
