// HostEvaluator: the <random> engines and distributions host code draws
// launch counts and sizes from (HeCBench reverse: `count =
// distribution(generator)` launches per iteration), modelled by name as
// libstdc++ computes them, so static extraction finds the launches a run
// makes. A draw is deterministic for a known seed.
//
// Modelled (libstdc++, bits/random.h and bits/random.tcc):
// - std::linear_congruential_engine<T, a, c, m> (default_random_engine,
//   minstd_rand0, minstd_rand): one state word x; seed(s) sets x = s mod m,
//   or 1 when both c and s are 0 mod m; each draw x = (a x + c) mod m
//   (m == 0: mod 2^bits of T); min() = c == 0 ? 1 : 0, max() = m - 1.
// - std::uniform_int_distribution<T>(a = 0, b = max): the range reduction of
//   operator()(urng, param): downscaling by two divisions with rejection,
//   upscaling by recursion, or the draw itself when the ranges are equal.
//   libstdc++ 11+ uses Lemire's method instead only for engines whose range
//   is 2^32 or 2^64 (mt19937), which are not modelled.
// - std::uniform_real_distribution<T>(a = 0, b = 1): generate_canonical<T,
//   digits>: k = max(1, ceil(digits / floor(log2(range)))) draws, so that the
//   engine advances as the program's does; value a + (b - a) * canonical.
// An engine is one slot holding its state; a distribution one slot holding
// its parameters as two leaves. Anything else done to them (a call that is
// not modelled, a std::shuffle) forgets them, as for any opaque call.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace kcheck::analyzer {

using namespace clang;

namespace {

const ClassTemplateSpecializationDecl *stdTemplate(QualType t,
                                                   llvm::StringRef name) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace() || !spec->getIdentifier() ||
      spec->getName() != name)
    return nullptr;
  return spec;
}

// A linear_congruential_engine's parameters, from its template arguments.
struct Lcg {
  unsigned bits = 64; // of its result_type
  uint64_t a = 0, c = 0, m = 0;

  uint64_t modulus(unsigned __int128 v) const {
    if (m != 0)
      return uint64_t(v % m);
    return bits >= 64 ? uint64_t(v) : uint64_t(v) & ((1ull << bits) - 1);
  }
  uint64_t seeded(uint64_t s) const {
    if (bits < 64)
      s &= (1ull << bits) - 1;
    return modulus(c) == 0 && modulus(s) == 0 ? 1 : modulus(s);
  }
  uint64_t next(uint64_t x) const {
    return modulus((unsigned __int128)a * x + c);
  }
  uint64_t min() const { return modulus(c) == 0 ? 1 : 0; }
  uint64_t max() const {
    return m != 0 ? m - 1 : bits >= 64 ? ~0ull : (1ull << bits) - 1;
  }
};

