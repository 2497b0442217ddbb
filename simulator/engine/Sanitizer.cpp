#include "simulator/engine/Sanitizer.h"

#include <algorithm>
#include <bit>

namespace kcheck::sim {

const char *toString(Hazard hazard) {
  switch (hazard) {
  case Hazard::ReadAfterWrite:
    return "read-after-write";
  case Hazard::WriteAfterRead:
    return "write-after-read";
  case Hazard::WriteAfterWrite:
    return "write-after-write";
  }
  return "?";
}

bool SanitizerReport::faulted() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const SanitizerFinding &f) { return f.fault; });
}

namespace {

enum class Order { Ordered, Race, WarpRace };

} // namespace

/// One thread's access to a shared byte, with what orders it.
struct Sanitizer::Stamp {
  static constexpr uint32_t kNone = ~0u;
  uint32_t thread = kNone; // linear thread index in the block
  uint32_t pc = 0;
  uint32_t barrier = 0; // __syncthreads() its warp had passed
  uint32_t sync = 0;    // __syncwarp() (or barriers) its warp had passed
  uint64_t seq = 0;     // its warp's shared-access count: equal = one execution
  bool isVolatile = false, atomic = false;
  bool valid() const { return thread != kNone; }

  // Whether a GPU may run `earlier` and `later` in either order.
  static Order order(const Stamp &earlier, const Stamp &later) {
    if (!earlier.valid() || earlier.thread == later.thread ||
        (earlier.atomic && later.atomic) || earlier.barrier != later.barrier)
      return Order::Ordered;
    if (earlier.thread / kWarpSize != later.thread / kWarpSize)
      return Order::Race;
    if (earlier.sync != later.sync || earlier.seq == later.seq ||
        (earlier.isVolatile && later.isVolatile))
      return Order::Ordered;
    return Order::WarpRace;
  }
};

struct Sanitizer::ByteShadow {
  uint32_t generation = 0;   // the block run this state belongs to
  Stamp write;               // the last write (initcheck: written if valid)
  Stamp reader, otherReader; // since it: the latest, the latest of another
};

class Sanitizer::BlockSink : public EventSink {
public:
  explicit BlockSink(Sanitizer &owner) : owner_(owner) {}
  void setInner(EventSink &inner) { inner_ = &inner; }

  void onAccess(const WarpAccess &a) override {
    owner_.onAccess(a);
    inner_->onAccess(a);
  }
  void onBranch(const BranchEvent &b) override { inner_->onBranch(b); }
  void onBarrier(const BarrierEvent &b) override {
    owner_.onBarrier(b);
    inner_->onBarrier(b);
  }
  void onFault(const Fault &f) override {
    owner_.onFault(f);
    inner_->onFault(f);
  }
  void onInstruction(uint32_t id, uint32_t mask) override {
    inner_->onInstruction(id, mask);
  }
  void onProbe(uint32_t pc, uint32_t mask, const uint64_t *regs) override {
    inner_->onProbe(pc, mask, regs);
  }

private:
  Sanitizer &owner_;
  EventSink *inner_ = nullptr;
};

Sanitizer::Sanitizer(const DecodedKernel &kernel,
                     const core::LaunchConfig &launch, SanitizerOptions options)
    : kernel_(kernel), launch_(launch), options_(options),
      sink_(std::make_unique<BlockSink>(*this)) {
  unsigned warps = unsigned((launch.block.count() + kWarpSize - 1) / kWarpSize);
  barriers_.assign(warps, 0);
  warpSyncs_.assign(warps, 0);
  accesses_.assign(warps, 0);
  if (options.initcheck || options.racecheck)
    shadow_.resize(kernel.staticSharedBytes() + launch.dynamicSharedBytes);
}

Sanitizer::~Sanitizer() = default;

EventSink &Sanitizer::begin(core::Dim3 block, EventSink &inner) {
  block_ = block;
  if (++generation_ == 0) { // wrapped: forget every byte's state for real
    std::fill(shadow_.begin(), shadow_.end(), ByteShadow{});
    generation_ = 1;
  }
  std::fill(barriers_.begin(), barriers_.end(), 0);
  std::fill(warpSyncs_.begin(), warpSyncs_.end(), 0);
  std::fill(accesses_.begin(), accesses_.end(), 0);
  sink_->setInner(inner);
  return *sink_;
}

core::Dim3 Sanitizer::threadAt(uint32_t linear) const {
  const core::Dim3 &b = launch_.block;
  return {uint32_t(linear % b.x), uint32_t(linear / b.x % b.y),
          uint32_t(linear / (uint64_t(b.x) * b.y))};
}

SanitizerFinding &Sanitizer::finding(SanitizerFinding::Check check,
                                     uint32_t instId, uint32_t otherInstId,
                                     Hazard hazard, bool withinWarp,
                                     bool &fresh) {
  auto [it, inserted] = index_.try_emplace(
      {int(check), instId, otherInstId, int(hazard), withinWarp},
      report_.findings.size());
  fresh = inserted;
  if (inserted) {
    SanitizerFinding f;
    f.check = check;
    f.instId = instId;
    f.otherInstId = otherInstId;
    f.hazard = hazard;
    f.withinWarp = withinWarp;
    f.block = block_;
    f.count = 0;
    report_.findings.push_back(std::move(f));
  }
  SanitizerFinding &f = report_.findings[it->second];
  ++f.count;
  return f;
}

