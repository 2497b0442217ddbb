// HostEvaluator: the program's arguments (--program-args), read by the
// usual conversions (atoi, strtol, std::stoi, sscanf...).
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/ExprCXX.h"

#include <cstdio>

namespace kcheck::analyzer {

using namespace clang;

std::optional<std::string> HostEvaluator::programArgument(const Expr *e) {
  if (!options_.programArgs)
    return std::nullopt;
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (auto *t = dyn_cast<CXXBindTemporaryExpr>(e))
      e = t->getSubExpr();
    else if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (auto *c = dyn_cast<CXXConstructExpr>(e);
             c && c->getNumArgs() >= 1) // std::string(argv[1])
      e = c->getArg(0);
    else if (auto *f = dyn_cast<CXXFunctionalCastExpr>(e))
      e = f->getSubExpr();
    else
      break;
  }
  auto *as = dyn_cast<ArraySubscriptExpr>(e);
  if (!as)
    return std::nullopt;
  // argv itself, or argv passed on to another function.
  HostValue base = eval(as->getBase()).scalar;
  if (base.kind != HostValue::Kind::HostPtr ||
      base.allocation != HostValue::kProgramArguments)
    return std::nullopt;
  HostValue k = eval(as->getIdx()).scalar;
  if (k.kind != HostValue::Kind::Int || k.i < 0 ||
      k.i > int64_t(options_.programArgs->size()))
    return std::nullopt;
  return k.i == 0 ? std::string("program")
                  : (*options_.programArgs)[size_t(k.i - 1)];
}

std::optional<AbstractValue>
HostEvaluator::evalArgumentConversion(const CallExpr *e,
                                      const std::string &name) {
  static const char *const integers[] = {
      "atoi",     "atol", "atoll", "strtol", "strtoll", "strtoul",
      "strtoull", "stoi", "stol",  "stoll",  "stoul",   "stoull"};
  static const char *const floats[] = {"atof", "strtod", "strtof", "strtold",
                                       "stof", "stod",   "stold"};
  bool isInt = llvm::is_contained(integers, name);
  if ((!isInt && !llvm::is_contained(floats, name)) || e->getNumArgs() == 0)
    return std::nullopt;
  std::optional<std::string> text = programArgument(e->getArg(0));
  if (!text)
    return std::nullopt;
  for (unsigned i = 1; i < e->getNumArgs(); ++i)
    eval(e->getArg(i));
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  const char *begin = text->c_str();
  char *end = nullptr;
  if (isInt) {
    int base = 10;
    if (llvm::StringRef(name).starts_with("strto") && e->getNumArgs() > 2) {
      HostValue b = eval(e->getArg(2)).scalar;
      if (b.kind == HostValue::Kind::Int)
        base = int(b.i);
    }
    bool isUnsigned = llvm::StringRef(name).contains("ul");
    int64_t v = isUnsigned ? int64_t(std::strtoull(begin, &end, base))
                           : int64_t(std::strtoll(begin, &end, base));
    return AbstractValue::of(normalizeInt(v, rt));
  }
  double v = std::strtod(begin, &end);
  return AbstractValue::of(convert(HostValue::floating(v), ctx_.DoubleTy, rt));
}

namespace {

// One conversion at a time, each through the C library's own sscanf on
// what is left of the text, so that the values are the program's.
struct ScanConversion {
  std::string spec; // "%d", "%lf", " %c"...
  char kind;        // 'i' integer, 'u' unsigned, 'f' floating, 'c' char
};

// The conversions of a sscanf format, each with the literal text before it;
// nullopt for a format not read here.
std::optional<std::vector<ScanConversion>> scanConversions(llvm::StringRef f) {
  std::vector<ScanConversion> conversions;
  std::string literal; // text between conversions, matched as sscanf does
  for (size_t k = 0; k < f.size(); ++k) {
    if (f[k] != '%') {
      literal += f[k];
      continue;
    }
    size_t end = k + 1;
    while (end < f.size() && llvm::StringRef("hlLqjzt").contains(f[end]))
      ++end;
    if (end >= f.size() || f[end] == '%' || f[end] == '*')
      return std::nullopt;
    char c = f[end];
    char kind = llvm::StringRef("di").contains(c)         ? 'i'
                : llvm::StringRef("uxXo").contains(c)     ? 'u'
                : llvm::StringRef("fFeEgGaA").contains(c) ? 'f'
                : c == 'c'                                ? 'c'
                                                          : 0;
    if (!kind)
      return std::nullopt; // %s, %[...], %n, %p: not read here
    conversions.push_back(
        {literal + f.substr(k, end + 1 - k).str() + "%n", kind});
    literal.clear();
    k = end;
  }
  return conversions;
}

} // namespace

std::optional<AbstractValue>
HostEvaluator::evalArgumentScan(const CallExpr *e, const std::string &name) {
  if (name != "sscanf" || e->getNumArgs() < 2)
    return std::nullopt;
  std::optional<std::string> text = programArgument(e->getArg(0));
  const auto *format =
      dyn_cast<StringLiteral>(e->getArg(1)->IgnoreParenImpCasts());
  if (!text || !format || !format->isOrdinary())
    return std::nullopt;
  std::optional<std::vector<ScanConversion>> parsed =
      scanConversions(format->getString());
  if (!parsed)
    return std::nullopt;
  const std::vector<ScanConversion> &conversions = *parsed;
  if (conversions.size() + 2 != e->getNumArgs())
    return std::nullopt;
  // The conversion read into the widest type of its kind ("%d%n" ->
  // "%lld%n"), whatever the program's own length modifier.
  auto withLength = [](std::string spec, const char *length) {
    size_t percent = spec.rfind('%', spec.size() - 3);
    size_t letter = spec.find_first_not_of("hlLqjzt", percent + 1);
    return spec.replace(percent + 1, letter - percent - 1, length);
  };
  size_t at_ = 0;
  int64_t assigned = 0;
  for (size_t n = 0; n < conversions.size(); ++n) {
    const ScanConversion &c = conversions[n];
    const Expr *target = e->getArg(unsigned(n + 2));
    QualType type = target->getType()->getPointeeType().getCanonicalType();
    AbstractValue pointer = eval(target);
    if (type.isNull() || pointer.slotRef < 0 || !validSlot(pointer.slotRef))
      return std::nullopt;
    const char *rest = text->c_str() + at_;
    int used = 0;
    HostValue value;
    if (c.kind == 'f') {
      long double v = 0;
      if (std::sscanf(rest, withLength(c.spec, "L").c_str(), &v, &used) != 1)
        break;
      value = convert(HostValue::floating(double(v)), ctx_.DoubleTy, type);
    } else if (c.kind == 'c') {
      char v = 0;
      if (std::sscanf(rest, c.spec.c_str(), &v, &used) != 1)
        break;
      value = normalizeInt(int64_t(v), type);
    } else {
      long long v = 0;
      if (std::sscanf(rest, withLength(c.spec, "ll").c_str(), &v, &used) != 1)
        break;
      value = normalizeInt(int64_t(v), type);
    }
    at(pointer.slotRef) = AbstractValue::of(value);
    at_ += size_t(used);
    ++assigned;
  }
  return AbstractValue::of(normalizeInt(
      assigned, e->getType().getNonReferenceType().getCanonicalType()));
}

} // namespace kcheck::analyzer
