// Python twin: rocke/ir/types.py
#include "rocke/ir/types.hpp"

#include <algorithm>

#include "rocke/errors.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

struct TypeFacts {
  std::vector<ScalarInfo> scalars;
  std::vector<std::string> spaces;
  int min_lanes = 0;
  int max_lanes = 0;
  std::vector<std::string> vec_elems;
  std::vector<std::string> ptr_scalar_elems;
  bool ptr_vector_elems = false;
};

std::vector<std::string> strings_of(const data::NodeRef& array) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array.size(); ++i) out.emplace_back(array.at(i).str());
  return out;
}

const TypeFacts& type_facts() {
  static const TypeFacts facts = [] {
    TypeFacts f;
    data::NodeRef root = ir_facts();
    data::NodeRef scalars = root["scalar"];
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      data::NodeRef row = scalars.at(i);
      f.scalars.push_back(ScalarInfo{std::string(row["name"].str()), std::string(row["kind"].str()),
                                     static_cast<int>(row["bits"].integer()),
                                     static_cast<int>(row["exp_bits"].integer()),
                                     static_cast<int>(row["man_bits"].integer())});
      f.scalars.back().is_int_kind = f.scalars.back().kind == "int";
      f.scalars.back().is_float_kind = f.scalars.back().kind == "float";
    }
    data::NodeRef spaces = root["address_space"];
    for (std::size_t i = 0; i < spaces.size(); ++i) f.spaces.emplace_back(spaces.at(i)["name"].str());
    f.min_lanes = static_cast<int>(root["vector"]["min_lanes"].integer());
    f.max_lanes = static_cast<int>(root["vector"]["max_lanes"].integer());
    f.vec_elems = strings_of(root["vector"]["elems"]);
    f.ptr_scalar_elems = strings_of(root["pointer"]["scalar_elems"]);
    f.ptr_vector_elems = root["pointer"]["vector_elems"].boolean();
    return f;
  }();
  return facts;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::string scalar_names() {
  std::vector<std::string> names;
  for (const ScalarInfo& s : type_facts().scalars) names.push_back(s.name);
  return util::join(names, ", ");
}

const ScalarInfo* find_scalar(std::string_view name, std::size_t* index = nullptr) {
  const auto& scalars = type_facts().scalars;
  if (name.empty()) return nullptr;
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    const std::string& known = scalars[i].name;  // the first letter rules out most rows cheaply
    if (known[0] == name[0] && known == name) {
      if (index != nullptr) *index = i;
      return &scalars[i];
    }
  }
  return nullptr;
}

// What Python's messages show for a missing type (None).
std::string shown(const Type& t) { return t.is_none() ? std::string("NoneType") : t.text(); }

}  // namespace

const std::vector<ScalarInfo>& scalar_infos() { return type_facts().scalars; }

const ScalarInfo* detail::load_scalar_table() {
  const ScalarInfo* table = type_facts().scalars.data();
  scalar_table.store(table, std::memory_order_release);
  return table;
}
const std::vector<std::string>& address_spaces() { return type_facts().spaces; }
int min_lanes() { return type_facts().min_lanes; }
int max_lanes() { return type_facts().max_lanes; }

Type Type::scalar(std::size_t index) {
  Type t;
  t.kind_ = Kind::Scalar;
  t.scalar_ = static_cast<std::uint8_t>(index);
  return t;
}

Type Type::vector_of(std::size_t elem_index, int lanes) {
  Type t;
  t.kind_ = Kind::Vec;
  t.scalar_ = static_cast<std::uint8_t>(elem_index);
  t.lanes_ = static_cast<std::uint8_t>(lanes);
  return t;
}

Type Type::pointer(Type pointee, std::size_t space_index) {
  Type t;
  t.kind_ = Kind::Ptr;
  t.scalar_ = pointee.scalar_;
  t.lanes_ = pointee.is_vec() ? pointee.lanes_ : 0;
  t.space_ = static_cast<std::uint8_t>(space_index);
  return t;
}

