// The PTX ISA's warp-level matrix instructions for sm_80 to sm_90, form by
// form, as the ISA (PTX ISA 9.0, CUDA 13's; no header enumerates them)
// defines them: mma.sync's shapes, layouts and type combinations
// ("Warp-level Matrix Multiply-Accumulate Instructions": f16/bf16/tf32/f64,
// 8-bit, 4-bit and 1-bit integers, fp8), ldmatrix, stmatrix and movmatrix.
// Each form comes with an inline-asm statement of it, which the conformance
// family hands to kcheck's PTX lowering (analyzer/ptx): a form is provided
// when the lowering runs it, else it must match a row of
// PtxMatrixExclusions.def, whose reason kcheck gives when a program meets it.
#pragma once

#include <string>
#include <vector>

namespace kcheck::conformance {

struct PtxMatrixForm {
  std::string name;      // "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  unsigned minSm = 80;   // the first architecture that has it
  std::string statement; // the instruction with operands %0, %1, ...
  std::string constraints; // LLVM inline-asm constraints ("=r,=r,r,...")
  unsigned outputs = 0;    // how many of the operands are outputs
  std::vector<unsigned> outputBits; // each output's width
  std::vector<unsigned> inputBits;  // each input's width
};

/// Every form, in the ISA's order.
std::vector<PtxMatrixForm> ptxMatrixForms();

/// Whether kcheck's PTX lowering runs `form`; else `why` is its reason.
bool lowersPtxMatrixForm(const PtxMatrixForm &form, std::string &why);

} // namespace kcheck::conformance
