// Python twin: rocke/lower/llvm_types.py
#include "rocke/lower/llvm_types.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <unordered_map>

#include "rocke/arch/flavors.hpp"
#include "rocke/ir/floats.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

namespace {

// The binary16 bits of a value exactly representable in f16 (struct.pack('>e', value)).
unsigned half_bits(double value) {
  unsigned sign = std::signbit(value) ? 0x8000u : 0u;
  if (std::isnan(value)) return sign | 0x7E00u;
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | 0x7C00u;
  magnitude = ir::round_to_format(magnitude, 5, 10);
  if (magnitude == 0.0) return sign;
  if (std::isinf(magnitude)) return sign | 0x7C00u;
  int exp2 = 0;
  std::frexp(magnitude, &exp2);  // magnitude = m * 2**exp2, 0.5 <= m < 1
  int unbiased = exp2 - 1;
  if (unbiased < -14) {  // subnormal: a multiple of 2**-24
    return sign | static_cast<unsigned>(std::ldexp(magnitude, 24));
  }
  auto fraction = static_cast<unsigned>(std::ldexp(magnitude, 10 - unbiased)) - 1024u;
  return sign | static_cast<unsigned>(unbiased + 15) << 10 | fraction;
}

// The bfloat16 bits of a value exactly representable in bf16: the high half of its binary32.
unsigned bfloat_bits(double value) {
  return std::bit_cast<std::uint32_t>(static_cast<float>(value)) >> 16;
}

std::string hex4(unsigned bits) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04X", bits & 0xFFFFu);
  return buf;
}

}  // namespace

const std::string& scalar_text(const ir::Type& scalar) { return arch::llvm_facts().llvm_scalar(scalar.name()); }

namespace {

std::string spell_llvm_type(const ir::Type& ty, const arch::Target& target) {
  if (ty.is_scalar()) return scalar_text(ty);
  if (ty.is_vec()) return util::cat("<", std::to_string(ty.lanes()), " x ", scalar_text(ty.element()), ">");
  if (ty.is_ptr()) return pointer_text(ty.space(), target);
  return target.rsrc_type;
}

}  // namespace

namespace {

// What the lowering asks of a type on nearly every op, worked out once.
struct Spelling {
  std::string text;
  bool float_elem = false;
  std::string gep;  // gep_type of the type as a pointee (scalars and vectors only)
};

std::string spell_gep_type(const ir::Type& pointee) {
  if (pointee.is_vec()) {
    return util::cat("[", std::to_string(pointee.lanes()), " x ", scalar_text(pointee.element()), "]");
  }
  return scalar_text(pointee);
}

Spelling spell(const ir::Type& ty, const arch::Target& target) {
  std::string gep = ty.is_scalar() || ty.is_vec() ? spell_gep_type(ty) : std::string();
  return Spelling{spell_llvm_type(ty, target), ty.element().is_float(), std::move(gep)};
}

// A type's four bytes and its target's index as one key: Type is its kind, scalar, lanes and space,
// one byte each and no padding, so equal keys are equal types on one target.
static_assert(sizeof(ir::Type) == 4 && std::is_trivially_copyable_v<ir::Type>);
std::uint64_t type_key(const ir::Type& ty, const arch::Target& target) {
  std::uint32_t key;
  std::memcpy(&key, &ty, sizeof key);
  return static_cast<std::uint64_t>(target.index) << 32 | key;
}

// Spelled once per type, target and thread: a kernel asks for the same few types on every op (the
// map's nodes never move, so the texts can be handed out by reference). A small direct-mapped table
// in front of the map answers most asks with one compare.
[[gnu::noinline]] const Spelling& spelled(const ir::Type& ty, const arch::Target& target) {
  thread_local std::unordered_map<std::uint64_t, Spelling> spellings;
  std::uint64_t key = type_key(ty, target);
  auto found = spellings.find(key);
  if (found == spellings.end()) found = spellings.emplace(key, spell(ty, target)).first;
  return found->second;
}

struct Recent {
  std::uint64_t key = 0;
  const Spelling* spelling = nullptr;  // nullptr: an empty slot
};
constexpr unsigned kRecentBits = 6;
// Constant-initialized, so reading it needs no per-thread initialization check.
thread_local std::array<Recent, std::size_t{1} << kRecentBits> recent_spellings;

[[gnu::noinline]] const Spelling& spelling_miss(const ir::Type& ty, const arch::Target& target, Recent& slot) {
  const Spelling& found = spelled(ty, target);
  slot = Recent{type_key(ty, target), &found};
  return found;
}

// The lowering asks for a type's spelling several times per op: a hit is a multiply, a load and
// a compare, with the table's miss path out of line.
inline const Spelling& spelling(const ir::Type& ty, const arch::Target& target) {
  const std::uint64_t key = type_key(ty, target);
  Recent& slot = recent_spellings[(key * 0x9E3779B97F4A7C15ull) >> (64 - kRecentBits)];
  if (slot.spelling != nullptr && slot.key == key) [[likely]] return *slot.spelling;
  return spelling_miss(ty, target, slot);
}

// The first target: float_elem and gep_type read only what no target changes.
const arch::Target& any_target() {
  static const arch::Target& first = arch::targets().front();
  return first;
}

}  // namespace

