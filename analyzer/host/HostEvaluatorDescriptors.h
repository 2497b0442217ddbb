// The runtime's descriptors as the static host evaluator reads them
// (internal to analyzer/host/): cudaResourceDesc, cudaTextureDesc,
// cudaKernelNodeParams and the others that host code fills field by field
// and hands to a call (HostEvaluatorTextures.cpp, HostEvaluatorGraphs.cpp).
#pragma once

#include "analyzer/host/HostEvaluator.h"

#include "core/TextureRules.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringExtras.h"

#include <string>
#include <vector>

namespace kcheck::analyzer {

// Reads the fields of a descriptor object, by name, from its slots; the
// first field that is not known is kept in `missing`.
struct HostEvaluator::DescriptorReader {
  DescriptorReader(HostEvaluator &evaluator, int base, clang::QualType type,
                   std::string name)
      : ev(&evaluator), base(base), type(type), name(std::move(name)) {}
  HostEvaluator *ev;
  int base = -1; // the object's first slot; -1: not tracked
  clang::QualType type;
  std::string name; // as written at the call, for notes
  std::string missing;

  /// The slot of field `path` (element `index` of it if >= 0), or -1.
  int slot(llvm::ArrayRef<llvm::StringRef> path, int index) const {
    if (base < 0)
      return -1;
    clang::QualType t = type.getCanonicalType();
    int at = base;
    for (llvm::StringRef f : path) {
      const clang::RecordDecl *rd = t->getAsRecordDecl();
      rd = rd ? rd->getDefinition() : nullptr;
      if (!rd)
        return -1;
      const clang::FieldDecl *field = nullptr;
      for (const clang::FieldDecl *x : rd->fields())
        if (x->getIdentifier() && x->getName() == f)
          field = x;
      if (!field)
        return -1;
      at += int(ev->fieldLeaf(field));
      t = field->getType().getCanonicalType();
    }
    if (index >= 0) {
      const clang::ConstantArrayType *array =
          ev->ctx_.getAsConstantArrayType(t);
      if (!array || uint64_t(index) >= array->getZExtSize())
        return -1;
      at += index * int(ev->leafCount(array->getElementType()).value_or(1));
    }
    return ev->validSlot(at) ? at : -1;
  }
  const AbstractValue *leaf(llvm::ArrayRef<llvm::StringRef> path,
                            int index) const {
    int at = slot(path, index);
    return at >= 0 ? &ev->at(at) : nullptr;
  }
  HostValue value(llvm::ArrayRef<llvm::StringRef> path, int index = -1) {
    std::string field = name + "." + llvm::join(path, ".") +
                        (index >= 0 ? "[" + std::to_string(index) + "]" : "");
    const AbstractValue *v = leaf(path, index);
    if (!v) {
      if (missing.empty())
        missing = "`" + field + "` is not a field kcheck follows";
      return HostValue::unknown(missing);
    }
    if (!v->scalar.known() && missing.empty())
      missing = "`" + field + "` is not known: " + v->scalar.why;
    return v->scalar;
  }
  int64_t integer(llvm::ArrayRef<llvm::StringRef> path, int index = -1) {
    HostValue v = value(path, index);
    return v.kind == HostValue::Kind::Float ? int64_t(v.f) : v.i;
  }
  double real(llvm::ArrayRef<llvm::StringRef> path, int index = -1) {
    HostValue v = value(path, index);
    return v.kind == HostValue::Kind::Float ? v.f : double(v.i);
  }
  core::textures::ChannelFormatDesc
  channels(llvm::ArrayRef<llvm::StringRef> path) {
    auto part = [&](llvm::StringRef c) {
      std::vector<llvm::StringRef> p(path.begin(), path.end());
      p.push_back(c);
      return int(integer(p));
    };
    return {part("x"), part("y"), part("z"), part("w"), part("f")};
  }
};

namespace descriptors {

// The pointee type of parameter `i` of the call's callee (the descriptor's
// record), or null.
inline clang::QualType pointeeOfParam(const clang::CallExpr *e, unsigned i) {
  const clang::FunctionDecl *fd = e->getDirectCallee();
  if (!fd || i >= fd->getNumParams())
    return {};
  clang::QualType t = fd->getParamDecl(i)->getType();
  return t->isPointerType() ? t->getPointeeType() : clang::QualType();
}

} // namespace descriptors

} // namespace kcheck::analyzer
