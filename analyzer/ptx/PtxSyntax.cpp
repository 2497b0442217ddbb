#include "analyzer/ptx/PtxSyntax.h"

#include <cctype>
#include <cstdlib>

namespace kcheck::analyzer::ptx {

namespace {

std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}

// Splits at `sep` outside brackets and braces.
std::vector<std::string> splitTopLevel(const std::string &s, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '{')
      ++depth;
    if (c == ']' || c == '}')
      --depth;
    if (c == sep && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty() || !out.empty())
    out.push_back(trim(cur));
  return out;
}

std::optional<int64_t> parseInteger(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  std::string t = text;
  bool negative = false;
  if (t[0] == '-' || t[0] == '+') {
    negative = t[0] == '-';
    t = t.substr(1);
  }
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0])))
    return std::nullopt;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
    base = 16, t = t.substr(2);
  if (!t.empty() && (t.back() == 'U' || t.back() == 'u'))
    t.pop_back();
  char *end = nullptr;
  uint64_t v = std::strtoull(t.c_str(), &end, base);
  if (*end)
    return std::nullopt;
  return negative ? -int64_t(v) : int64_t(v);
}

std::optional<Operand> parseOperand(const std::string &raw);

std::optional<Operand> parseAddress(const std::string &inner) {
  Operand a;
  a.kind = Operand::Kind::Address;
  std::string s = trim(inner);
  // base [+|- imm]
  size_t split = std::string::npos;
  for (size_t i = 1; i < s.size(); ++i)
    if (s[i] == '+' || (s[i] == '-' && s[i - 1] != '+'))
      split = i;
  std::string base = s, offset;
  if (split != std::string::npos) {
    base = trim(s.substr(0, split));
    offset = trim(s.substr(split + (s[split] == '+' ? 1 : 0)));
  }
  if (auto imm = parseInteger(base); imm && offset.empty()) {
    a.value = *imm;
    return a;
  }
  auto b = parseOperand(base);
  if (!b || (b->kind != Operand::Kind::AsmOperand &&
             b->kind != Operand::Kind::Register))
    return std::nullopt;
  a.elements.push_back(*b);
  if (!offset.empty()) {
    auto imm = parseInteger(offset);
    if (!imm)
      return std::nullopt;
    a.value = *imm;
  }
  return a;
}

std::optional<Operand> parseOperand(const std::string &raw) {
  std::string s = trim(raw);
  Operand o;
  if (s.empty())
    return std::nullopt;
  if (s == "_") {
    o.kind = Operand::Kind::Sink;
    return o;
  }
  if (s.front() == '[' && s.back() == ']') {
    std::vector<std::string> parts =
        splitTopLevel(s.substr(1, s.size() - 2), ',');
    if (parts.size() != 2)
      return parseAddress(s.substr(1, s.size() - 2));
    o.kind = Operand::Kind::ImageAddress;
    for (const std::string &e : parts) {
      auto element = parseOperand(e);
      if (!element)
        return std::nullopt;
      o.elements.push_back(*element);
    }
    return o;
  }
  if (s.front() == '{' && s.back() == '}') {
    o.kind = Operand::Kind::Vector;
    for (const std::string &e : splitTopLevel(s.substr(1, s.size() - 2), ',')) {
      auto element = parseOperand(e);
      if (!element)
        return std::nullopt;
      o.elements.push_back(*element);
    }
    return o;
  }
  if (size_t bar = s.find('|'); bar != std::string::npos) {
    o.kind = Operand::Kind::Pair;
    for (const std::string &e : {s.substr(0, bar), s.substr(bar + 1)}) {
      auto element = parseOperand(e);
      if (!element)
        return std::nullopt;
      o.elements.push_back(*element);
    }
    return o;
  }
  if (s[0] == '$') {
    std::string digits = s.substr(1);
    if (digits.size() > 2 && digits.front() == '{' && digits.back() == '}')
      digits = digits.substr(1, digits.size() - 2);
    auto n = parseInteger(digits);
    if (!n || *n < 0)
      return std::nullopt;
    o.kind = Operand::Kind::AsmOperand;
    o.index = unsigned(*n);
    return o;
  }
  // 0fXXXXXXXX (f32 bits) and 0dXXXXXXXXXXXXXXXX (f64 bits).
  if (s.size() > 2 && s[0] == '0' &&
      (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
    char *end = nullptr;
    uint64_t bits = std::strtoull(s.c_str() + 2, &end, 16);
    if (*end)
      return std::nullopt;
    o.kind = Operand::Kind::Immediate;
    o.value = int64_t(bits);
    o.isFloatBits = true;
    o.floatBits = (s[1] == 'f' || s[1] == 'F') ? 32 : 64;
    return o;
  }
  if (auto imm = parseInteger(s)) {
    o.kind = Operand::Kind::Immediate;
    o.value = *imm;
    return o;
  }
  // A register: %name or name, letters, digits, _, $, and a dot inside
  // special registers (%tid.x).
  bool ok = std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '%' ||
            s[0] == '_';
  for (char c : s)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                c == '%' || c == '.' || c == '$');
  if (!ok)
    return std::nullopt;
  o.kind = Operand::Kind::Register;
  o.name = s;
  return o;
}

std::vector<std::string> splitDots(const std::string &s) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

// "r<4>" declares r0..r3.
void addDeclaredNames(const std::string &spec, std::vector<std::string> &out) {
  size_t lt = spec.find('<');
  if (lt == std::string::npos || spec.back() != '>') {
    out.push_back(spec);
    return;
  }
  int n = std::atoi(spec.substr(lt + 1).c_str());
  for (int i = 0; i < n; ++i)
    out.push_back(spec.substr(0, lt) + std::to_string(i));
}

} // namespace

