// HostEvaluator: objects. A struct or class of the user's, or an
// array of any rank, is flattened into consecutive store slots, one per scalar
// leaf (bases first, then fields, in declaration order; an array's elements in
// order), so `s.a[2].x`, `&s`, `p->n` and copies are all slot arithmetic.
// Records kcheck does not see into stay one opaque slot: those of system
// headers (std::vector, cudaDeviceProp: modelled by name; std::pair and the
// runtime's texture descriptors are flattened), unions,
// polymorphic classes, lambdas, and records with bit-fields or references.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

namespace kcheck::analyzer {

using namespace clang;

// CUDA's vector types (int4, float2, uchar1...): plain x/y/z/w structs.
static bool isVectorType(const RecordDecl *rd) {
  if (!rd->getIdentifier())
    return false;
  llvm::StringRef n = rd->getName();
  if (n.empty() || !llvm::StringRef("1234").contains(n.back()))
    return false;
  n = n.drop_back();
  static const char *const scalars[] = {
      "char", "uchar", "short",    "ushort",    "int",   "uint",
      "long", "ulong", "longlong", "ulonglong", "float", "double"};
  return llvm::is_contained(scalars, n);
}

// The runtime's descriptors host code fills field by field and hands to the
// calls HostEvaluatorTextures.cpp follows, and the records and unions
// nested in them (a union's members each their own slots: host code writes
// the one its descriptor's type names).
static bool isFollowedRuntimeDescriptor(const RecordDecl *rd) {
  static const char *const names[] = {"cudaChannelFormatDesc",
                                      "cudaResourceDesc",
                                      "cudaTextureDesc",
                                      "cudaResourceViewDesc",
                                      "cudaExtent",
                                      "cudaPos",
                                      "cudaPitchedPtr",
                                      "cudaMemcpy3DParms",
                                      "cudaKernelNodeParams",
                                      "cudaMemsetParams",
                                      "cudaGraphNodeParams",
                                      "cudaLaunchConfig_st",
                                      "cudaLaunchAttribute_st",
                                      "cudaLaunchAttributeValue"};
  for (const DeclContext *dc = rd; dc; dc = dc->getParent()) {
    const auto *r = dyn_cast<RecordDecl>(dc);
    if (!r)
      return false;
    if (r->getIdentifier() && llvm::is_contained(names, r->getName()))
      return true;
  }
  return false;
}

bool HostEvaluator::opaqueRecord(const RecordDecl *rd) const {
  rd = rd->getDefinition();
  if (!rd || rd->isInvalidDecl())
    return true;
  if (isFollowedRuntimeDescriptor(rd))
    return false;
  if (rd->isUnion())
    return true;
  if (isVectorType(rd))
    return false;
  // Library records stay opaque (modelled by name), but std::pair, which
  // host code fills field by field and passes to kernels, and the toolkit's
  // 16-bit floats (one `unsigned short` each), which the half conversions
  // make (evalHalfConversion) and kernels take as scalar arguments.
  if (inUnfollowedSystemHeader(rd->getLocation())) {
    static const char *const transparent[] = {"__half",
                                              "__half2",
                                              "__half_raw",
                                              "__half2_raw",
                                              "__nv_bfloat16",
                                              "__nv_bfloat162",
                                              "__nv_bfloat16_raw",
                                              "__nv_bfloat162_raw"};
    if (!rd->getIdentifier())
      return true;
    if (rd->isInStdNamespace())
      return rd->getName() != "pair";
    return !rd->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
           !llvm::is_contained(transparent, rd->getName());
  }
  if (rd->getIdentifier() && rd->getName().starts_with("cuda"))
    return true; // the runtime's own structs, also from the bundled headers
  if (auto *cxx = dyn_cast<CXXRecordDecl>(rd))
    if (cxx->isLambda() || cxx->isPolymorphic() || cxx->getNumVBases())
      return true;
  for (const FieldDecl *f : rd->fields())
    if (f->isBitField())
      return true;
  return false;
}

// A reference member kept as a copy of what it refers to: a reference to
// const, which the object never writes through, or to a function object
// (CuTe's `FoldAdaptor<F&, V>`): a lambda, whose captures are its frame's
// variables (AbstractValue::closure), or a class without members. The copy is
// taken when the object is made; a referent changed later through another name
// is not seen (host code does not do this with the objects it computes launches
// from).
bool HostEvaluator::snapshotReference(QualType t) const {
  if (!t->isReferenceType())
    return false;
  QualType to = t.getNonReferenceType();
  if (to.isConstQualified())
    return true;
  const CXXRecordDecl *rd = to->getAsCXXRecordDecl();
  return rd && rd->hasDefinition() && (rd->isLambda() || rd->isEmpty());
}

// Leaves of any type: scalars, dim3 and opaque records count one, and so
// does a reference member that is not a snapshot (an alias: its leaf holds
// the referent's address, as a pointer would).
std::optional<uint64_t> HostEvaluator::leafCount(QualType t) const {
  if (snapshotReference(t)) // a member the object keeps a copy of
    t = t.getNonReferenceType();
  else if (t->isReferenceType())
    return 1;
  t = t.getCanonicalType();
  if (t->isIncompleteType() || t->isDependentType())
    return std::nullopt;
  if (isDim3(t) || t->isScalarType())
    return 1;
  auto it = leafCache_.find(t.getTypePtr());
  if (it != leafCache_.end())
    return it->second;
  std::optional<uint64_t> n;
  if (auto *at = ctx_.getAsConstantArrayType(t)) {
    if (std::optional<uint64_t> e = leafCount(at->getElementType());
        e && at->getZExtSize() <= kMaxArray)
      n = *e * at->getZExtSize();
  } else if (const RecordDecl *rd = t->getAsRecordDecl()) {
    auto *cxx = dyn_cast<CXXRecordDecl>(rd);
    if (cxx && cxx->hasDefinition() && cxx->isEmpty()) {
      n = 0; // an empty base or tag type: no bytes to track
    } else if (opaqueRecord(rd)) {
      n = 1;
    } else {
      uint64_t total = 0;
      bool ok = true;
      if (auto *cxx = dyn_cast<CXXRecordDecl>(rd->getDefinition()))
        for (const CXXBaseSpecifier &b : cxx->bases()) {
          std::optional<uint64_t> k = leafCount(b.getType());
          ok = ok && k;
          total += k.value_or(0);
        }
      for (const FieldDecl *f : rd->getDefinition()->fields()) {
        std::optional<uint64_t> k = leafCount(f->getType());
        ok = ok && k;
        total += k.value_or(0);
      }
      if (ok)
        n = total;
    }
  }
  if (n && *n > kMaxArray)
    n.reset();
  leafCache_[t.getTypePtr()] = n;
  return n;
}

std::optional<uint64_t> HostEvaluator::objectLeaves(QualType t) const {
  t = t.getCanonicalType();
  if (isDim3(t) || t->isScalarType())
    return std::nullopt;
  if (const RecordDecl *rd = t->getAsRecordDecl(); rd && opaqueRecord(rd))
    return std::nullopt;
  if (!t->isRecordType() && !ctx_.getAsConstantArrayType(t))
    return std::nullopt;
  return leafCount(t);
}

// The scalar type of a type's only leaf: the type itself, or the one field
// (through nested records) of a record of one leaf, such as __half.
std::optional<QualType> HostEvaluator::singleLeafType(QualType t) const {
  t = t.getNonReferenceType().getCanonicalType();
  if (t->isScalarType())
    return t;
  std::optional<uint64_t> n = objectLeaves(t);
  if (!n || *n != 1 || !t->isRecordType())
    return std::nullopt;
  auto *cxx = t->getAsCXXRecordDecl();
  if (cxx && cxx->getNumBases())
    return std::nullopt;
  for (const FieldDecl *f : t->getAsRecordDecl()->getDefinition()->fields())
    if (leafCount(f->getType()).value_or(0) == 1)
      return singleLeafType(f->getType());
  return std::nullopt;
}

uint64_t HostEvaluator::fieldLeaf(const FieldDecl *fd) const {
  const RecordDecl *rd = fd->getParent()->getDefinition();
  uint64_t k = 0;
  if (auto *cxx = dyn_cast<CXXRecordDecl>(rd))
    for (const CXXBaseSpecifier &b : cxx->bases())
      k += leafCount(b.getType()).value_or(0);
  for (const FieldDecl *f : rd->fields()) {
    if (f == fd)
      return k;
    k += leafCount(f->getType()).value_or(0);
  }
  return k;
}

void HostEvaluator::leafLayout(QualType t, uint64_t offset,
                               const std::string &path,
                               std::vector<ArgField> &out) const {
  t = t.getCanonicalType();
  auto scalar = [&](ArgField::Type type, uint64_t at, uint32_t bytes,
                    std::string where) {
    ArgField f;
    f.type = type;
    f.offset = at;
    f.bytes = bytes;
    f.path = std::move(where);
    out.push_back(std::move(f));
  };
  if (isDim3(t)) {
    for (int k = 0; k < 3; ++k)
      scalar(ArgField::Type::Int, offset + 4 * k, 4,
             path + "." + std::string(1, char('x' + k)));
    return;
  }
  uint32_t bytes = uint32_t(ctx_.getTypeSizeInChars(t).getQuantity());
  if (t->isScalarType()) {
    scalar(t->isPointerType() ? ArgField::Type::Pointer
           : t->isRealFloatingType()
               ? (bytes == 8 ? ArgField::Type::Double : ArgField::Type::Float)
               : ArgField::Type::Int,
           offset, bytes, path);
    return;
  }
  if (auto *at = ctx_.getAsConstantArrayType(t)) {
    uint64_t stride =
        ctx_.getTypeSizeInChars(at->getElementType()).getQuantity();
    for (uint64_t i = 0; i < at->getZExtSize(); ++i)
      leafLayout(at->getElementType(), offset + i * stride,
                 path + "[" + std::to_string(i) + "]", out);
    return;
  }
  const RecordDecl *rd = t->getAsRecordDecl();
  if (leafCount(t) == std::optional<uint64_t>(0))
    return;
  if (!rd || opaqueRecord(rd)) { // one leaf no value can fill
    scalar(ArgField::Type::Int, offset, bytes, path);
    return;
  }
  rd = rd->getDefinition();
  const ASTRecordLayout &layout = ctx_.getASTRecordLayout(rd);
  if (auto *cxx = dyn_cast<CXXRecordDecl>(rd))
    for (const CXXBaseSpecifier &b : cxx->bases())
      leafLayout(
          b.getType(),
          offset + layout.getBaseClassOffset(b.getType()->getAsCXXRecordDecl())
                       .getQuantity(),
          path, out);
  for (const FieldDecl *f : rd->fields())
    leafLayout(f->getType(),
               offset + layout.getFieldOffset(f->getFieldIndex()) / 8,
               path + "." + f->getNameAsString(), out);
}

std::vector<AbstractValue> HostEvaluator::initObject(QualType t,
                                                     const Expr *init,
                                                     bool zero,
                                                     const std::string &name) {
  if (snapshotReference(t))
    t = t.getNonReferenceType();
  t = t.getCanonicalType();
  uint64_t n = leafCount(t).value_or(1);
  auto filled = [&](AbstractValue v) {
    return std::vector<AbstractValue>(n, v);
  };
  AbstractValue uninitialised =
      AbstractValue::unknown("uninitialised part of `" + name + "`");
  if (init)
    init = init->IgnoreParens();
  if (auto *ewc = dyn_cast_or_null<ExprWithCleanups>(init))
    init = ewc->getSubExpr();
  if (!init || isa<ImplicitValueInitExpr>(init) ||
      isa<CXXScalarValueInitExpr>(init))
    return initObjectByDefault(t, init != nullptr, zero, name);
  if (t->isScalarType() || isDim3(t) || !objectLeaves(t))
    return {eval(init)};
  if (auto *il = dyn_cast<InitListExpr>(init))
    return initObjectFromList(t, il, name);
  if (auto *ce = dyn_cast<CXXConstructExpr>(init)) {
    const CXXConstructorDecl *ctor = ce->getConstructor();
    if (ctor->isCopyOrMoveConstructor() && ce->getNumArgs() >= 1)
      return initObject(t, ce->getArg(0), zero, name);
    std::vector<AbstractValue> leaves =
        ce->requiresZeroInitialization() || zero
            ? filled(AbstractValue::of(HostValue::integer(0)))
            : filled(uninitialised);
    construct(ce, t, leaves);
    return leaves;
  }
  AbstractValue v = eval(init);
  if (v.leaves && v.leaves->size() == n)
    return *v.leaves;
  std::string why = v.why();
  return filled(AbstractValue::unknown(
      why.empty()
          ? "`" + name + "` is initialised by " +
                describe(init, init->getExprLoc()) + ", which is not evaluated"
          : why));
}

// No initialiser (`valueInitialised`: `T()`, `{}`): zeros, or what is
// left uninitialised. `t` is canonical.
std::vector<AbstractValue>
HostEvaluator::initObjectByDefault(QualType t, bool valueInitialised, bool zero,
                                   const std::string &name) {
  uint64_t n = leafCount(t).value_or(1);
  auto filled = [&](AbstractValue v) {
    return std::vector<AbstractValue>(n, v);
  };
  AbstractValue uninitialised =
      AbstractValue::unknown("uninitialised part of `" + name + "`");
  bool z = zero || valueInitialised;
  if (isDim3(t) && !z)
    return {AbstractValue::unknown("uninitialised `" + name + "`")};
  if (t->isScalarType() || isDim3(t) || z) {
    if (isDim3(t)) {
      AbstractValue d;
      d.dim = {HostValue::integer(z ? 0 : 1), HostValue::integer(z ? 0 : 1),
               HostValue::integer(z ? 0 : 1)};
      return {d};
    }
    return z ? filled(AbstractValue::of(HostValue::integer(0)))
             : filled(uninitialised);
  }
  // An object without initialiser: its default constructor, if any.
  if (const auto *cxx = t->getAsCXXRecordDecl();
      cxx && cxx->hasUserProvidedDefaultConstructor())
    return filled(AbstractValue::unknown(
        "`" + name + "`: its default constructor is not evaluated"));
  return filled(uninitialised);
}

// `{a, b, ...}` (`t` canonical): bases, then fields or elements; the rest 0.
std::vector<AbstractValue>
HostEvaluator::initObjectFromList(QualType t, const InitListExpr *il,
                                  const std::string &name) {
  uint64_t n = leafCount(t).value_or(1);
  std::vector<AbstractValue> out;
  out.reserve(n);
  auto part = [&](QualType pt, const Expr *e) {
    if (aliasingReference(pt)) { // `{x, n}` of a struct with `T &r`
      out.push_back(e ? addressOf(e) : AbstractValue::unknown(name));
      return;
    }
    std::vector<AbstractValue> p = initObject(pt, e, true, name);
    p.resize(leafCount(pt).value_or(1), // an empty member has no leaves
             AbstractValue::of(HostValue::integer(0)));
    out.insert(out.end(), p.begin(), p.end());
  };
  unsigned k = 0;
  auto next = [&]() -> const Expr * {
    if (k < il->getNumInits())
      return il->getInit(k++);
    return il->getArrayFiller(); // may be null: zero-initialised
  };
  if (auto *at = ctx_.getAsConstantArrayType(t)) {
    for (uint64_t i = 0; i < at->getZExtSize(); ++i)
      part(at->getElementType(), next());
  } else if (const RecordDecl *rd = t->getAsRecordDecl()) {
    rd = rd->getDefinition();
    if (auto *cxx = dyn_cast<CXXRecordDecl>(rd))
      for (const CXXBaseSpecifier &b : cxx->bases())
        part(b.getType(), next());
    for (const FieldDecl *f : rd->fields())
      part(f->getType(), k < il->getNumInits() ? il->getInit(k++)
                                               : f->getInClassInitializer());
  }
  out.resize(n, AbstractValue::of(HostValue::integer(0)));
  return out;
}

void HostEvaluator::construct(const CXXConstructExpr *e, QualType t,
                              std::vector<AbstractValue> &leaves,
                              const CXXConstructorDecl *inherited) {
  t = t.getCanonicalType();
  if (auto *at = ctx_.getAsConstantArrayType(t)) {
    // An array of objects: the constructor runs for each element.
    uint64_t per = leafCount(at->getElementType()).value_or(0);
    for (uint64_t i = 0; per && i < at->getZExtSize(); ++i) {
      std::vector<AbstractValue> element(leaves.begin() + i * per,
                                         leaves.begin() + (i + 1) * per);
      construct(e, at->getElementType(), element);
      std::copy(element.begin(), element.end(), leaves.begin() + i * per);
    }
    return;
  }
  if (!t->getAsRecordDecl())
    return;
  const CXXConstructorDecl *ctor = inherited ? inherited : e->getConstructor();
  if (ctor->isInheritingConstructor())
    return constructInherited(e, ctor, leaves);
  const FunctionDecl *def = nullptr;
  if (ctor->isTrivial() || (ctor->isDefaulted() && !ctor->hasBody(def))) {
    // Implicit: members' own initialisers.
    if (const RecordDecl *rd = t->getAsRecordDecl())
      for (const FieldDecl *f : rd->getDefinition()->fields())
        if (const Expr *in = f->getInClassInitializer()) {
          std::vector<AbstractValue> v =
              initObject(f->getType(), in, true, f->getNameAsString());
          v.resize(leafCount(f->getType()).value_or(1));
          std::copy(v.begin(), v.end(), leaves.begin() + fieldLeaf(f));
        }
    for (const Expr *a : e->arguments())
      eval(a);
    return;
  }
  if (!ctor->hasBody(def) || !budgetLeft(e->getExprLoc()) ||
      frames_.size() > options_.maxCallDepth || stackLow()) {
    for (const Expr *a : e->arguments())
      eval(a);
    std::fill(leaves.begin(), leaves.end(),
              AbstractValue::unknown("constructor " +
                                     describe(e, e->getExprLoc()) +
                                     " is not evaluated"));
    return;
  }
  runConstructor(e, cast<CXXConstructorDecl>(def), t, leaves);
}

// `using Base::Base;` (CuTe's gmem_ptr): the base's constructor makes
// the base's part from these arguments; the class's own members are
// default-initialised.
void HostEvaluator::constructInherited(const CXXConstructExpr *e,
                                       const CXXConstructorDecl *ctor,
                                       std::vector<AbstractValue> &leaves) {
  const CXXConstructorDecl *from =
      ctor->getInheritedConstructor().getConstructor();
  uint64_t k = 0;
  for (const CXXBaseSpecifier &b : ctor->getParent()->bases()) {
    uint64_t n = leafCount(b.getType()).value_or(0);
    if (b.getType()->getAsCXXRecordDecl() == from->getParent()) {
      if (k + n > leaves.size())
        break;
      std::vector<AbstractValue> part(leaves.begin() + k,
                                      leaves.begin() + k + n);
      construct(e, b.getType(), part, from);
      std::copy(part.begin(), part.end(), leaves.begin() + k);
      return;
    }
    k += n;
  }
  std::fill(leaves.begin(), leaves.end(),
            AbstractValue::unknown("inherited constructor " +
                                   describe(e, e->getExprLoc()) +
                                   " is not evaluated"));
}

// A constructor with a body: its parameters, initialisers and body.
void HostEvaluator::runConstructor(const CXXConstructExpr *e,
                                   const CXXConstructorDecl *cd, QualType t,
                                   std::vector<AbstractValue> &leaves) {
  // The object lives in fresh slots while its constructor runs.
  size_t mark = store_.size();
  int self = int(store_.size());
  for (AbstractValue &l : leaves)
    store_.push_back(l);
  Frame f;
  f.serial = nextFrameSerial_++;
  f.thisSlot = self;
  f.thisLeaves = int(leaves.size());
  for (unsigned i = 0; i < cd->getNumParams(); ++i) {
    const ParmVarDecl *p = cd->getParamDecl(i);
    const Expr *arg = i < e->getNumArgs() ? e->getArg(i) : p->getDefaultArg();
    if (arg && p->getType()->isReferenceType()) {
      LValue lv = lvalueOf(arg);
      if (validSlot(lv.slot) && lv.field < 0) {
        f.vars[p] = lv.slot;
        continue;
      }
    }
    AbstractValue v = arg ? eval(arg) : AbstractValue::unknown("");
    f.vars[p] = newObject(p->getType(), v);
  }
  frames_.push_back(std::move(f));
  initMembers(cd, t->getAsRecordDecl()->getDefinition(), self);
  exec(cd->getBody());
  exitRequested_ = false;
  frames_.pop_back();
  std::copy(store_.begin() + self, store_.begin() + self + leaves.size(),
            leaves.begin());
  store_.resize(mark);
}

// The constructor's member and base initialisers, into the object at `self`.
void HostEvaluator::initMembers(const CXXConstructorDecl *cd,
                                const RecordDecl *rd, int self) {
  for (const CXXCtorInitializer *ci : cd->inits()) {
    const Expr *in = ci->getInit();
    if (FieldDecl *fd = ci->getMember()) {
      std::vector<AbstractValue> v =
          aliasingReference(fd->getType())
              ? std::vector<AbstractValue>{addressOf(in)}
              : initObject(fd->getType(), in, false, fd->getNameAsString());
      v.resize(leafCount(fd->getType()).value_or(1));
      int at = self + int(fieldLeaf(fd));
      for (size_t k = 0; k < v.size(); ++k)
        store_[at + k] = std::move(v[k]);
    } else if (ci->isBaseInitializer()) {
      auto *cxx = cast<CXXRecordDecl>(rd);
      uint64_t k = 0;
      for (const CXXBaseSpecifier &b : cxx->bases()) {
        if (b.getType()->getAsCXXRecordDecl() ==
            ci->getBaseClass()->getAsCXXRecordDecl()) {
          std::vector<AbstractValue> v =
              initObject(b.getType(), in, false, "base");
          v.resize(leafCount(b.getType()).value_or(1));
          for (size_t j = 0; j < v.size(); ++j)
            store_[self + k + j] = std::move(v[j]);
          break;
        }
        k += leafCount(b.getType()).value_or(0);
      }
    }
  }
}

bool HostEvaluator::aliasingReference(QualType t) const {
  return t->isReferenceType() && !snapshotReference(t);
}

// What a reference member bound to `e` holds: the address of its referent
// (Unknown when that is not in tracked slots).
AbstractValue HostEvaluator::addressOf(const Expr *e) {
  LValue lv = lvalueOf(e);
  if (!validSlot(lv.slot) || lv.field >= 0) {
    eval(e);
    return AbstractValue::unknown("`" + text(e) + "` at " +
                                  where(e->getExprLoc()) +
                                  ": a reference member to an object not "
                                  "tracked");
  }
  AbstractValue p;
  p.slotRef = lv.slot;
  p.slotCount = lv.leaves ? lv.leaves : lv.count;
  return p;
}

// What a reference member's leaf `ref` (its address) refers to.
LValue HostEvaluator::referentOf(const AbstractValue &ref, QualType refType) {
  if (!validSlot(ref.slotRef))
    return {};
  LValue lv;
  lv.slot = ref.slotRef;
  if (std::optional<uint64_t> n = objectLeaves(refType.getNonReferenceType()))
    lv.count = lv.leaves = int(*n);
  return lv;
}

int HostEvaluator::newObject(QualType t, const AbstractValue &v) {
  // A reference parameter bound to a temporary holds the object itself.
  std::optional<uint64_t> n = objectLeaves(t.getNonReferenceType());
  if (!n)
    return newSlot(v);
  int first = int(store_.size());
  if (v.leaves && v.leaves->size() == *n) {
    store_.insert(store_.end(), v.leaves->begin(), v.leaves->end());
  } else {
    std::string why = v.why();
    store_.insert(
        store_.end(), *n,
        AbstractValue::unknown(why.empty() ? "object not tracked" : why));
  }
  if (*n == 0)
    store_.push_back(AbstractValue::unknown("empty object"));
  return first;
}

AbstractValue HostEvaluator::loadObject(int slot, int leaves) const {
  std::vector<AbstractValue> parts;
  parts.reserve(leaves);
  for (int k = 0; k < leaves; ++k)
    parts.push_back(validSlot(slot + k)
                        ? at(slot + k)
                        : AbstractValue::unknown("not tracked"));
  return AbstractValue::object(std::move(parts));
}

AbstractValue HostEvaluator::evalNew(const CXXNewExpr *e) {
  QualType t = e->getAllocatedType();
  uint64_t count = 1;
  if (e->isArray()) {
    std::optional<const Expr *> size = e->getArraySize();
    HostValue n = size && *size ? eval(*size).scalar : HostValue();
    if (n.kind != HostValue::Kind::Int || n.i < 0)
      return AbstractValue::of(HostValue::hostPtr());
    count = uint64_t(n.i);
  }
  std::optional<uint64_t> per =
      t->isScalarType() ? std::optional<uint64_t>(1) : objectLeaves(t);
  if (!per || *per == 0 || count * *per > kMaxArray) {
    if (const Expr *init = e->getInitializer())
      eval(init);
    return AbstractValue::of(HostValue::hostPtr());
  }
  const Expr *init = e->getInitializer();
  std::vector<AbstractValue> leaves;
  for (uint64_t i = 0; i < count; ++i) {
    // new T[n]{...} lists per element; `new T(args)` / `new T[n]` construct.
    const Expr *one = init;
    if (auto *il = dyn_cast_or_null<InitListExpr>(init); il && e->isArray())
      one = i < il->getNumInits() ? il->getInit(unsigned(i)) : nullptr;
    std::vector<AbstractValue> v =
        initObject(t, one, false, "new " + t.getAsString());
    v.resize(*per, AbstractValue::unknown("uninitialised heap memory"));
    leaves.insert(leaves.end(), v.begin(), v.end());
  }
  AbstractValue p;
  p.slotRef = kGlobalBase + int(globalStore_.size());
  p.slotCount = int(leaves.size());
  globalStore_.insert(globalStore_.end(), leaves.begin(), leaves.end());
  return p;
}

} // namespace kcheck::analyzer
