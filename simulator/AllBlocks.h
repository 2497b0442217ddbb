// Runs every block of a launch, on several threads when that cannot change
// the result. Used when block classes cannot be proven (or --exhaustive).
//
// Blocks go in windows of kWindowBlocks consecutive blocks (launch order, x
// fastest); each thread runs a contiguous slice of a window with its own
// BlockRunner and counter, its global stores held in a StoreBuffer; then the
// slices' counts and stores are merged in launch order. So a block reads
// global memory as it stood when its window began plus its own stores, and
// the bytes left behind are the last block's (launch order) that wrote them.
// A race-free CUDA program cannot tell this from any GPU schedule; a racy one
// (a block reading another block's plain stores of the same launch) gets an
// answer that depends on the window size only, never on the thread count or
// timing. Kernels with global atomics — the sanctioned way for blocks to talk
// — run on one thread, with direct stores, block after block.
#pragma once

#include "simulator/BlockClasses.h"

namespace kcheck::sim {

inline constexpr uint64_t kWindowBlocks = 4096;

/// The block at `linear` in launch order (x fastest).
inline core::Dim3 blockAt(uint64_t linear, const core::Dim3 &grid) {
  return {uint32_t(linear % grid.x), uint32_t(linear / grid.x % grid.y),
          uint32_t(linear / (uint64_t(grid.x) * grid.y))};
}

/// Non-empty when a launch that has run `steps` (warp instructions, at least
/// one per block) went past `limits`, or its memory did: the launch's error.
std::string launchLimitError(const Limits &limits, uint64_t steps,
                             const DeviceMemory &memory);

/// Whether the launch may run with buffered stores: no global atomics, and
/// no volatile or atomic global loads that read other blocks' stores.
bool blocksMayRunBuffered(const DecodedKernel &kernel);

/// Appends `text` to a launch's notes unless they already say it (accesses
/// of one line, or blocks on several threads, raise the same note).
void addNoteOnce(std::vector<std::string> &notes, std::string text);

/// Notes and overruns gathered from several runners, put into a launch's
/// result in the order running block after block would raise them: each
/// note once, each instruction's first overrun in launch order.
struct RunnerReports {
  std::vector<std::pair<uint64_t, std::string>> notes; // (linear block, note)
  std::vector<Fault> overruns;
  bool usedUnseenInput = false;
  void add(const BlockRunner &runner);
  void mergeInto(LaunchResult &result, const core::Dim3 &grid);
};

class IdleBlocks;

/// Runs blocks `firstBlock` to the end (launch order), `stepsSoFar` warp
/// instructions of the launch's budget already spent by earlier ones. With
/// `idle` (a kernel whose blocks run buffered), blocks it proves idle are
/// counted as their representative instead of run (IdleBlocks.h).
LaunchResult runAllBlocks(const DecodedKernel &kernel,
                          const core::LaunchConfig &config,
                          const std::vector<KernelArg> &args,
                          DeviceMemory &memory, const Limits &limits,
                          const BlockClassOptions &options,
                          BlockCounter &counter, uint64_t firstBlock = 0,
                          uint64_t stepsSoFar = 0, IdleBlocks *idle = nullptr);

} // namespace kcheck::sim
