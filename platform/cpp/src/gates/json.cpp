// Python twin: rocke/gates/golden.py (its json.loads; strict here: no NaN/Infinity, no trailing
// data, no control characters in strings).
#include "rocke/gates/json.hpp"

#include <cstdint>

#include "rocke/util/strings.hpp"

namespace rocke::gates {

namespace {

constexpr int kMaxDepth = 512;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  JsonValue document() {
    JsonValue value = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("extra data");
    return value;
  }

 private:
  [[noreturn]] void fail(std::string_view what) const {
    throw ValueError(util::cat("json: ", what, " at byte ", std::to_string(pos_)));
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool take(char ch) {
    if (pos_ < text_.size() && text_[pos_] == ch) {
      ++pos_;
      return true;
    }
    return false;
  }

  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("expected a value");
    pos_ += word.size();
  }

  JsonValue parse_value(int depth) {
    if (depth > kMaxDepth) fail("nesting too deep");
    skip_space();
    if (pos_ >= text_.size()) fail("expected a value");
    JsonValue value;
    char ch = text_[pos_];
    if (ch == '{') {
      ++pos_;
      value.kind = JsonValue::Kind::Object;
      skip_space();
      if (take('}')) return value;
      while (true) {
        skip_space();
        if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key");
        std::string key = parse_string();
        skip_space();
        if (!take(':')) fail("expected ':'");
        value.members.insert_or_assign(std::move(key), parse_value(depth + 1));
        skip_space();
        if (take('}')) return value;
        if (!take(',')) fail("expected ',' or '}'");
      }
    }
    if (ch == '[') {
      ++pos_;
      value.kind = JsonValue::Kind::Array;
      skip_space();
      if (take(']')) return value;
      while (true) {
        value.items.push_back(parse_value(depth + 1));
        skip_space();
        if (take(']')) return value;
        if (!take(',')) fail("expected ',' or ']'");
      }
    }
    if (ch == '"') {
      value.kind = JsonValue::Kind::String;
      value.text = parse_string();
      return value;
    }
    if (ch == 't' || ch == 'f') {
      literal(ch == 't' ? "true" : "false");
      value.kind = JsonValue::Kind::Bool;
      value.boolean = ch == 't';
      return value;
    }
    if (ch == 'n') {
      literal("null");
      return value;
    }
    value.kind = JsonValue::Kind::Number;
    value.text = parse_number();
    return value;
  }

  static bool digit(char ch) { return ch >= '0' && ch <= '9'; }

  std::string parse_number() {
    std::size_t start = pos_;
    take('-');
    if (!take('0')) {
      if (pos_ >= text_.size() || !digit(text_[pos_])) fail("expected a value");
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    }
    if (take('.')) {
      if (pos_ >= text_.size() || !digit(text_[pos_])) fail("expected a digit");
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    }
    if (take('e') || take('E')) {
      if (!take('+')) take('-');
      if (pos_ >= text_.size() || !digit(text_[pos_])) fail("expected a digit");
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char ch = text_[pos_++];
      code <<= 4;
      if (ch >= '0' && ch <= '9') code |= static_cast<unsigned>(ch - '0');
      else if (ch >= 'a' && ch <= 'f') code |= static_cast<unsigned>(ch - 'a' + 10);
      else if (ch >= 'A' && ch <= 'F') code |= static_cast<unsigned>(ch - 'A' + 10);
      else fail("bad \\u escape");
    }
    return code;
  }

  static void put_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string parse_string() {
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char ch = text_[pos_++];
      if (ch == '"') return out;
      if (static_cast<unsigned char>(ch) < 0x20) fail("control character in a string");
      if (ch != '\\') {
        out += ch;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      char esc = text_[pos_++];
      switch (esc) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t code = hex4();
          if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            std::size_t save = pos_;
            pos_ += 2;
            std::uint32_t low = hex4();
            if (low >= 0xDC00 && low < 0xE000) code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            else pos_ = save;
          }
          put_utf8(out, code);
          break;
        }
        default: --pos_; fail("bad escape");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::get(std::string_view key) const {
  if (kind != Kind::Object) return nullptr;
  auto hit = members.find(key);
  return hit == members.end() ? nullptr : &hit->second;
}

std::string JsonValue::repr() const {
  switch (kind) {
    case Kind::Null: return "None";
    case Kind::Bool: return boolean ? "True" : "False";
    case Kind::Number: return text;
    case Kind::String: return util::cat("'", text, "'");
    case Kind::Array: {
      std::vector<std::string> parts;
      for (const JsonValue& item : items) parts.push_back(item.repr());
      return util::cat("[", util::join(parts, ", "), "]");
    }
    case Kind::Object: {
      std::vector<std::string> parts;
      for (const auto& [key, value] : members) parts.push_back(util::cat("'", key, "': ", value.repr()));
      return util::cat("{", util::join(parts, ", "), "}");
    }
  }
  return "None";
}

bool JsonValue::operator==(const JsonValue& other) const {
  return kind == other.kind && boolean == other.boolean && text == other.text && items == other.items &&
         members == other.members;
}

JsonValue parse_json(std::string_view text) { return Reader(text).document(); }

}  // namespace rocke::gates
