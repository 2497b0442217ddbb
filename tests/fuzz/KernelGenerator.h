// Generates random but valid, terminating CUDA programs to fuzz kcheck with:
// one or more kernels over shared and global arrays of 1-, 2-, 4-, 8- and
// 16-byte elements (char, short, float, double, float4), random index
// expressions over threadIdx/blockIdx/loop variables, nested bounded loops and
// branches, __syncthreads() and __shfl_sync(), launched by a `main` with
// constant sizes that kcheck's static launch extraction evaluates.
//
// Assumptions that make a fault or a wrong value a kcheck bug:
// - every index is masked into its array (power-of-two sizes), unless the
//   program says `mayFault` (one index left unmasked on purpose);
// - every store to a shared or global array writes a value that depends only
//   on the index stored to (stores are idempotent), and arrays start out
//   holding those values (shared: a prologue; global: host code in GpuValues
//   mode), so reads never race with writes: the program's results do not
//   depend on the order threads run in, on kcheck or on a GPU;
// - each thread's result goes to out[its global thread id] (no two threads
//   share a slot);
// - __syncthreads() and full-mask shuffles are only in block-uniform control
//   flow, unless the program says `divergentBarrier` (one barrier in
//   thread-dependent flow on purpose: kcheck must report it, not crash);
// - all arithmetic is on unsigned (wraps, never undefined) and floating-point
//   values are small integers (exact on every machine).
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace kcheck::fuzz {

/// Where the generator's choices come from: libFuzzer's bytes (a mutation of
/// the input changes some choices and keeps the others) or a seeded PRNG.
/// Past the end of the bytes every choice is 0, the simplest program.
class ChoiceStream {
public:
  explicit ChoiceStream(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  explicit ChoiceStream(uint64_t seed) : fromSeed_(true), prng_(seed) {}

  /// A choice in [0, n); n must be > 0.
  uint32_t below(uint32_t n);
  /// True with probability about 1/n.
  bool oneIn(uint32_t n) { return below(n) == 0; }

private:
  bool fromSeed_ = false;
  std::span<const uint8_t> bytes_;
  size_t next_ = 0;
  std::mt19937_64 prng_;
};

enum class ProgramMode {
  /// `main` only allocates and launches: for kcheck's static path.
  Static,
  /// `main` also fills the inputs deterministically, copies every written
  /// buffer back and prints one hash per buffer: for comparing kcheck run
  /// with a GPU.
  GpuValues,
};

struct GeneratorOptions {
  ProgramMode mode = ProgramMode::Static;
  /// Sometimes leave an index unmasked (kcheck must report a fault cleanly).
  bool allowFaults = true;
  /// Sometimes put a __syncthreads() in thread-dependent control flow.
  bool allowDivergentBarriers = true;
};

struct GeneratedProgram {
  std::string source;
  bool mayFault = false;
  bool divergentBarrier = false;
  uint64_t mostBlocks = 0; // the largest grid among the launches
  unsigned launches = 0;
  std::vector<std::string> kernels;
};

GeneratedProgram generateProgram(ChoiceStream &choices,
                                 const GeneratorOptions &options);

} // namespace kcheck::fuzz
