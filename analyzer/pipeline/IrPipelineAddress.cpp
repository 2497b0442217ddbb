#include "analyzer/pipeline/IrPipelineAddress.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

constexpr unsigned kMaxLinearDepth = 12;

void addLinear(const Value *value, int64_t scale, LinearAddress &out,
               const DataLayout &layout, unsigned depth) {
  if (scale == 0)
    return;
  if (const auto *constant = dyn_cast<ConstantInt>(value)) {
    if (constant->getBitWidth() <= 64)
      out.constant += scale * constant->getSExtValue();
    else
      out.terms[value] += scale;
    return;
  }
  if (depth < kMaxLinearDepth) {
    ++depth;
    if (const auto *gep = dyn_cast<GEPOperator>(value)) {
      addLinear(gep->getPointerOperand(), scale, out, layout, depth);
      for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep);
           it != end; ++it) {
        if (StructType *structType = it.getStructTypeOrNull()) {
          unsigned field = cast<ConstantInt>(it.getOperand())->getZExtValue();
          out.constant +=
              scale *
              int64_t(
                  layout.getStructLayout(structType)->getElementOffset(field));
          continue;
        }
        TypeSize size = it.getSequentialElementStride(layout);
        if (size.isScalable()) {
          out.terms[value] += scale;
          return;
        }
        addLinear(it.getOperand(), scale * int64_t(size.getFixedValue()), out,
                  layout, depth);
      }
      return;
    }
    if (const auto *cast = dyn_cast<Operator>(value);
        cast && (cast->getOpcode() == Instruction::SExt ||
                 cast->getOpcode() == Instruction::ZExt ||
                 cast->getOpcode() == Instruction::AddrSpaceCast ||
                 cast->getOpcode() == Instruction::BitCast)) {
      addLinear(cast->getOperand(0), scale, out, layout, depth);
      return;
    }
    using namespace PatternMatch;
    const Value *left = nullptr, *right = nullptr;
    ConstantInt *amount = nullptr;
    if (match(value, m_Add(m_Value(left), m_Value(right))) ||
        match(value, m_DisjointOr(m_Value(left), m_Value(right)))) {
      addLinear(left, scale, out, layout, depth);
      addLinear(right, scale, out, layout, depth);
      return;
    }
    // ~x, as -x - 1 (modulo the width, like everything here).
    if (match(value, m_Not(m_Value(left)))) {
      addLinear(left, -scale, out, layout, depth);
      out.constant -= scale;
      return;
    }
    if (match(value, m_Sub(m_Value(left), m_Value(right)))) {
      addLinear(left, scale, out, layout, depth);
      addLinear(right, -scale, out, layout, depth);
      return;
    }
    if (match(value, m_Mul(m_Value(left), m_ConstantInt(amount))) &&
        amount->getBitWidth() <= 64) {
      addLinear(left, scale * amount->getSExtValue(), out, layout, depth);
      return;
    }
    if (match(value, m_Shl(m_Value(left), m_ConstantInt(amount))) &&
        amount->getZExtValue() < 63) {
      addLinear(left, scale * (int64_t(1) << amount->getZExtValue()), out,
                layout, depth);
      return;
    }
  }
  out.terms[value] += scale;
}

} // namespace

LinearAddressKey keyOf(const LinearAddress &address) {
  LinearAddressKey key{address.constant, {}};
  for (const auto &[value, coefficient] : address.terms)
    if (coefficient != 0)
      key.second.push_back({value, coefficient});
  llvm::sort(key.second);
  return key;
}

LinearAddress linearAddress(const Value *pointer, const DataLayout &layout) {
  LinearAddress result;
  addLinear(pointer, 1, result, layout, 0);
  return result;
}

std::optional<int64_t> constantDistance(const Value *a, const Value *b,
                                        const DataLayout &layout) {
  LinearAddress left = linearAddress(a, layout);
  LinearAddress right = linearAddress(b, layout);
  for (const auto &[value, coefficient] : right.terms)
    left.terms[value] -= coefficient;
  for (const auto &term : left.terms)
    if (term.second != 0)
      return std::nullopt;
  return left.constant - right.constant;
}

bool sameLinearAddress(const Value *a, const Value *b,
                       const DataLayout &layout) {
  std::optional<int64_t> distance = constantDistance(a, b, layout);
  return distance && *distance == 0;
}

} // namespace kcheck::analyzer