const std::string& llvm_type(const ir::Type& ty, const arch::Target& target) { return spelling(ty, target).text; }

bool float_elem(const ir::Type& ty) { return spelling(ty, any_target()).float_elem; }

ir::Type elem_of(const ir::Type& ty) { return ty.element(); }

std::int64_t lanes_of(const ir::Type& ty) { return ty.is_vec() ? ty.lanes() : 0; }

ir::Type pointee_of(const ir::Type& ty) { return ty.pointee(); }

std::string pointer_text(std::string_view space, const arch::Target& target) {
  return util::cat("ptr addrspace(", std::to_string(target.address_space(space)), ")");
}

std::string gep_type(const ir::Type& pointee) {
  // Spelled once per type, with its LLVM type (a load or store asks on every access).
  if (pointee.is_scalar() || pointee.is_vec()) return spelling(pointee, any_target()).gep;
  return spell_gep_type(pointee);
}

std::int64_t byte_size(const ir::Type& ty) {
  if (ty.is_vec()) return static_cast<std::int64_t>(ty.lanes()) * (ty.bits() / 8);
  return std::max(1, ty.bits() / 8);
}

std::int64_t natural_align(const ir::Type& ty) {
  std::int64_t size = byte_size(ty);
  std::int64_t align = 1;
  while (align < kMaxNaturalAlign && size % (align * 2) == 0) align *= 2;
  return align;
}

std::string int_text(std::int64_t value, const ir::Type& scalar) {
  if (scalar.bits() == 1) return value != 0 ? "true" : "false";
  return std::to_string(value);
}

std::string float_text(double value, const ir::Type& scalar) {
  if (scalar.name() == "f16") return util::cat("0xH", hex4(half_bits(value)));
  if (scalar.name() == "bf16") return util::cat("0xR", hex4(bfloat_bits(value)));
  return ir::format_float_hex(value);
}

std::string const_text(const ir::AttrValue& value, const ir::Type& scalar) {
  if (scalar.is_scalar() && float_elem(scalar)) {  // scalar.is_float()
    double real = value.is_float() ? value.f : static_cast<double>(value.is_bool() ? value.b : value.i);
    return float_text(real, scalar);
  }
  std::int64_t integer = value.is_float() ? static_cast<std::int64_t>(value.f) : value.is_bool() ? value.b : value.i;
  return int_text(integer, scalar);
}

std::string splat_const(double value, const ir::Type& ty) {
  ir::Type elem = elem_of(ty);
  std::string text = elem.is_float() ? float_text(value, elem) : int_text(static_cast<std::int64_t>(value), elem);
  if (ty.is_vec()) return util::cat("splat (", scalar_text(elem), " ", text, ")");
  return text;
}

std::string i32_text(std::int64_t value) {
  return std::to_string(value >= (std::int64_t{1} << 31) ? value - (std::int64_t{1} << 32) : value);
}

}  // namespace rocke::lower