Type Type::resource() {
  Type t;
  t.kind_ = Kind::Rsrc;
  return t;
}

bool Type::is_int() const { return kind_ == Kind::Scalar && info().is_int_kind; }
bool Type::is_float() const { return kind_ == Kind::Scalar && info().is_float_kind; }

Type Type::element() const {
  if (kind_ == Kind::Vec) return Type::scalar(scalar_);
  return *this;
}

int Type::lanes() const { return kind_ == Kind::Vec ? lanes_ : 1; }

Type Type::pointee() const {
  if (kind_ != Kind::Ptr) return Type();
  return lanes_ == 0 ? Type::scalar(scalar_) : Type::vector_of(scalar_, lanes_);
}

std::string_view Type::space() const {
  if (kind_ != Kind::Ptr) return {};
  return type_facts().spaces.at(space_);
}

std::string Type::text() const {
  switch (kind_) {
    case Kind::Scalar: return info().name;
    case Kind::Vec: return std::string("vec<") + info().name + "x" + std::to_string(lanes_) + ">";
    case Kind::Ptr: return std::string("ptr<") + pointee().text() + ", " + std::string(space()) + ">";
    case Kind::Rsrc: return "rsrc";
    case Kind::None: break;
  }
  return "none";
}

std::string Type::category() const {
  switch (kind_) {
    case Kind::Scalar: return info().kind;
    case Kind::Vec: return std::string("vec_") + info().kind;
    case Kind::Ptr: return std::string("ptr_") + std::string(space());
    case Kind::Rsrc: return "rsrc";
    case Kind::None: break;
  }
  return "none";
}

Type scalar_type(std::string_view name) {
  std::size_t index = 0;
  if (find_scalar(name, &index) == nullptr) {
    throw ValueError("unknown scalar type '" + std::string(name) + "'; known: " + scalar_names());
  }
  return Type::scalar(index);
}

Type vec(Type elem, std::int64_t lanes) {
  const TypeFacts& f = type_facts();
  if (!elem.is_scalar()) throw TypeError("vec: element type must be a scalar type, got " + shown(elem));
  if (!contains(f.vec_elems, elem.name())) {
    throw TypeError("vec: element type " + std::string(elem.name()) + " is not allowed; allowed: " +
                    util::join(f.vec_elems, ", "));
  }
  if (lanes < f.min_lanes || lanes > f.max_lanes) {
    std::string n = std::to_string(lanes);
    throw ValueError("vec: lane count " + n + " of vec<" + std::string(elem.name()) + "x" + n +
                     "> is out of range " + std::to_string(f.min_lanes) + ".." + std::to_string(f.max_lanes));
  }
  std::size_t index = 0;
  find_scalar(elem.name(), &index);
  return Type::vector_of(index, static_cast<int>(lanes));
}

Type ptr(Type pointee, std::string_view space) {
  const TypeFacts& f = type_facts();
  if (pointee.is_scalar()) {
    if (!contains(f.ptr_scalar_elems, pointee.name())) {
      throw TypeError("ptr: pointee type " + std::string(pointee.name()) + " is not allowed; allowed: " +
                      util::join(f.ptr_scalar_elems, ", ") + " or a vector type");
    }
  } else if (!(pointee.is_vec() && f.ptr_vector_elems)) {
    throw TypeError("ptr: pointee must be a scalar or vector type, got " + shown(pointee));
  }
  auto it = std::find(f.spaces.begin(), f.spaces.end(), space);
  if (it == f.spaces.end()) {
    throw ValueError("ptr: unknown address space '" + std::string(space) + "'; known: " + util::join(f.spaces, ", "));
  }
  return Type::pointer(pointee, static_cast<std::size_t>(it - f.spaces.begin()));
}

