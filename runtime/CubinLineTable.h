// The SASS line table of a cubin, read from its ELF .debug_line, and the rule
// by which Nsight Compute's source view credits a SASS instruction to lines.
// Pure data, no CUDA: unit-tested in CI with recorded cubins.
//
// Why not cuptiGetSassToSourceCorrelation alone: it answers one line per PC
// (the last line-table row at that address). Nsight Compute's source page
// credits an instruction to every row at its address. ptxas emits several
// rows at one address where an inlined call begins: the call line's row, then
// a row per inlined frame (`g.sync()` in reduce_cg: 5 rows at one BAR.SYNC,
// all 5 lines show it), and an instruction without a row of its own inherits
// every row of the address before it (reduce_v4's warpReduce: the four
// instructions of its first line also count on the call line). Later parts
// of the same inlined body at their own rows count on their own line only
// (histogram's ATOMS of an atomicAdd whose operand setup came first). Checked
// against ncu 2025.3's source page: 9512 of 9512 SASS instructions of the 21
// programs of kernels/, kernels/patterns/ and the seed corpus are credited to
// the same lines (docs/validation/check-line-credits.py).
//
// Format assumptions (nvcc 13 -lineinfo, sm_90, checked with
// llvm-dwarfdump): ELF64 little-endian; .debug_line holds DWARF 2-4 line
// programs, one sequence per kernel or device function, whose
// DW_LNE_set_address operand is relocated (.rela.debug_line) against the
// function's symbol or its section's symbol, so addresses are offsets from
// the function's start, as CUPTI's pcOffset is. NVIDIA adds bytes to the
// program header (skipped through header_length) and keeps inline call
// chains elsewhere; only the rows are used.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::runtime {

struct SourceLine {
  std::string file; // directory/file as the line table records it
  unsigned line = 0;
  bool operator==(const SourceLine &) const = default;
};

struct LineRow {
  uint32_t address = 0; // offset from the function's first instruction
  SourceLine where;
};

class CubinLineTable {
public:
  /// Parses `cubin` (an ELF image). A cubin without line information gives
  /// an empty table; a malformed one gives nullopt and `error` says why.
  static std::optional<CubinLineTable> parse(std::string_view cubin,
                                             std::string *error = nullptr);

  /// The lines Nsight Compute's source view credits with the instruction at
  /// `pcOffset` of `function` (mangled name): every row at that address, or
  /// at the nearest address before it. Empty when the function has no rows.
  std::vector<SourceLine> linesAt(const std::string &function,
                                  uint32_t pcOffset) const;

  /// Rows per function, in line-program order.
  const std::map<std::string, std::vector<LineRow>> &functions() const {
    return rows_;
  }

private:
  std::map<std::string, std::vector<LineRow>> rows_;
};

} // namespace kcheck::runtime
