// Python twin: the tomllib dicts read by rocke/ir/facts.py and rocke/arch/datafile.py.
#include "rocke/data/document.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::data {

namespace {

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::Table: return "a table";
    case Kind::Array: return "an array";
    case Kind::String: return "a string";
    case Kind::Integer: return "an integer";
    case Kind::Float: return "a float";
    case Kind::Boolean: return "a boolean";
  }
  return "a value";
}

// Append the path from `at` down to `target` (a node of at's subtree) to path; false when target is
// not below at. Array items are "[i]" after their array, table entries ".key" (the key alone at the
// root), as the path was once built step by step.
bool path_to(const Document& doc, const Node* at, const Node* target, std::string& path) {
  if (at == target) return true;
  if (at->kind != Kind::Table && at->kind != Kind::Array) return false;
  for (std::uint32_t i = 0; i < at->count; ++i) {
    const Node* item = doc.nodes + at->first + i;
    std::size_t mark = path.size();
    if (at->kind == Kind::Array) {
      path += '[';
      path += std::to_string(i);
      path += ']';
    } else {
      if (!path.empty()) path += '.';
      path += item->key;
    }
    if (path_to(doc, item, target, path)) return true;
    path.resize(mark);
  }
  return false;
}

}  // namespace

std::string NodeRef::path() const {
  std::string path;
  path_to(*doc_, doc_->nodes, node_, path);
  return path;
}

void NodeRef::fail(std::string_view what) const {
  std::string where = path();
  if (where.empty()) where = "(root)";
  throw DataError(std::string(doc_->path) + ": " + where + ": " + std::string(what));
}

std::size_t NodeRef::size() const {
  if (!is_table() && !is_array()) fail("expected a table or an array, found " + std::string(kind_name(kind())));
  return node_->count;
}

NodeRef NodeRef::at(std::size_t index) const {
  if (index >= size()) fail("index " + std::to_string(index) + " out of range");
  return NodeRef(doc_, child(index));
}

bool NodeRef::has(std::string_view key) const {
  if (!is_table()) return false;
  for (std::size_t i = 0; i < node_->count; ++i) {
    if (child(i)->key == key) return true;
  }
  return false;
}

NodeRef NodeRef::operator[](std::string_view key) const {
  if (!is_table()) fail("expected a table, found " + std::string(kind_name(kind())));
  for (std::size_t i = 0; i < node_->count; ++i) {
    if (child(i)->key == key) return at(i);
  }
  fail(util::cat("'", key, "' is missing"));
}

std::string_view NodeRef::key_at(std::size_t index) const {
  if (!is_table()) fail("expected a table, found " + std::string(kind_name(kind())));
  return at(index).node_->key;
}

std::string_view NodeRef::str() const {
  if (kind() != Kind::String) fail("expected a string, found " + std::string(kind_name(kind())));
  return node_->text;
}

std::int64_t NodeRef::integer() const {
  if (kind() != Kind::Integer) fail("expected an integer, found " + std::string(kind_name(kind())));
  return node_->integer;
}

bool NodeRef::boolean() const {
  if (kind() != Kind::Boolean) fail("expected a boolean, found " + std::string(kind_name(kind())));
  return node_->integer != 0;
}

double NodeRef::real() const {
  if (kind() != Kind::Float) fail("expected a float, found " + std::string(kind_name(kind())));
  return node_->real;
}

NodeRef document(std::string_view package_path) {
  for (const Document* doc : all_documents()) {
    if (doc->path == package_path) return NodeRef(doc, doc->nodes);
  }
  throw DataError("no generated data file '" + std::string(package_path) + "'");
}

}  // namespace rocke::data
