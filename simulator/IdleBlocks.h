// Idle blocks in a run of every block: where a launch must run every block
// for its stores (kcheck run: the program goes on with the bytes the kernel
// left), a block that provably leaves nothing behind but its counts is
// counted as its class's representative and not run. A grid padded past
// its data (`if (i < n)` in 500000 blocks of which 977 have data) costs the
// blocks with data.
//
// Why this is exact: a block is idle when it executed no pc that writes
// beyond the block (BlockSymmetry::effectPcs: global or generic stores,
// atomics, copies, sets) and no Unreached pc (a branch or address on data or
// blockIdx that the proof does not follow; device printf, the heap, the
// device runtime). Such a representative's path and counts depend on no
// loaded data, and a block that passes every BlockSymmetry check against
// what it was observed to use takes the same path (simulator/BlockClasses.h
// gives the argument): it executes no effect pc either, faults nowhere (its
// addresses are checked in bounds) and counts the same. Representatives are
// taken from the blocks of each window that ran and were idle, run once
// more alone to observe their checks (an idle block may run twice: it
// changes nothing).
#pragma once

#include "simulator/ClassMatching.h"

#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace kcheck::sim {

class IdleBlocks {
public:
  IdleBlocks(const DecodedKernel &kernel, const core::LaunchConfig &config,
             const std::vector<KernelArg> &args, DeviceMemory &memory,
             const Limits &limits, const BlockClassOptions &options,
             BlockSymmetry symmetry);
  ~IdleBlocks();

  /// The pcs a block that executes one is not idle: runners of the blocks
  /// that run report them as probes (RunnerOptions::probePcs).
  const std::vector<uint32_t> &watchPcs() const { return watchPcs_; }

  /// Forwards a running block's events to its counter and notes whether it
  /// reached a watched pc.
  class Watch : public EventSink {
  public:
    explicit Watch(EventSink &inner) : inner_(inner) {}
    void onAccess(const WarpAccess &a) override { inner_.onAccess(a); }
    void onBranch(const BranchEvent &b) override { inner_.onBranch(b); }
    void onBarrier(const BarrierEvent &b) override { inner_.onBarrier(b); }
    void onFault(const Fault &f) override { inner_.onFault(f); }
    void onInstruction(uint32_t id, uint32_t mask) override {
      inner_.onInstruction(id, mask);
    }
    void onProbe(uint32_t, uint32_t, const uint64_t *) override {
      reached_ = true;
    }
    bool idle() const { return !reached_; }

  private:
    EventSink &inner_;
    bool reached_ = false;
  };

  using Representative = classes::OpenClass;

  /// One thread's part: the representatives it took during a window (used
  /// by it at once, by every thread from the next window on), and the
  /// runner that observes them. Made on the driver's thread (a runner's
  /// construction allocates the module's symbols).
  class Learner {
  public:
    explicit Learner(std::unique_ptr<BlockRunner> observer);
    ~Learner();

  private:
    friend class IdleBlocks;
    std::unique_ptr<BlockRunner> observer_;
    std::deque<Representative> owned_; // stable: shared by pointer
    std::vector<const Representative *> fresh_;
  };
  std::unique_ptr<Learner> learner() const;

  /// The representative `block` provably behaves as, if any: then the block
  /// need not run. The shared ones may be read by several threads between
  /// share() calls.
  const Representative *representative(const core::Dim3 &block,
                                       const Learner &learner) const;
  /// Block `linear` ran idle: run it again alone through `counter` to
  /// record what it used, and keep it as a representative of `learner`'s
  /// while there is room.
  void learn(uint64_t linear, Learner &learner, BlockCounter &counter) const;
  /// Between windows: the learners' representatives become everyone's.
  void share(const std::vector<std::unique_ptr<Learner>> &learners);

  /// Blocks not run, by representative.
  using Skipped = std::vector<std::pair<const Representative *, uint64_t>>;
  static void note(Skipped &skipped, const Representative *r);
  /// Adds the skipped blocks' counts (their representatives') to `into`.
  static void count(LaunchResult &into, const Skipped &skipped);

private:
  const core::LaunchConfig &config_;
  const std::vector<KernelArg> &args_;
  DeviceMemory &memory_;
  const Limits &limits_;
  const BlockClassOptions &options_;
  const DecodedKernel &kernel_;
  std::vector<uint32_t> watchPcs_; // before matcher_: taken from the proof
  classes::ClassMatcher matcher_;
  std::vector<uint32_t> observedPcs_; // the checks' pcs and watchPcs_
  std::vector<const Representative *> shared_;
};

} // namespace kcheck::sim
