// rocKE C++ engine: read-only access to the data files (TOML) compiled into the engine.
// Python twin: the tomllib dicts that rocke/ir/facts.py and rocke/arch/datafile.py load.
//
// platform/tools/gen_cpp_tables.py turns each data file into a constant tree of Nodes (one
// Document per file, in the file's own order). Typed views (op table, arch facts, MMA catalog)
// are built from these trees; nothing in C++ restates a table by hand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

namespace rocke::data {

enum class Kind : std::uint8_t { Table, Array, String, Integer, Float, Boolean };

// One value of a TOML document. Tables and arrays own the contiguous node range
// [first, first + count) of their document; a table's children carry their keys.
struct Node {
  Kind kind;
  std::string_view key;   // key inside the parent table ("" for array items and the root)
  std::string_view text;  // String
  std::int64_t integer;   // Integer; Boolean as 0 or 1
  double real;            // Float
  std::uint32_t first;    // Table, Array
  std::uint32_t count;    // Table, Array
};

// One data file: its package path (e.g. "rocke/ir/data/ops.toml") and its nodes (root first).
struct Document {
  std::string_view path;
  const Node* nodes;
  std::size_t size;
};

// Node constructors used by the generated sources (one letter each, to keep them compact).
namespace make {
constexpr Node T(std::string_view key, std::uint32_t first, std::uint32_t count) {
  return {Kind::Table, key, {}, 0, 0.0, first, count};
}
constexpr Node A(std::string_view key, std::uint32_t first, std::uint32_t count) {
  return {Kind::Array, key, {}, 0, 0.0, first, count};
}
constexpr Node S(std::string_view key, std::string_view text) { return {Kind::String, key, text, 0, 0.0, 0, 0}; }
constexpr Node I(std::string_view key, std::int64_t value) { return {Kind::Integer, key, {}, value, 0.0, 0, 0}; }
constexpr Node B(std::string_view key, bool value) { return {Kind::Boolean, key, {}, value ? 1 : 0, 0.0, 0, 0}; }
constexpr Node F(std::string_view key, double value) { return {Kind::Float, key, {}, 0, value, 0, 0}; }
}  // namespace make

// Every generated document, in generator order.
std::span<const Document* const> all_documents();

// A position in a document. Accessors throw rocke::DataError (a ValueError) naming the
// document and the dotted path when the data does not have the expected shape.
class NodeRef {
 public:
  NodeRef(const Document* doc, const Node* node) : doc_(doc), node_(node) {}

  Kind kind() const { return node_->kind; }
  // Where the node sits in its document ("op[3].attrs", "" for the root), for error messages: found
  // from the root on demand, so that walking a table costs no string per step.
  std::string path() const;
  bool is_table() const { return node_->kind == Kind::Table; }
  bool is_array() const { return node_->kind == Kind::Array; }

  // Tables and arrays.
  std::size_t size() const;
  NodeRef at(std::size_t index) const;        // array item or table entry by position
  NodeRef operator[](std::string_view key) const;  // table entry; DataError if missing
  bool has(std::string_view key) const;
  std::string_view key_at(std::size_t index) const;  // table key by position

  // Scalars.
  std::string_view str() const;
  std::int64_t integer() const;
  bool boolean() const;
  double real() const;

 private:
  [[noreturn]] void fail(std::string_view what) const;
  const Node* child(std::size_t index) const { return doc_->nodes + node_->first + index; }

  const Document* doc_;
  const Node* node_;
};

// The root table of the document with this package path; DataError if there is none.
NodeRef document(std::string_view package_path);

}  // namespace rocke::data