bool hasPart(const Statement &st, const std::string &part) {
  for (const std::string &p : st.parts)
    if (p == part)
      return true;
  return false;
}

std::vector<std::string> typesOf(const Statement &st) {
  std::vector<std::string> types;
  for (const std::string &p : st.parts)
    if (typeBits(p))
      types.push_back(p);
  return types;
}

bool isFloatType(const std::string &t) {
  return t == "f16" || t == "f16x2" || t == "bf16" || t == "bf16x2" ||
         t == "f32" || t == "f64";
}

bool isSignedType(const std::string &t) { return !t.empty() && t[0] == 's'; }

unsigned typeBits(const std::string &p) {
  if (p == "pred")
    return 1;
  if (p == "f16x2" || p == "bf16x2" || p == "e4m3x2" || p == "e5m2x2")
    return p[0] == 'e' ? 16 : 32;
  if (p.size() < 2)
    return 0;
  size_t digits = p[0] == 'b' && p.size() > 2 && p[1] == 'f' ? 2 : 1;
  char kind = p[0];
  if (!(kind == 'b' || kind == 'u' || kind == 's' || kind == 'f'))
    return 0;
  std::string n = p.substr(digits);
  if (n != "8" && n != "16" && n != "32" && n != "64")
    return 0;
  return unsigned(std::atoi(n.c_str()));
}

namespace {

// The template with comments removed, scopes flattened and each statement
// on one line, ended by ';'; nullopt (and `error`) for a statement left
// unterminated.
std::optional<std::string> flattenStatements(const std::string &templateText,
                                             std::string &error) {
  // Scopes only group declarations: flatten them. Comments go first.
  std::string text;
  for (size_t i = 0; i < templateText.size(); ++i) {
    if (templateText.compare(i, 2, "//") == 0) {
      while (i < templateText.size() && templateText[i] != '\n')
        ++i;
      continue;
    }
    text += templateText[i];
  }
  std::string flat;
  int vectorDepth = 0; // braces inside a statement are vectors
  std::string pending;
  for (char c : text) {
    if (c == ';') {
      flat += pending + ";";
      pending.clear();
      vectorDepth = 0;
      continue;
    }
    if (c == '{') {
      // A vector when the statement already has an opcode; else a scope.
      if (trim(pending).empty()) {
        pending.clear();
        continue;
      }
      ++vectorDepth;
    } else if (c == '}') {
      if (vectorDepth == 0) {
        if (!trim(pending).empty()) {
          error = "a statement without ';' before '}': " + trim(pending);
          return std::nullopt;
        }
        pending.clear();
        continue;
      }
      --vectorDepth;
    }
    pending += (c == '\n' || c == '\t') ? ' ' : c;
  }
  if (!trim(pending).empty()) {
    error = "a statement without ';': " + trim(pending);
    return std::nullopt;
  }
  return flat;
}

// .reg .TYPE a, b<4>, c; false (and `error`) for a malformed one.
bool parseRegisterDeclaration(const std::string &s, Program &program,
                              std::string &error) {
  std::string rest = trim(s.substr(4));
  if (rest.empty() || rest[0] != '.') {
    error = "a .reg declaration without a type: " + s;
    return false;
  }
  size_t space = rest.find_first_of(" \t");
  if (space == std::string::npos) {
    error = "a .reg declaration without names: " + s;
    return false;
  }
  RegisterDeclaration d;
  d.type = rest.substr(1, space - 1);
  for (const std::string &n : splitTopLevel(rest.substr(space), ','))
    addDeclaredNames(n, d.names);
  program.registers.push_back(d);
  return true;
}

// One instruction: its guard, opcode and operands; nullopt (and `error`)
// for what is not supported.
std::optional<Statement> parseStatement(std::string s, std::string &error) {
  Statement st;
  st.text = s;
  if (s[0] == '@') {
    size_t space = s.find_first_of(" \t");
    if (space == std::string::npos) {
      error = "a guard without an instruction: " + s;
      return std::nullopt;
    }
    std::string g = s.substr(1, space - 1);
    st.guardNegated = !g.empty() && g[0] == '!';
    st.guard = st.guardNegated ? g.substr(1) : g;
    s = trim(s.substr(space));
  }
  if (s.find(':') != std::string::npos && s.find("::") == std::string::npos &&
      s.back() == ':') {
    error = "a label (branches are not supported): " + s;
    return std::nullopt;
  }
  size_t space = s.find_first_of(" \t");
  st.opcode = space == std::string::npos ? s : s.substr(0, space);
  st.parts = splitDots(st.opcode);
  if (space != std::string::npos)
    for (const std::string &o : splitTopLevel(s.substr(space), ',')) {
      auto operand = parseOperand(o);
      if (!operand) {
        error = "operand '" + o + "' of: " + st.text;
        return std::nullopt;
      }
      st.operands.push_back(*operand);
    }
  return st;
}

} // namespace

std::optional<Program> parse(const std::string &templateText,
                             std::string &error) {
  Program program;
  std::optional<std::string> flat = flattenStatements(templateText, error);
  if (!flat)
    return std::nullopt;
  for (const std::string &rawStatement : splitTopLevel(*flat, ';')) {
    std::string s = trim(rawStatement);
    if (s.empty())
      continue;
    if (s.rfind(".reg", 0) == 0) {
      if (!parseRegisterDeclaration(s, program, error))
        return std::nullopt;
      continue;
    }
    std::optional<Statement> st = parseStatement(s, error);
    if (!st)
      return std::nullopt;
    program.statements.push_back(std::move(*st));
  }
  return program;
}

} // namespace kcheck::analyzer::ptx
