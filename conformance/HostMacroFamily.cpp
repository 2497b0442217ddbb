#include "conformance/HostMacroFamily.h"

#include "analyzer/toolchain/CudaToolkit.h"
#include "analyzer/toolchain/RunProgram.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Program.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>
#include <vector>

namespace kcheck::conformance {

namespace {

struct HostMacroExclusion {
  const char *pattern, *reason;
};
constexpr HostMacroExclusion kExclusions[] = {
#define KCHECK_HOST_MACRO_EXCLUDED(pattern, reason) {pattern, reason},
#include "conformance/HostMacroExclusions.def"
};

bool matches(llvm::StringRef pattern, llvm::StringRef name) {
  if (pattern.ends_with("*"))
    return name.starts_with(pattern.drop_back());
  return pattern == name;
}

// Whitespace collapsed, none around `##`, parentheses and commas.
std::string canonical(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> words;
  text.split(words, ' ', -1, false);
  std::string out;
  for (llvm::StringRef w : words) {
    w = w.trim();
    if (w.empty())
      continue;
    auto tight = [](char c) {
      return c == '#' || c == '(' || c == ')' || c == ',';
    };
    if (!out.empty() && !tight(out.back()) && !tight(w.front()))
      out += ' ';
    out += w.str();
  }
  return out;
}

// A type named by its specifiers, in one order, `int` dropped beside
// short or long: `short unsigned int` and `unsigned short` alike.
std::optional<std::string> typeName(llvm::StringRef text) {
  static const std::set<std::string> specifiers = {
      "unsigned", "signed", "short", "long", "int", "char"};
  llvm::SmallVector<llvm::StringRef> words;
  text.split(words, ' ', -1, false);
  std::vector<std::string> w;
  bool sized = false;
  for (llvm::StringRef s : words) {
    if (!specifiers.count(s.str()))
      return std::nullopt;
    sized |= s == "short" || s == "long";
    w.push_back(s.str());
  }
  if (w.empty())
    return std::nullopt;
  if (sized)
    w.erase(std::remove(w.begin(), w.end(), "int"), w.end());
  std::sort(w.begin(), w.end());
  return llvm::join(w, " ");
}

// An integer literal (decimal or hex, any u/l suffix).
std::optional<unsigned long long> integer(llvm::StringRef text) {
  text = text.rtrim("uUlL");
  unsigned long long v = 0;
  if (text.empty() || text.getAsInteger(0, v))
    return std::nullopt;
  return v;
}

// A floating literal, in the type of macro `name`'s family.
std::optional<long double> floating(const std::string &name,
                                    llvm::StringRef text) {
  // GCC's C++ spelling: `double(1.79...e+308L)`.
  for (llvm::StringRef type : {"long double(", "double(", "float("})
    if (text.starts_with(type) && text.ends_with(")")) {
      text = text.drop_front(type.size()).drop_back();
      break;
    }
  for (llvm::StringRef suffix :
       {"F16", "F32", "F64", "f16", "F", "f", "L", "l"})
    if (text.ends_with(suffix)) {
      text = text.drop_back(suffix.size());
      break;
    }
  std::string s = text.str();
  if (s.empty() || s.find_first_of(".eExX") == std::string::npos)
    return std::nullopt;
  char *end = nullptr;
  long double v = std::strtold(s.c_str(), &end);
  if (!end || *end)
    return std::nullopt;
  llvm::StringRef n(name);
  if (n.starts_with("__FLT_") || n.starts_with("__FLT16_"))
    return static_cast<long double>(static_cast<float>(v));
  if (n.starts_with("__DBL_"))
    return static_cast<long double>(static_cast<double>(v));
  return v;
}

} // namespace

bool sameMacroValue(const std::string &name, const std::string &a,
                    const std::string &b) {
  std::string x = canonical(a), y = canonical(b);
  if (x == y)
    return true;
  if (auto tx = typeName(x), ty = typeName(y); tx && ty)
    return *tx == *ty;
  if (auto ix = integer(x), iy = integer(y); ix && iy)
    return *ix == *iy;
  if (auto fx = floating(name, x), fy = floating(name, y); fx && fy)
    return *fx == *fy;
  return false;
}

Family hostMacroFamily(const MacroTable &gcc, const KcheckMacros &kcheck) {
  Family f;
  f.name = "the host compiler's predefined macros";
  f.source = "the macros the host compiler nvcc runs defines itself (`gcc -E "
             "-x c++ -m64 -dM` of an empty file, as `nvcc --dryrun` runs it)";
  f.provider = "Clang's host compiles (the static host parse and the host of "
               "`kcheck run`, with `-fgnuc-version` of that gcc); exclusions "
               "in `conformance/HostMacroExclusions.def`";
  std::vector<bool> used(std::size(kExclusions), false);
  for (const auto &[name, value] : gcc) {
    Entry e;
    e.name = name;
    std::string differs;
    std::pair<const char *, const MacroTable *> passes[] = {
        {"static host parse", &kcheck.hostParse},
        {"host of kcheck run", &kcheck.hostRun}};
    for (const auto &[pass, table] : passes) {
      auto m = table->find(name);
      std::string got = m == table->end() ? "not defined" : m->second;
      if (m == table->end() || !sameMacroValue(name, value, m->second))
        differs += std::string(differs.empty() ? "" : "; ") + pass + ": " + got;
    }
    const HostMacroExclusion *x = nullptr;
    for (size_t i = 0; i < std::size(kExclusions) && !x; ++i)
      if (matches(kExclusions[i].pattern, name)) {
        x = &kExclusions[i];
        used[i] = true;
      }
    if (differs.empty()) {
      e.status = Status::Provided;
      e.note = value;
      if (x && !llvm::StringRef(x->pattern).ends_with("*"))
        f.stale.push_back(name + ": provided and excluded");
    } else if (x) {
      e.status = Status::Excluded;
      e.note = x->reason;
    } else {
      e.note = "gcc: " + value + "; kcheck: " + differs;
    }
    f.entries.push_back(std::move(e));
  }
  for (size_t i = 0; i < std::size(kExclusions); ++i)
    if (!used[i])
      f.stale.push_back(std::string(kExclusions[i].pattern) +
                        ": excluded, but gcc defines no such macro");
  return f;
}

std::optional<Family> hostMacroFamilyOf(const std::string &root,
                                        std::string &why) {
  std::optional<analyzer::CudaToolkit> toolkit =
      analyzer::findCudaToolkit(root, why);
  if (!toolkit)
    return std::nullopt;
  llvm::ErrorOr<std::string> gcc = llvm::sys::findProgramByName("gcc");
  if (!gcc) {
    why = "no gcc on PATH, the host compiler nvcc runs";
    return std::nullopt;
  }
  std::optional<analyzer::ProgramOutput> out = analyzer::runProgram(
      *gcc, {"-E", "-x", "c++", "-m64", "-dM", "/dev/null"}, /*seconds=*/30);
  if (!out || out->exitCode != 0) {
    why = "`gcc -E -x c++ -m64 -dM /dev/null` failed";
    return std::nullopt;
  }
  MacroTable macros;
  std::istringstream lines(out->text);
  for (std::string line; std::getline(lines, line);) {
    llvm::StringRef l(line);
    if (!l.consume_front("#define "))
      continue;
    size_t end = l.find_first_of(" (");
    llvm::StringRef name = l.take_front(end);
    llvm::StringRef rest =
        end == llvm::StringRef::npos ? "" : l.drop_front(end);
    macros[name.str()] = rest.trim().str();
  }
  // The same empty program, compiled as kcheck compiles a host side.
  return withEmptyProgram(
      [&](const std::string &input) -> std::optional<Family> {
        std::optional<KcheckMacros> kcheck =
            kcheckMacrosForOption(*toolkit, input, "", why);
        if (!kcheck)
          return std::nullopt;
        return hostMacroFamily(macros, *kcheck);
      },
      why);
}

} // namespace kcheck::conformance
