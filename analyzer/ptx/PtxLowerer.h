// Internal to PtxLowering: lowers one inline-assembly call, statement by
// statement. Every PTX register is an integer of its width (a predicate is
// i1); float instructions bitcast their operands. f16/bf16 arithmetic is done
// in double and rounded once to the 16-bit type, which gives the correctly
// rounded result for add, sub, mul, div and sqrt (53 >= 2*11+2 bits: double
// rounding is innocuous); fma rounds twice and may differ in the last bit.
#pragma once

#include "analyzer/ptx/PtxSyntax.h"

#include "llvm/IR/IRBuilder.h"

#include <map>
#include <string>
#include <vector>

namespace kcheck::analyzer::ptx {

// PTX prmt (default mode), also libdevice's __nv_byte_perm (llvm.nvvm.prmt).
llvm::Value *bytePermute(llvm::IRBuilder<> &b, llvm::Value *a, llvm::Value *bv,
                         llvm::Value *selector);

// An e4m3 or e5m2 byte (i32, low 8 bits) as a double, exactly
// (PtxLowerFp8.cpp).
llvm::Value *decodeFp8(llvm::IRBuilder<> &b, llvm::Value *code,
                       const std::string &type);

// `v` (`words` 32-bit words of type `t`, `bytes` bytes) with the bytes past
// `srcSize` zero, or all of them where `ignoreSrc` is set (either may be
// null): what cp.async's src-size and ignore-src operands read
// (PtxLowerMemory.cpp; also the __nvvm_cp_async_*_s builtins).
llvm::Value *zeroFillPastSize(llvm::IRBuilder<> &b, llvm::Value *v,
                              llvm::Type *t, unsigned words, unsigned bytes,
                              llvm::Value *srcSize, llvm::Value *ignoreSrc);

class Lowerer {
public:
  // In a dry run the IR goes into a scratch function and no block is split:
  // it tells whether the real run would succeed (lowering never leaves half
  // a template in place).
  Lowerer(llvm::CallBase &call, llvm::BasicBlock *scratch = nullptr);
  bool run(const Program &program);
  const std::string &error() const { return error_; }

private:
  struct AsmSlot {
    bool isOutput = false;
    unsigned outputIndex = 0;
    std::string code;                 // "r", "l", "h", "f", "d", "n"
    llvm::Value *input = nullptr;     // inputs
    llvm::Value *tiedInput = nullptr; // outputs of "+r"
    llvm::Value *value = nullptr;     // outputs: the value written last
  };
  struct Register {
    unsigned bits = 0;
    llvm::Value *value = nullptr;
  };

  bool fail(const std::string &why);
  bool bindOperands();
  bool finish();
  unsigned bitsOfCode(const AsmSlot &s) const;
  llvm::Type *outputType(unsigned index) const;
  llvm::Value *bits(llvm::Value *v, unsigned width);

  // Operands.
  llvm::Value *read(const Operand &o, unsigned width);
  bool write(const Operand &o, llvm::Value *v);
  llvm::Value *guard();
  llvm::Value *address(const Operand &o, unsigned addrSpace);
  llvm::Value *specialRegister(const std::string &name, unsigned width);

  // Statements (PtxLowerArith.cpp, PtxLowerMemory.cpp, PtxLowerWarp.cpp).
  bool lowerStatement(const Statement &st);
  bool lowerMov(const Statement &st);
  bool lowerCvt(const Statement &st);
  bool lowerCvtFp8(const Statement &st, const std::string &to,
                   const std::string &from);
  bool lowerCvta(const Statement &st);
  bool lowerArith(const Statement &st);
  bool lowerFloatArith(const Statement &st, const std::string &type,
                       unsigned w);
  bool lowerBitwise(const Statement &st);
  bool lowerVideoSimd(const Statement &st);
  bool lowerSetp(const Statement &st);
  bool lowerSelp(const Statement &st);
  bool lowerSet(const Statement &st);
  bool lowerDotProduct(const Statement &st);
  bool lowerCarryChain(const Statement &st);
  bool lowerLoadStore(const Statement &st);
  llvm::Value *gatherData(const Operand &data, unsigned n, unsigned w);
  bool scatterLoaded(const Operand &data, unsigned n, llvm::Value *loaded,
                     bool signExtend);
  bool lowerAtomic(const Statement &st);
  bool lowerHalfFloatAtomic(const Statement &st, const std::string &op,
                            const std::string &type, unsigned w,
                            llvm::Value *ptr, llvm::Value *v, bool isRed);
  bool lowerCpAsync(const Statement &st);
  bool lowerLdmatrix(const Statement &st);
  bool lowerStmatrix(const Statement &st, unsigned num, bool trans);
  bool lowerMovmatrix(const Statement &st);
  bool lowerMmaSync(const Statement &st);
  bool lowerMmaQuadPairs(const Statement &st); // m8n8k4 with f16 operands
  bool lowerShfl(const Statement &st);
  bool lowerVote(const Statement &st);
  bool lowerBarrier(const Statement &st);
  bool lowerMbarrier(const Statement &st);
  bool lowerTexture(const Statement &st); // PtxLowerTexture.cpp

  // Helpers.
  llvm::Value *toFloat(llvm::Value *bitsValue, const std::string &type);
  llvm::Value *fromFloat(llvm::Value *f, const std::string &type);
  llvm::Value *floatOp(const std::string &op, const std::string &type,
                       std::vector<llvm::Value *> args);
  llvm::Value *intrinsicCall(llvm::StringRef name, llvm::Type *ret,
                             llvm::ArrayRef<llvm::Value *> args);
  // The block where a guarded memory statement runs; `b_` is left at the
  // join point afterwards by endGuarded.
  void beginGuarded(llvm::Value *pred);
  void endGuarded();
  void tag(llvm::Instruction *i, const Statement &st);
  std::string typeOf(const Statement &st) const; // last type part

  llvm::CallBase &call_;
  llvm::Module &module_;
  llvm::LLVMContext &ctx_;
  llvm::IRBuilder<> b_;
  bool dryRun_;
  std::vector<AsmSlot> slots_;
  std::map<std::string, Register> registers_;
  const Statement *statement_ = nullptr;
  llvm::Instruction *guardJoin_ = nullptr;
  llvm::Value *carry_ = nullptr; // CC.CF of add.cc/addc/mad.cc...: i1
  std::string error_;
};

} // namespace kcheck::analyzer::ptx
