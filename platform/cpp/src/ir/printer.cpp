// Python twin: rocke/ir/printer.py
#include "rocke/ir/printer.hpp"

#include <cstring>
#include <string_view>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/ir/attr_text.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

using ir::AttrDef;
using ir::KernelDef;
using ir::Op;
using ir::Region;
using ir::Type;
using ir::Value;

// The printer trusts its input, but a missing attribute is Python's KeyError, not a crash.
const ir::AttrValue& attr_at(const ir::AttrMap& attrs, const std::string& name) {
  auto it = attrs.find(name);
  if (it == attrs.end()) throw KeyError("'" + name + "'");
  return it->second;
}

// The text is written through a cursor into one buffer per thread, kept between kernels (so it
// grows only past the longest text so far): one room check per piece and no length update per
// small append; the text is copied out once at the end.
class Sink {
 public:
  Sink() : buf_(thread_buffer()), cur_(buf_.data()), end_(buf_.data() + buf_.size()) {}

  // Room for at most n bytes at the cursor; commit() says where the writing stopped.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - cur_) < n) grow(n);
    return cur_;
  }
  void commit(const char* end) { cur_ = const_cast<char*>(end); }  // end points into the buffer

  void put(std::string_view text) {
    char* at = room(text.size());
    util::copy_text(at, text.data(), text.size());
    cur_ = at + text.size();
  }
  void put(char c) {
    char* at = room(1);
    *at = c;
    cur_ = at + 1;
  }
  // Indentation: copied from a fixed run of spaces (one fixed-size copy) when it is that short.
  void put_spaces(std::size_t n) {
    static constexpr std::size_t run = 64;
    static constexpr char spaces[run + 1] = "                                                                ";
    char* at = room(n > run ? n : run);
    if (n > run) {
      std::memset(at, ' ', n);
    } else {
      std::memcpy(at, spaces, run);
    }
    cur_ = at + n;
  }

  std::size_t size() const { return static_cast<std::size_t>(cur_ - buf_.data()); }
  std::string_view since(std::size_t start) const { return {buf_.data() + start, size() - start}; }
  void rewind(std::size_t start) { cur_ = buf_.data() + start; }

  std::string text() const { return std::string(buf_.data(), size()); }

 private:
  static std::string& thread_buffer() {
    thread_local std::string buffer(16384, '\0');
    return buffer;
  }
  [[gnu::noinline, gnu::cold]] void grow(std::size_t n) {
    const std::size_t pos = size();
    std::size_t want = buf_.size() * 2;
    if (want < pos + n) want = pos + n;
    buf_.resize(want);
    cur_ = buf_.data() + pos;
    end_ = buf_.data() + buf_.size();
  }

  std::string& buf_;
  // The cursor and the end of the buffer, kept as pointers: a piece's room check and append
  // touch these two only (the buffer's own size and data are read when it grows).
  char* cur_;
  char* end_;
};

void put_int(Sink& out, std::int64_t value) {
  char* at = out.room(20);  // a sign and at most 19 digits
  out.commit(util::write_int(at, value));
}

void put_id(Sink& out, const Value* value) {
  char* at = out.room(21);  // "%", a sign and at most 19 digits
  *at = '%';
  out.commit(util::write_int(at + 1, value->id));
}

// Type::text() of ty, spelled once per type and thread into a small direct-mapped table keyed by the
// type's packed fields (Type::hash() keeps each field in its own byte, so it is a unique key). The
// table is plain bytes (no per-access initialisation check) and a text is copied with one fixed-size
// copy; a text longer than a slot is spelled each time.
constexpr std::size_t slot_chars = 32;
struct TypeSlot {
  std::uint32_t key_plus_one;  // 0: empty
  std::uint32_t size;
  char chars[slot_chars];
};

// Fills slot with ty's text; false when the text does not fit (then it was written to out).
[[gnu::noinline]] bool spell_type(Sink& out, const Type& ty, TypeSlot& slot, std::size_t key) {
  const std::string text = ty.text();
  if (text.size() > slot_chars) {
    out.put(text);
    return false;
  }
  std::memcpy(slot.chars, text.data(), text.size());
  slot.size = static_cast<std::uint32_t>(text.size());
  slot.key_plus_one = static_cast<std::uint32_t>(key + 1);
  return true;
}

void put_type(Sink& out, const Type& ty) {
  thread_local TypeSlot spelled[256];
  const std::size_t key = ty.hash();
  TypeSlot& slot = spelled[(key ^ (key >> 7) ^ (key >> 13) ^ (key >> 22)) & 255];
  if (slot.key_plus_one != key + 1 && !spell_type(out, ty, slot, key)) return;
  char* at = out.room(slot_chars);
  std::memcpy(at, slot.chars, slot_chars);
  out.commit(at + slot.size);
}

