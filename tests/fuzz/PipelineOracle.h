// The checks the fuzz targets (and their replay in ctest) apply to one input:
// kcheck's static pipeline (Clang device compile, launch extraction,
// simulation) runs in-process on a source text, then the oracles:
// - nothing crashes, trips a sanitizer or runs unbounded (small step and
//   memory limits);
// - a generated program (tests/fuzz/KernelGenerator.h) compiles, has every
//   launch simulated, and faults or reports a divergent barrier only when it
//   was generated to;
// - class-based simulation and --exhaustive give the same counters per
//   launch and per line (when the grid is small enough to run every block).
#pragma once

#include "KernelGenerator.h"

#include <string>
#include <string_view>

namespace kcheck::fuzz {

/// Blocks up to which a generated program is also run with --exhaustive.
inline constexpr uint64_t kMaxExhaustiveBlocks = 128;

/// Empty when every oracle holds; else what failed (with the program).
std::string checkGeneratedProgram(const GeneratedProgram &program);

/// Arbitrary text as a .cu file: anything may be rejected (exit-3 style
/// errors), nothing may crash. Empty when that holds.
std::string checkArbitrarySource(std::string_view source);

/// Writes `text` to a file of this process under $TMPDIR (or /tmp) and
/// returns its path.
std::string writeTempSource(std::string_view text);

} // namespace kcheck::fuzz
