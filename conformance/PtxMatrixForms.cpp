#include "conformance/PtxMatrixForms.h"

#include "analyzer/ptx/PtxLowering.h"
#include "core/PtxTags.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

namespace kcheck::conformance {

using namespace llvm;

namespace {

// Bits of one A/B element.
unsigned elementBits(const std::string &t) {
  if (t == "f16" || t == "bf16")
    return 16;
  if (t == "s8" || t == "u8" || t == "e4m3" || t == "e5m2")
    return 8;
  if (t == "s4" || t == "u4")
    return 4;
  if (t == "b1")
    return 1;
  return t == "f64" ? 64 : 32; // tf32, f64
}
// Bits of one C/D element as its registers hold them.
unsigned accumulatorBits(const std::string &t) {
  return t == "f16" ? 16 : t == "f64" ? 64 : 32;
}

// A register list "{$i, ..., $(i+n-1)}".
std::string regs(unsigned &next, unsigned n) {
  std::string s = "{";
  for (unsigned i = 0; i < n; ++i)
    s += (i ? ", $" : "$") + std::to_string(next++);
  return s + "}";
}

struct Shape {
  unsigned m, n, k;
};

PtxMatrixForm mma(Shape s, const std::string &layouts, const std::string &d,
                  const std::string &a, const std::string &b,
                  const std::string &c, const std::string &suffix,
                  unsigned minSm, bool satfinite = false) {
  PtxMatrixForm f;
  std::string shape = "m" + std::to_string(s.m) + "n" + std::to_string(s.n) +
                      "k" + std::to_string(s.k);
  f.name = "mma.sync.aligned." + shape + "." + layouts +
           (satfinite ? ".satfinite" : "") + "." + d + "." + a + "." + b + "." +
           c + suffix;
  f.minSm = minSm;
  // Registers per lane: 32-bit ones but for f64 (64-bit); accumulators of
  // f16 two to a register. m8n8k4's f16 forms: each quad-pair holds one
  // product, so A, B and C/D are 2, 2 and 4 (f16) or 8 (f32) registers.
  auto count = [](unsigned elems, unsigned bits) {
    unsigned regBits = bits == 64 ? 64 : 32;
    return std::max(1u, elems * bits / regBits);
  };
  bool quadPairs = s.m == 8 && s.n == 8 && s.k == 4 && a == "f16";
  unsigned dBits = accumulatorBits(d), cBits = accumulatorBits(c);
  unsigned dRegs =
      quadPairs ? (d == "f16" ? 4 : 8) : count(s.m * s.n / 32, dBits);
  unsigned cRegs =
      quadPairs ? (c == "f16" ? 4 : 8) : count(s.m * s.n / 32, cBits);
  unsigned aRegs = quadPairs ? 2 : count(s.m * s.k / 32, elementBits(a));
  unsigned bRegs = quadPairs ? 2 : count(s.k * s.n / 32, elementBits(b));
  unsigned next = 0;
  std::string dList = regs(next, dRegs), aList = regs(next, aRegs),
              bList = regs(next, bRegs), cList = regs(next, cRegs);
  f.statement =
      f.name + " " + dList + ", " + aList + ", " + bList + ", " + cList + ";";
  f.outputs = dRegs;
  auto width = [](const std::string &t) { return t == "f64" ? 64u : 32u; };
  for (unsigned i = 0; i < dRegs; ++i)
    f.outputBits.push_back(width(d));
  for (unsigned i = 0; i < aRegs; ++i)
    f.inputBits.push_back(width(a));
  for (unsigned i = 0; i < bRegs; ++i)
    f.inputBits.push_back(width(b));
  for (unsigned i = 0; i < cRegs; ++i)
    f.inputBits.push_back(width(c));
  return f;
}

// ldmatrix, stmatrix: .x1/.x2/.x4 of 8x8 16-bit matrices at a shared
// address; movmatrix: one fragment transposed.
PtxMatrixForm movement(const std::string &op, unsigned num, bool trans) {
  PtxMatrixForm f;
  f.minSm = op == "stmatrix" ? 90 : op == "movmatrix" ? 80 : 75;
  if (op == "movmatrix") {
    f.name = "movmatrix.sync.aligned.m8n8.trans.b16";
    f.statement = f.name + " $0, $1;";
    f.outputs = 1;
    f.outputBits = {32};
    f.inputBits = {32};
    return f;
  }
  f.name = op + ".sync.aligned.m8n8.x" + std::to_string(num) +
           (trans ? ".trans" : "") + ".shared.b16";
  unsigned next = 0;
  if (op == "ldmatrix") {
    std::string d = regs(next, num);
    f.statement = f.name + " " + d + ", [$" + std::to_string(next) + "];";
    f.outputs = num;
    f.outputBits.assign(num, 32);
    f.inputBits = {32};
  } else {
    f.statement = f.name + " [$0], ";
    next = 1;
    f.statement += regs(next, num) + ";";
    f.inputBits.assign(num + 1, 32);
  }
  return f;
}

} // namespace

std::vector<PtxMatrixForm> ptxMatrixForms() {
  std::vector<PtxMatrixForm> forms;
  // m8n8k4 f16 (sm_70): every A/B layout; D and C f16 or f32 but for an
  // f16 D with an f32 C (ptxas: ".dtype must be '.f32' when .ctype is
  // '.f32'").
  for (const char *layouts : {"row.row", "row.col", "col.row", "col.col"})
    for (const char *d : {"f16", "f32"})
      for (const char *c : {"f16", "f32"})
        if (std::string(d) == "f32" || std::string(c) == "f16")
          forms.push_back(mma({8, 8, 4}, layouts, d, "f16", "f16", c, "", 70));
  // m16n8k8 and m16n8k16: f16 (D and C both f16 or both f32), bf16 ->
  // f32.
  for (Shape s : {Shape{16, 8, 8}, Shape{16, 8, 16}}) {
    for (const char *acc : {"f16", "f32"})
      forms.push_back(mma(s, "row.col", acc, "f16", "f16", acc, "", 80));
    forms.push_back(mma(s, "row.col", "f32", "bf16", "bf16", "f32", "", 80));
  }
  // tf32.
  for (Shape s : {Shape{16, 8, 4}, Shape{16, 8, 8}})
    forms.push_back(mma(s, "row.col", "f32", "tf32", "tf32", "f32", "", 80));
  // f64: m8n8k4 (sm_80), m16n8k4/k8/k16 (sm_90).
  forms.push_back(
      mma({8, 8, 4}, "row.col", "f64", "f64", "f64", "f64", "", 80));
  for (Shape s : {Shape{16, 8, 4}, Shape{16, 8, 8}, Shape{16, 8, 16}})
    forms.push_back(mma(s, "row.col", "f64", "f64", "f64", "f64", "", 90));
  // Integers: 8-bit, 4-bit (each signedness pair, with and without
  // .satfinite), 1-bit (xor or and, then popc).
  auto integers = [&](std::vector<Shape> shapes, const char *s, const char *u) {
    for (Shape sh : shapes)
      for (const char *a : {s, u})
        for (const char *b : {s, u})
          for (bool sat : {false, true})
            forms.push_back(
                mma(sh, "row.col", "s32", a, b, "s32", "", 80, sat));
  };
  integers({{8, 8, 16}, {16, 8, 16}, {16, 8, 32}}, "s8", "u8");
  integers({{8, 8, 32}, {16, 8, 32}, {16, 8, 64}}, "s4", "u4");
  for (Shape sh : {Shape{8, 8, 128}, Shape{16, 8, 128}, Shape{16, 8, 256}})
    for (const char *op : {".xor.popc", ".and.popc"})
      forms.push_back(mma(sh, "row.col", "s32", "b1", "b1", "s32", op, 80));
  // fp8 (sm_89): m16n8k32, f32 or f16 accumulators.
  for (const char *acc : {"f32", "f16"})
    for (const char *a : {"e4m3", "e5m2"})
      for (const char *b : {"e4m3", "e5m2"})
        forms.push_back(mma({16, 8, 32}, "row.col", acc, a, b, acc, "", 89));
  for (const char *op : {"ldmatrix", "stmatrix"})
    for (unsigned num : {1u, 2u, 4u})
      for (bool trans : {false, true})
        forms.push_back(movement(op, num, trans));
  forms.push_back(movement("movmatrix", 1, true));
  return forms;
}

bool lowersPtxMatrixForm(const PtxMatrixForm &form, std::string &why) {
  LLVMContext ctx;
  Module module("ptx_matrix_form", ctx);
  module.setTargetTriple(Triple("nvptx64-nvidia-cuda"));
  module.setDataLayout("e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-"
                       "i128:128-v16:16-v32:32-n16:32:64");
  Function *fn =
      Function::Create(FunctionType::get(Type::getVoidTy(ctx), false),
                       GlobalValue::ExternalLinkage, "form", module);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", fn));
  std::vector<Type *> outs, ins;
  std::vector<Value *> args;
  std::string constraints;
  for (unsigned bits : form.outputBits) {
    outs.push_back(b.getIntNTy(bits));
    constraints += std::string(constraints.empty() ? "" : ",") +
                   (bits == 64 ? "=l" : "=r");
  }
  for (unsigned bits : form.inputBits) {
    ins.push_back(b.getIntNTy(bits));
    args.push_back(b.getIntN(bits, 0));
    constraints +=
        std::string(constraints.empty() ? "" : ",") + (bits == 64 ? "l" : "r");
  }
  Type *ret = outs.empty()       ? b.getVoidTy()
              : outs.size() == 1 ? outs[0]
                                 : StructType::get(ctx, outs);
  InlineAsm *asmValue = InlineAsm::get(FunctionType::get(ret, ins, false),
                                       form.statement, constraints,
                                       /*hasSideEffects=*/true);
  CallInst *call = b.CreateCall(asmValue, args);
  b.CreateRetVoid();
  (void)call;
  analyzer::lowerInlinePtx(module);
  for (BasicBlock &bb : *fn)
    for (Instruction &i : bb)
      if (auto *c = dyn_cast<CallBase>(&i); c && c->isInlineAsm()) {
        const MDNode *reason = c->getMetadata(core::kUnloweredAsmMetadata);
        why = reason && reason->getNumOperands() == 1
                  ? cast<MDString>(reason->getOperand(0))->getString().str()
                  : "not lowered";
        return false;
      }
  return true;
}

} // namespace kcheck::conformance
