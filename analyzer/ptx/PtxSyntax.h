// The syntax of the PTX that inline assembly holds (`asm("...")`, after LLVM
// has numbered its operands $0, $1, ...): statements, register declarations
// and operands. Pure text processing, no LLVM; PtxLowering turns the result
// into IR. Covers what CUDA's headers and hand-written kernels put in inline
// assembly: straight-line code, `{ }` scopes with `.reg` declarations,
// `@p` / `@!p` guards, `[addr+imm]` addresses, `[handle, {x, y}]` texture
// addresses, `{a, b}` vectors, `d|p` pairs.
// Labels and branches are not parsed (straight-line code only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::analyzer::ptx {

struct Operand {
  enum class Kind {
    AsmOperand,  // $N
    Register,    // a name: a .reg declared in the template, or %laneid etc.
    Immediate,   // integer; or a float given as 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX
    Address,     // [base], [base+imm], [imm]
    Vector,      // {a, b, ...}
    Pair,        // d|p (shfl, setp)
    Sink,        // _
    ImageAddress // [handle, {coordinates}] (tex, tld4, suld, sust): elements
                 // = the handle, then the coordinates (a Vector)
  };
  Kind kind = Kind::Immediate;
  unsigned index = 0; // AsmOperand
  std::string name;   // Register; Address base when not an AsmOperand
  int64_t value = 0;  // Immediate (bits for float literals); Address offset
  bool isFloatBits = false;      // Immediate written as 0f / 0d
  unsigned floatBits = 0;        // 32 or 64 for isFloatBits
  std::vector<Operand> elements; // Vector, Pair, and Address base (one)
};

struct Statement {
  std::string opcode;               // "shfl.sync.down.b32"
  std::vector<std::string> parts;   // {"shfl", "sync", "down", "b32"}
  std::optional<std::string> guard; // predicate register of @p / @!p
  bool guardNegated = false;
  std::vector<Operand> operands;
  std::string text; // the statement as written, for messages
};

struct RegisterDeclaration {
  std::string type; // "f16", "pred", "u32"
  std::vector<std::string> names;
};

struct Program {
  std::vector<RegisterDeclaration> registers;
  std::vector<Statement> statements;
};

// Parses `templateText`; on failure returns nullopt with `error` saying
// which statement could not be read.
std::optional<Program> parse(const std::string &templateText,
                             std::string &error);

// Whether `part` is one of the statement's dot-separated opcode parts.
bool hasPart(const Statement &st, const std::string &part);

// The statement's type parts, in order ("cvt.rn.f16.f32" -> {"f16", "f32"}).
std::vector<std::string> typesOf(const Statement &st);

// PTX type classes: f16/f16x2/bf16/bf16x2/f32/f64, and s8..s64.
bool isFloatType(const std::string &type);
bool isSignedType(const std::string &type);

// The width in bits of a PTX type suffix ("b32" -> 32, "f16x2" -> 32,
// "pred" -> 1); 0 for a part that is not a type.
unsigned typeBits(const std::string &part);

} // namespace kcheck::analyzer::ptx