namespace {

bool is_small_decimal(std::string_view text) {
  if (text.empty() || text.size() > 4) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return text == "0" || text[0] != '0';
}

void expect_punct(TokenStream& tokens, char punct) {
  const Token& tok = tokens.peek();
  if (tok.kind != TokenKind::Punct || tok.text[0] != punct) {  // punctuation tokens are one character
    throw ParseError(tok.line, tok.col, "expected '" + std::string(1, punct) + "', found " + describe_token(tok));
  }
  tokens.take();
}

}  // namespace

Type parse_type_stream(TokenStream& tokens, bool pointee) {
  const TypeFacts& f = type_facts();
  const Token tok = tokens.peek();
  if (tok.kind != TokenKind::Ident) {
    throw ParseError(tok.line, tok.col, "expected a type, found " + describe_token(tok));
  }
  if (pointee && (tok.text == "ptr" || tok.text == "rsrc")) {
    std::string got = tok.text == "rsrc" ? "rsrc" : "a pointer type";
    throw ParseError(tok.line, tok.col, "ptr: pointee must be a scalar or vector type, got " + got);
  }
  std::size_t index = 0;
  if (find_scalar(tok.text, &index) != nullptr) {
    tokens.take();
    return Type::scalar(index);
  }
  if (tok.text == "rsrc") {
    tokens.take();
    return Type::resource();
  }
  if (tok.text == "vec") {
    tokens.take();
    expect_punct(tokens, '<');
    const Token inner = tokens.peek();
    std::size_t x = inner.text.rfind('x');
    bool sep = x != std::string_view::npos;
    std::string_view elem_name = sep ? inner.text.substr(0, x) : std::string_view();
    std::string_view lanes_text = sep ? inner.text.substr(x + 1) : inner.text;
    std::size_t elem_index = 0;
    if (inner.kind != TokenKind::Ident || !sep || find_scalar(elem_name, &elem_index) == nullptr ||
        !is_small_decimal(lanes_text)) {
      throw ParseError(inner.line, inner.col,
                       "expected ELEMxN inside vec<...>, found " + describe_token(inner));
    }
    Type ty;
    try {
      ty = vec(Type::scalar(elem_index), std::stoll(std::string(lanes_text)));
    } catch (const TypeError& exc) {
      throw ParseError(inner.line, inner.col, exc.message());
    } catch (const ValueError& exc) {
      throw ParseError(inner.line, inner.col, exc.message());
    }
    tokens.take();
    expect_punct(tokens, '>');
    return ty;
  }
  if (tok.text == "ptr") {
    tokens.take();
    expect_punct(tokens, '<');
    std::int64_t pointee_line = tokens.peek().line;
    std::int64_t pointee_col = tokens.peek().col;
    Type pointee_type = parse_type_stream(tokens, true);
    expect_punct(tokens, ',');
    const Token space = tokens.peek();
    if (space.kind != TokenKind::Ident) {
      throw ParseError(space.line, space.col, "expected an address space, found " + describe_token(space));
    }
    if (!contains(f.spaces, space.text)) {
      throw ParseError(space.line, space.col,
                       "unknown address space '" + echo(space.text) + "'; known: " + util::join(f.spaces, ", "));
    }
    Type ty;
    try {
      ty = ptr(pointee_type, space.text);
    } catch (const TypeError& exc) {
      throw ParseError(pointee_line, pointee_col, exc.message());
    }
    tokens.take();
    expect_punct(tokens, '>');
    return ty;
  }
  throw ParseError(tok.line, tok.col, "unknown type '" + echo(tok.text) + "'");
}

Type parse_type(std::string_view source) {
  check_characters(source);
  TokenStream tokens(source);
  Type ty = parse_type_stream(tokens);
  const Token& tok = tokens.peek();
  if (tok.kind != TokenKind::Eof) {
    throw ParseError(tok.line, tok.col, "unexpected '" + echo(tok.text) + "' after type " + ty.text());
  }
  return ty;
}

}  // namespace rocke::ir