void put_def(Sink& out, const Value* value) {
  put_id(out, value);
  if (value->name.has_value() && !value->name->empty()) {
    const std::string& name = *value->name;
    char* at = out.room(name.size() + 3);  // ' "NAME"'
    at[0] = ' ';
    at[1] = '"';
    std::memcpy(at + 2, name.data(), name.size());
    at[name.size() + 2] = '"';
    out.commit(at + name.size() + 3);
  }
  out.put(" : ");
  put_type(out, value->type);
}

// The table row of op's opcode: the one the op was made with, when it still names it.
const ir::OpDef& opdef_of(const Op& op) {
  if (const OpDef* def = op.own_def()) return *def;
  return ir::get_op(op.opcode);
}

// One attribute (ir::write_attr, the spelling append_attr uses too), written straight into the sink.
void put_attr(Sink& out, const AttrDef& adef, const ir::AttrValue& value, const Type& num_type) {
  struct SinkWriter {
    Sink& sink;
    void put(std::string_view part) { sink.put(part); }
    void put_int(std::int64_t number) { ::rocke::ir::put_int(sink, number); }
  } writer{out};
  ir::write_attr(writer, adef, value, [&num_type](SinkWriter& w) {
    if (num_type.is_none()) {
      w.sink.put('?');
    } else {
      put_type(w.sink, num_type);
    }
  });
}

void put_attr_dict(Sink& out, const Op& op, const ir::OpDef& opdef) {
  if (opdef.attrs.empty()) return;
  out.put(" {");
  // A num attribute is typed by the first result.
  const Type num_type = op.results.empty() ? Type() : op.results[0]->type;
  // Both lists are sorted by name, so an op's attribute is most often the next one of its map.
  auto next = op.attrs.begin();
  bool first = true;
  for (const AttrDef& adef : opdef.attrs) {
    if (!first) out.put(", ");
    first = false;
    if (next != op.attrs.end() && util::same_text(next->first, adef.name)) {
      put_attr(out, adef, next->second, num_type);
      ++next;
    } else {
      put_attr(out, adef, attr_at(op.attrs, adef.name), num_type);
    }
  }
  out.put('}');
}

void put_region(Sink& out, const Region& region, std::size_t depth) {
  const std::size_t pad = static_cast<std::size_t>(ir::format_facts().indent) * depth;
  for (const Op* op : region.ops) {
    // The op's head line is written in place; an op with regions repeats it before each one.
    const std::size_t head_start = out.size();
    out.put_spaces(pad);
    if (!op->results.empty()) {
      for (std::size_t i = 0; i < op->results.size(); ++i) {
        if (i != 0) out.put(", ");
        put_def(out, op->results[i]);
      }
      out.put(" = ");
    }
    out.put(op->opcode);
    for (std::size_t i = 0; i < op->operands.size(); ++i) {
      out.put(i == 0 ? std::string_view(" ") : std::string_view(", "));
      put_id(out, op->operands[i]);
    }
    const ir::OpDef& opdef = opdef_of(*op);
    put_attr_dict(out, *op, opdef);
    if (op->regions.empty()) {
      out.put('\n');
      continue;
    }
    std::string head(out.since(head_start));
    out.rewind(head_start);
    for (std::size_t r = 0; r < op->regions.size(); ++r) {
      const Region& inner = *op->regions[r];
      out.put(head);
      out.put(' ');
      out.put(opdef.regions.at(r).name);
      if (!inner.args.empty()) {
        out.put('(');
        for (std::size_t i = 0; i < inner.args.size(); ++i) {
          if (i != 0) out.put(", ");
          put_def(out, inner.args[i]);
        }
        out.put(')');
      }
      out.put(" {\n");
      put_region(out, inner, depth + 1);
      head = std::string(pad, ' ') + "}";
    }
    out.put(head);
    out.put('\n');
  }
}

std::string attr_list(const std::vector<AttrDef>& defs, const ir::AttrMap& attrs) {
  std::string out;
  for (std::size_t i = 0; i < defs.size(); ++i) {
    if (i != 0) out += ", ";
    ir::append_attr(out, defs[i], attr_at(attrs, defs[i].name), "?");
  }
  return out;
}

}  // namespace

std::string print_kernel(const KernelDef& kernel) {
  Sink out;
  out.put(ir::format_facts().version);
  out.put('\n');
  out.put("kernel @");
  out.put(kernel.name);
  out.put(" {");
  out.put(attr_list(ir::kernel_attrs(), kernel.attrs));
  out.put("}\n");
  for (const ir::Param& param : kernel.params) {
    out.put("param ");
    put_def(out, param.value);
    if (param.value->type.is_ptr()) {
      out.put(" {");
      out.put(attr_list(ir::param_attrs(), param.attrs));
      out.put('}');
    }
    out.put('\n');
  }
  out.put("body {\n");
  put_region(out, *kernel.body, 1);
  out.put("}\n");
  return out.text();
}

}  // namespace rocke::ir
