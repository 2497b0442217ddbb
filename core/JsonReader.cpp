#include "core/JsonReader.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kcheck::core {

double JsonValue::asDouble() const {
  return kind_ == Kind::Number ? std::strtod(text_.c_str(), nullptr) : 0.0;
}

std::optional<uint64_t> JsonValue::asUint64() const {
  if (kind_ != Kind::Number)
    return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text_.data(), text_.data() + text_.size(), v);
  if (ec == std::errc() && p == text_.data() + text_.size())
    return v;
  // Exponent or fraction: accept it only if it is an exact integer.
  double d = asDouble();
  if (d >= 0 && d < 18446744073709551616.0 && std::floor(d) == d)
    return uint64_t(d);
  return std::nullopt;
}

std::optional<int64_t> JsonValue::asInt64() const {
  if (kind_ != Kind::Number)
    return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text_.data(), text_.data() + text_.size(), v);
  if (ec == std::errc() && p == text_.data() + text_.size())
    return v;
  return std::nullopt;
}

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const auto &[k, v] : members_)
    if (k == key)
      return &v;
  return nullptr;
}

JsonValue JsonValue::makeBool(bool b) {
  JsonValue v(Kind::Bool);
  v.boolean_ = b;
  return v;
}

JsonValue JsonValue::makeNumber(std::string text) {
  JsonValue v(Kind::Number);
  v.text_ = std::move(text);
  return v;
}

JsonValue JsonValue::makeString(std::string text) {
  JsonValue v(Kind::String);
  v.text_ = std::move(text);
  return v;
}

JsonValue JsonValue::makeArray(std::vector<JsonValue> items) {
  JsonValue v(Kind::Array);
  v.items_ = std::move(items);
  return v;
}

JsonValue
JsonValue::makeObject(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v(Kind::Object);
  v.members_ = std::move(members);
  return v;
}

namespace {

// Recursive descent; depth is bounded so hostile input cannot overflow the
// stack.
class Parser {
public:
  explicit Parser(std::string_view text) : s_(text) {}

  JsonParseResult run() {
    JsonParseResult r;
    skipSpace();
    std::optional<JsonValue> v = parseValue(0);
    if (v) {
      skipSpace();
      if (pos_ != s_.size())
        fail("unexpected text after the value");
    }
    if (!error_.empty()) {
      r.error = where() + error_;
      return r;
    }
    r.value = std::move(v);
    return r;
  }

private:
  static constexpr int kMaxDepth = 256;

  std::string where() const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col) +
           ": ";
  }

  std::nullopt_t fail(std::string msg) {
    if (error_.empty())
      error_ = std::move(msg);
    return std::nullopt;
  }

  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' ||
                                s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  bool consume(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word)
      return false;
    pos_ += word.size();
    return true;
  }

  std::optional<JsonValue> parseValue(int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than 256");
    if (pos_ >= s_.size())
      return fail("unexpected end of input");
    char c = s_[pos_];
    if (c == '{')
      return parseObject(depth);
    if (c == '[')
      return parseArray(depth);
    if (c == '"') {
      std::optional<std::string> str = parseString();
      if (!str)
        return std::nullopt;
      return JsonValue::makeString(std::move(*str));
    }
    if (consume("true"))
      return JsonValue::makeBool(true);
    if (consume("false"))
      return JsonValue::makeBool(false);
    if (consume("null"))
      return JsonValue::makeNull();
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber();
    return fail(std::string("unexpected character '") + c + "'");
  }

  std::optional<JsonValue> parseNumber() {
    size_t start = pos_;
    auto digits = [&] {
      size_t d = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
      return pos_ - d;
    };
    if (s_[pos_] == '-')
      ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0')
      ++pos_;
    else if (digits() == 0)
      return fail("bad number");
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (digits() == 0)
        return fail("bad number: no digits after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-'))
        ++pos_;
      if (digits() == 0)
        return fail("bad number: no exponent digits");
    }
    return JsonValue::makeNumber(std::string(s_.substr(start, pos_ - start)));
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(uint32_t &out) {
    if (pos_ + 4 > s_.size())
      return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char h = s_[pos_++];
      out <<= 4;
      if (h >= '0' && h <= '9')
        out |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f')
        out |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        out |= uint32_t(h - 'A' + 10);
      else
        return false;
    }
    return true;
  }

  std::optional<std::string> parseString() {
    ++pos_; // opening quote
    std::string out;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size())
        break;
      char e = s_[pos_++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (!hex4(cp))
          return fail("bad \\u escape");
        // A surrogate pair encodes one code point above U+FFFF.
        if (cp >= 0xD800 && cp < 0xDC00 && consume("\\u")) {
          uint32_t low;
          if (!hex4(low) || low < 0xDC00 || low > 0xDFFF)
            return fail("bad surrogate pair");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        return fail(std::string("bad escape '\\") + e + "'");
      }
    }
    return fail("unterminated string");
  }

  std::optional<JsonValue> parseArray(int depth) {
    ++pos_; // '['
    std::vector<JsonValue> items;
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return JsonValue::makeArray(std::move(items));
    }
    while (true) {
      skipSpace();
      std::optional<JsonValue> v = parseValue(depth + 1);
      if (!v)
        return std::nullopt;
      items.push_back(std::move(*v));
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return JsonValue::makeArray(std::move(items));
      }
      return fail("expected ',' or ']' in array");
    }
  }

  std::optional<JsonValue> parseObject(int depth) {
    ++pos_; // '{'
    std::vector<std::pair<std::string, JsonValue>> members;
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return JsonValue::makeObject(std::move(members));
    }
    while (true) {
      skipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"')
        return fail("expected a string key in object");
      std::optional<std::string> key = parseString();
      if (!key)
        return std::nullopt;
      skipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ':')
        return fail("expected ':' after key");
      ++pos_;
      skipSpace();
      std::optional<JsonValue> v = parseValue(depth + 1);
      if (!v)
        return std::nullopt;
      members.emplace_back(std::move(*key), std::move(*v));
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return JsonValue::makeObject(std::move(members));
      }
      return fail("expected ',' or '}' in object");
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

} // namespace

JsonParseResult parseJson(std::string_view text) { return Parser(text).run(); }

} // namespace kcheck::core