std::optional<Lcg> lcgOf(QualType t, const ASTContext &ctx) {
  const auto *spec = stdTemplate(t, "linear_congruential_engine");
  if (!spec || spec->getTemplateArgs().size() != 4)
    return std::nullopt;
  const TemplateArgumentList &args = spec->getTemplateArgs();
  if (args[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  Lcg g;
  g.bits = unsigned(ctx.getTypeSize(args[0].getAsType()));
  uint64_t *params[] = {&g.a, &g.c, &g.m};
  for (unsigned k = 1; k < 4; ++k) {
    if (args[k].getKind() != TemplateArgument::Integral)
      return std::nullopt;
    *params[k - 1] = args[k].getAsIntegral().getZExtValue();
  }
  return g;
}

// The distribution's result type (its one template argument).
QualType resultTypeOf(const ClassTemplateSpecializationDecl *spec) {
  if (spec->getTemplateArgs().size() != 1 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  return spec->getTemplateArgs()[0].getAsType().getCanonicalType();
}

} // namespace

std::optional<AbstractValue>
HostEvaluator::constructStdRandom(const CXXConstructExpr *e) {
  QualType t = e->getType();
  if (std::optional<Lcg> g = lcgOf(t, ctx_)) {
    uint64_t seed = 1; // default_seed
    if (e->getNumArgs() >= 1 && !isa<CXXDefaultArgExpr>(e->getArg(0))) {
      const Expr *arg = e->getArg(0);
      HostValue s = eval(arg).scalar;
      if (s.kind != HostValue::Kind::Int)
        return AbstractValue::unknown(
            "the seed of " + describe(e, e->getExprLoc()) + " is not known");
      seed = uint64_t(s.i);
    }
    return AbstractValue::of(HostValue::integer(int64_t(g->seeded(seed))));
  }
  const auto *intDist = stdTemplate(t, "uniform_int_distribution");
  const auto *realDist = stdTemplate(t, "uniform_real_distribution");
  const auto *spec = intDist ? intDist : realDist;
  if (!spec)
    return std::nullopt;
  QualType rt = resultTypeOf(spec);
  if (rt.isNull())
    return std::nullopt;
  std::vector<AbstractValue> params = {
      AbstractValue::of(intDist ? HostValue::integer(0)
                                : HostValue::floating(0)),
      AbstractValue::of(
          intDist
              ? normalizeInt(rt->isSignedIntegerType()
                                 ? int64_t(~0ull >> (65 - ctx_.getTypeSize(rt)))
                                 : -1,
                             rt)
              : HostValue::floating(1))};
  for (unsigned k = 0; k < e->getNumArgs() && k < 2; ++k) {
    const Expr *arg = e->getArg(k);
    if (isa<CXXDefaultArgExpr>(arg))
      break;
    if (!arg->getType()->isArithmeticType()) // a param_type: not modelled
      return std::nullopt;
    params[k] =
        AbstractValue::of(convert(eval(arg).scalar, arg->getType(), rt));
  }
  return AbstractValue::object(std::move(params));
}

namespace {

// generate_canonical<T, digits<T>>(urng), in T's arithmetic, scaled to
// [a, b).
double drawUniformReal(const std::function<uint64_t()> &next, uint64_t urngMin,
                       uint64_t urngMax, bool isFloat, const HostValue &a,
                       const HostValue &b) {
  const unsigned digits = isFloat ? 24 : 53;
  const long double r = static_cast<long double>(urngMax) -
                        static_cast<long double>(urngMin) + 1.0L;
  const size_t log2r = size_t(std::log(r) / std::log(2.0L));
  const size_t k = std::max<size_t>(1, (digits + log2r - 1) / log2r);
  // The sum and the scale in T, the scale's product in long double (libstdc++
  // multiplies T by the long double range), the result scaled in T.
  auto generate = [&](auto zero) -> double {
    using T = decltype(zero);
    T sum = 0, tmp = 1;
    for (size_t i = 0; i < k; ++i) {
      sum += T(next() - urngMin) * tmp;
      tmp = T(tmp * r);
    }
    T ret = sum / tmp;
    if (ret >= 1)
      ret = std::nextafter(T(1), T(0));
    T product = ret * (T(b.f) - T(a.f));
    return double(product + T(a.f));
  };
  return isFloat ? generate(0.0f) : generate(0.0);
}

// uniform_int_distribution::operator()(urng, param), in __uctype: the
// wider of the engine's result type and the unsigned result type
// (`resultBits` wide). The draw's offset from a; `lost` stops the
// rejection loops once a draw found the engine's state not known.
uint64_t drawUniformInt(const std::function<uint64_t()> &next, const bool &lost,
                        uint64_t urngMin, uint64_t urngMax, unsigned engineBits,
                        unsigned resultBits, const HostValue &a,
                        const HostValue &b) {
  const unsigned width = std::max<unsigned>(engineBits, resultBits);
  const uint64_t wmask = width >= 64 ? ~0ull : (1ull << width) - 1;
  const uint64_t urngRange = (urngMax - urngMin) & wmask;
  auto widen = [&](int64_t v) { return uint64_t(v) & wmask; };
  std::function<uint64_t(uint64_t)> drawRange = [&](uint64_t urange) {
    uint64_t ret;
    if (urngRange > urange) {
      const uint64_t uerange = urange + 1;
      const uint64_t scaling = urngRange / uerange, past = uerange * scaling;
      do
        ret = (next() - urngMin) & wmask;
      while (ret >= past && !lost);
      return ret / scaling;
    }
    if (urngRange < urange) {
      uint64_t tmp;
      do {
        const uint64_t uerngRange = urngRange + 1;
        tmp = (uerngRange * drawRange(urange / uerngRange)) & wmask;
        ret = (tmp + ((next() - urngMin) & wmask)) & wmask;
      } while ((ret > urange || ret < tmp) && !lost);
      return ret;
    }
    return (next() - urngMin) & wmask;
  };
  return drawRange((widen(b.i) - widen(a.i)) & wmask);
}

} // namespace

// One call on an engine or a distribution: the engines it draws from, and
// why a draw's result is not known.
struct HostEvaluator::RandomCall {
  HostEvaluator &ev;
  const CallExpr *e;
  llvm::StringRef n;   // the method's name
  bool call;           // operator()
  std::string lostWhy; // why the engine's state is not known
  bool lost = false;   // a draw of next() found the state not known

  // The engine's state slot, and a draw from it.
  struct Engine {
    Lcg g;
    int slot = -1;
  };

  AbstractValue unknown(const std::string &why) const {
    return AbstractValue::unknown("result of " +
                                  ev.describe(e, e->getExprLoc()) + ": " + why);
  }
  std::optional<Engine> engineAt(const Expr *x) {
    std::optional<Lcg> g = lcgOf(x->getType(), ev.ctx_);
    if (!g)
      return std::nullopt;
    LValue lv = ev.lvalueOf(x);
    if (!ev.validSlot(lv.slot) || lv.field >= 0 || lv.leaves > 0)
      return std::nullopt;
    return Engine{*g, lv.slot};
  }
  std::optional<uint64_t> draw(Engine &en) {
    const HostValue &x = ev.at(en.slot).scalar;
    if (x.kind != HostValue::Kind::Int) {
      lostWhy = "the engine's state is not known" +
                (x.why.empty() ? std::string() : " (" + x.why + ")");
      return std::nullopt;
    }
    uint64_t next = en.g.next(uint64_t(x.i));
    ev.at(en.slot) = AbstractValue::of(HostValue::integer(int64_t(next)));
    return next;
  }
  // A draw for a distribution: 0, and `lost` set, when the state is lost.
  uint64_t next(Engine &en) {
    std::optional<uint64_t> v = draw(en);
    lost |= !v;
    return v.value_or(0);
  }
};

std::optional<AbstractValue> HostEvaluator::evalStdRandom(const CallExpr *e) {
  auto *md = dyn_cast_or_null<CXXMethodDecl>(e->getDirectCallee());
  bool op = isa<CXXOperatorCallExpr>(e);
  if (!md || md->isStatic() || (!op && !isa<CXXMemberCallExpr>(e)))
    return std::nullopt;
  if (const IdentifierInfo *id = md->getParent()->getIdentifier();
      !id || (id->getName() != "linear_congruential_engine" &&
              id->getName() != "uniform_int_distribution" &&
              id->getName() != "uniform_real_distribution"))
    return std::nullopt;
  const Expr *object =
      op ? e->getArg(0)
         : cast<CXXMemberCallExpr>(e)->getImplicitObjectArgument();
  llvm::StringRef n = md->getIdentifier() ? md->getName() : "";
  bool call = op && md->getOverloadedOperator() == OO_Call;
  RandomCall rc{*this, e, n, call, {}};
  if (lcgOf(object->getType(), ctx_))
    return evalEngineCall(rc, object);
  return evalDistributionCall(rc, object);
}

// A linear_congruential_engine's operator(), min, max, seed or discard.
std::optional<AbstractValue> HostEvaluator::evalEngineCall(RandomCall &rc,
                                                           const Expr *object) {
  const CallExpr *e = rc.e;
  llvm::StringRef n = rc.n;
  std::optional<Lcg> g = lcgOf(object->getType(), ctx_);
  std::optional<RandomCall::Engine> en = rc.engineAt(object);
  if (!en)
    return std::nullopt;
  QualType rt = e->getType().getNonReferenceType();
  if (rc.call && e->getNumArgs() == 1) {
    std::optional<uint64_t> v = rc.draw(*en);
    return v ? AbstractValue::of(normalizeInt(int64_t(*v), rt))
             : rc.unknown(rc.lostWhy);
  }
  if ((n == "min" || n == "max") && e->getNumArgs() == 0)
    return AbstractValue::of(
        normalizeInt(int64_t(n == "min" ? g->min() : g->max()), rt));
  if (n == "seed" && e->getNumArgs() <= 1) {
    uint64_t seed = 1;
    if (e->getNumArgs() == 1 && !isa<CXXDefaultArgExpr>(e->getArg(0))) {
      HostValue s = eval(e->getArg(0)).scalar;
      if (s.kind != HostValue::Kind::Int) {
        at(en->slot) = AbstractValue::unknown("seeded with an unknown value");
        return AbstractValue::unknown("void");
      }
      seed = uint64_t(s.i);
    }
    at(en->slot) =
        AbstractValue::of(HostValue::integer(int64_t(g->seeded(seed))));
    return AbstractValue::unknown("void");
  }
  if (n == "discard" && e->getNumArgs() == 1) {
    HostValue k = eval(e->getArg(0)).scalar;
    if (k.kind != HostValue::Kind::Int || k.i < 0 || k.i > (1 << 24)) {
      at(en->slot) = AbstractValue::unknown("discarded an unknown count");
      return AbstractValue::unknown("void");
    }
    for (int64_t i = 0; i < k.i; ++i)
      rc.draw(*en);
    return AbstractValue::unknown("void");
  }
  return std::nullopt;
}

// A uniform_int_distribution's or uniform_real_distribution's a, b, min,
// max, or operator()(engine).
std::optional<AbstractValue>
HostEvaluator::evalDistributionCall(RandomCall &rc, const Expr *object) {
  const CallExpr *e = rc.e;
  llvm::StringRef n = rc.n;
  QualType objectType = object->getType();
  const auto *intDist = stdTemplate(objectType, "uniform_int_distribution");
  const auto *realDist = stdTemplate(objectType, "uniform_real_distribution");
  if (!intDist && !realDist)
    return std::nullopt;
  QualType rt = resultTypeOf(intDist ? intDist : realDist);
  if (rt.isNull() || (realDist && ctx_.getTypeSize(rt) != 32 &&
                      ctx_.getTypeSize(rt) != 64)) // long double: not modelled
    return std::nullopt;
  AbstractValue params = eval(object);
  if (!params.leaves || params.leaves->size() != 2)
    return std::nullopt;
  const HostValue &a = (*params.leaves)[0].scalar,
                  &b = (*params.leaves)[1].scalar;
  if ((n == "a" || n == "b" || n == "min" || n == "max") &&
      e->getNumArgs() == 0)
    return AbstractValue::of(n == "a" || n == "min" ? a : b);
  if (!rc.call || e->getNumArgs() != 2)
    return std::nullopt;
  std::optional<RandomCall::Engine> en = rc.engineAt(e->getArg(1));
  if (!en)
    return std::nullopt; // another engine: the opaque call forgets it
  if (!a.known() || !b.known()) {
    at(en->slot) = AbstractValue::unknown("drawn from with unknown bounds");
    return rc.unknown("the distribution's bounds are not known");
  }
  const uint64_t urngMin = en->g.min(), urngMax = en->g.max();
  auto next = [&]() { return rc.next(*en); };
  if (realDist) {
    double canonical = drawUniformReal(next, urngMin, urngMax,
                                       ctx_.getTypeSize(rt) == 32, a, b);
    if (rc.lost)
      return rc.unknown(rc.lostWhy);
    return AbstractValue::of(HostValue::floating(canonical));
  }
  uint64_t ret = drawUniformInt(next, rc.lost, urngMin, urngMax, en->g.bits,
                                unsigned(ctx_.getTypeSize(rt)), a, b);
  if (rc.lost)
    return rc.unknown(rc.lostWhy);
  return AbstractValue::of(normalizeInt(int64_t(ret + uint64_t(a.i)), rt));
}

} // namespace kcheck::analyzer
