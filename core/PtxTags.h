// Names shared by the IR pipeline (analyzer/ptx, which writes them) and the
// engine (which reads them): no LLVM here, only the strings.
#pragma once

namespace kcheck::core {

// Metadata on a memory instruction lowered from inline PTX that SASS does
// not execute as a plain LD/ST: one string, its PTX opcode
// ("cp.async.ca.shared.global", "ldmatrix.sync.aligned.m8n8.x4.shared.b16").
inline constexpr const char *kPtxInstructionMetadata = "kcheck.ptx";

// Metadata on an inline-assembly call the IR pipeline could not lower: one
// string, the statement and the reason, which the engine reports.
inline constexpr const char *kUnloweredAsmMetadata = "kcheck.asm";

// Metadata on a load that reads more bytes than the program uses, as
// ptxas's 16-byte shared loads do (analyzer/pipeline/IrPipelineShared.h): one
// i32, a mask of the bytes the program reads (bit k: byte k of each lane's
// access). The sanitizers check only those; the models count the whole
// access, as the hardware does.
inline constexpr const char *kReadBytesMetadata = "kcheck.read-bytes";

// Metadata on a shared load or store that ptxas merged across static
// __shared__ variables it laid out side by side
// (analyzer/pipeline/IrPipelineShared.h): one string, the IR names of the
// variables its bytes cover, comma-separated. Its pointer is based on the
// first; the engine checks it against the shared window, not against that
// variable.
inline constexpr const char *kSharedSpanMetadata = "kcheck.shared-span";

} // namespace kcheck::core
