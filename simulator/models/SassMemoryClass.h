// Which counters a memory access feeds, by the SASS instruction class it
// becomes. Pure; the PTX opcode comes from the IR (core/PtxTags.h).
//
// Measured on the H100 (kernels/toolkit/cp_async.cu and tensor_core.cu,
// kernels/toolkit/h100/): cp.async (LDGSTS, .ca and .cg, 4 and 16 bytes,
// zero-filled or not, from inline PTX, cuda_pipeline.h, cuda::memcpy_async
// and cg::memcpy_async) and ldmatrix (LDSM .x1/.x2/.x4, .trans) count in none
// of smsp__sass_inst_executed_op_{shared,global}_{ld,st}, the shared
// wavefronts or the global sectors of those ops: Nsight Compute counts them
// under their own ops (op_ldgsts, op_ldsm). Nor does stmatrix (STSM .x1/.x2/
// .x4, .trans) count in op_shared_st: measured on the H200
// (tests/conformance/programs/ptx_matrix_forms.cu,
// data/h200-ptx_matrix_forms.ncu.csv). Their wavefront rules
// (../shared/docs/research/sm90-shared-rules.md) are a later model.
#pragma once

#include <string_view>

namespace kcheck::sim {

enum class SassMemoryClass {
  LoadStore, // LD/ST, LDG/STG, LDS/STS: the ld/st metrics
  Ldgsts,    // cp.async
  Ldsm,      // ldmatrix
  Stsm       // stmatrix
};

inline SassMemoryClass sassMemoryClassOf(std::string_view ptxInstruction) {
  if (ptxInstruction.substr(0, 8) == "cp.async")
    return SassMemoryClass::Ldgsts;
  if (ptxInstruction.substr(0, 8) == "ldmatrix")
    return SassMemoryClass::Ldsm;
  if (ptxInstruction.substr(0, 8) == "stmatrix")
    return SassMemoryClass::Stsm;
  return SassMemoryClass::LoadStore;
}

inline bool countedInLoadStoreMetrics(SassMemoryClass c) {
  return c == SassMemoryClass::LoadStore;
}

} // namespace kcheck::sim