void Sanitizer::onAccess(const WarpAccess &a) {
  if (a.space == MemSpace::Shared && !shadow_.empty())
    checkShared(a);
}

void Sanitizer::onBarrier(const BarrierEvent &b) {
  if (b.warp >= barriers_.size())
    return;
  if (!b.warpLevel)
    ++barriers_[b.warp];
  ++warpSyncs_[b.warp];
}

void Sanitizer::onFault(const Fault &f) {
  using Check = SanitizerFinding::Check;
  Check check;
  if (f.cause == FaultCause::Memory && options_.memcheck)
    check = Check::Memcheck;
  else if (f.cause == FaultCause::WarpMemberMask && options_.synccheck)
    check = Check::Synccheck;
  else
    return;
  bool fresh;
  SanitizerFinding &s =
      finding(check, f.instId, 0, Hazard::ReadAfterWrite, false, fresh);
  if (fresh) {
    s.thread = f.thread;
    s.block = f.block;
    s.address = f.address;
    s.fault = f;
  }
}

void Sanitizer::checkShared(const WarpAccess &a) {
  const InstInfo &info = kernel_.insts()[a.instId];
  const uint32_t w = a.warp;
  Stamp s;
  s.pc = a.instId;
  s.barrier = barriers_[w];
  s.sync = warpSyncs_[w];
  s.seq = ++accesses_[w];
  s.isVolatile = info.isVolatile;
  s.atomic = info.isAtomic;
  for (uint32_t m = a.activeMask; m; m &= m - 1) {
    unsigned lane = unsigned(std::countr_zero(m));
    s.thread = w * kWarpSize + lane;
    checkSharedLane(a, info, s, lane);
  }
}

// Lane `lane`'s bytes of the access (stamped `s`): its races with earlier
// accesses, and its reads of bytes never written.
void Sanitizer::checkSharedLane(const WarpAccess &a, const InstInfo &info,
                                const Stamp &s, unsigned lane) {
  const bool reads = a.kind != AccessKind::Store;
  const bool writes = a.kind != AccessKind::Load;
  uint64_t first = a.addrs[lane];
  uint64_t end = std::min<uint64_t>(first + a.bytesPerLane, shadow_.size());
  bool uninitialized = false;
  // One count per thread access and instruction pair, whatever its bytes.
  std::pair<uint32_t, Hazard> counted[8];
  unsigned numCounted = 0;
  auto consider = [&](const Stamp &earlier, Hazard hazard) {
    Order o = Stamp::order(earlier, s);
    if (o == Order::Ordered)
      return;
    bool withinWarp = o == Order::WarpRace;
    bool fresh;
    for (unsigned i = 0; i < numCounted; ++i)
      if (counted[i] == std::pair(earlier.pc, hazard))
        return;
    if (numCounted < 8)
      counted[numCounted++] = {earlier.pc, hazard};
    SanitizerFinding &f = finding(SanitizerFinding::Check::Racecheck, s.pc,
                                  earlier.pc, hazard, withinWarp, fresh);
    if (fresh) {
      f.thread = threadAt(s.thread);
      f.otherThread = threadAt(earlier.thread);
      f.address = first;
    }
  };
  for (uint64_t byte = first; byte < end; ++byte) {
    // Bytes a widened load reads for the hardware, not for the program.
    if (reads && !writes && info.readBytesMask != 0 &&
        !(info.readBytesMask >> (byte - first) & 1))
      continue;
    ByteShadow &sh = shadow_[byte];
    if (sh.generation != generation_)
      sh = ByteShadow{generation_, {}, {}, {}};
    if (reads && !sh.write.valid())
      uninitialized = true;
    if (options_.racecheck) {
      if (writes) {
        consider(sh.write, Hazard::WriteAfterWrite);
        consider(sh.reader, Hazard::WriteAfterRead);
        consider(sh.otherReader, Hazard::WriteAfterRead);
      } else {
        consider(sh.write, Hazard::ReadAfterWrite);
      }
    }
    if (writes) {
      sh.write = s;
      sh.reader = sh.otherReader = Stamp{};
    } else if (options_.racecheck) {
      if (sh.reader.valid() && sh.reader.thread != s.thread)
        sh.otherReader = sh.reader;
      sh.reader = s;
    }
  }
  if (uninitialized && options_.initcheck) {
    bool fresh;
    SanitizerFinding &f = finding(SanitizerFinding::Check::Initcheck, s.pc, 0,
                                  Hazard::ReadAfterWrite, false, fresh);
    if (fresh) {
      f.thread = threadAt(s.thread);
      f.address = first;
    }
  }
}

} // namespace kcheck::sim
