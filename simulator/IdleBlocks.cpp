#include "simulator/IdleBlocks.h"

#include "simulator/AllBlocks.h"
#include "simulator/engine/StoreBuffer.h"

#include <algorithm>

namespace kcheck::sim {

namespace {

void sortUnique(std::vector<uint32_t> &pcs) {
  std::sort(pcs.begin(), pcs.end());
  pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
}

/// Records the checks' observations and notes whether a watched pc ran.
class ObservingSink : public EventSink {
public:
  ObservingSink(classes::ProbeSink &probes,
                const std::vector<uint32_t> &watchPcs)
      : probes_(probes), watchPcs_(watchPcs) {}
  void onAccess(const WarpAccess &a) override { probes_.onAccess(a); }
  void onBranch(const BranchEvent &b) override { probes_.onBranch(b); }
  void onBarrier(const BarrierEvent &b) override { probes_.onBarrier(b); }
  void onFault(const Fault &f) override { probes_.onFault(f); }
  void onInstruction(uint32_t id, uint32_t mask) override {
    probes_.onInstruction(id, mask);
  }
  void onProbe(uint32_t pc, uint32_t mask, const uint64_t *regs) override {
    reached_ |= std::binary_search(watchPcs_.begin(), watchPcs_.end(), pc);
    probes_.onProbe(pc, mask, regs);
  }
  bool idle() const { return !reached_; }

private:
  classes::ProbeSink &probes_;
  const std::vector<uint32_t> &watchPcs_;
  bool reached_ = false;
};

} // namespace

IdleBlocks::IdleBlocks(const DecodedKernel &kernel,
                       const core::LaunchConfig &config,
                       const std::vector<KernelArg> &args, DeviceMemory &memory,
                       const Limits &limits, const BlockClassOptions &options,
                       BlockSymmetry symmetry)
    : config_(config), args_(args), memory_(memory), limits_(limits),
      options_(options), kernel_(kernel), watchPcs_(symmetry.effectPcs),
      matcher_(kernel, memory, options, std::move(symmetry)) {
  for (const SymmetryCheck &c : matcher_.checks())
    if (c.kind == SymmetryCheck::Kind::Unreached)
      watchPcs_.push_back(c.pc);
  sortUnique(watchPcs_);
  observedPcs_ = matcher_.probePcs();
  observedPcs_.insert(observedPcs_.end(), watchPcs_.begin(), watchPcs_.end());
  sortUnique(observedPcs_);
}

IdleBlocks::~IdleBlocks() = default;

IdleBlocks::Learner::Learner(std::unique_ptr<BlockRunner> observer)
    : observer_(std::move(observer)) {}
IdleBlocks::Learner::~Learner() = default;

std::unique_ptr<IdleBlocks::Learner> IdleBlocks::learner() const {
  RunnerOptions observing;
  observing.probePcs = observedPcs_;
  observing.overruns = options_.overruns;
  return std::make_unique<Learner>(std::make_unique<BlockRunner>(
      kernel_, config_, args_, memory_, limits_, observing));
}

const IdleBlocks::Representative *
IdleBlocks::representative(const core::Dim3 &block,
                           const Learner &learner) const {
  for (const auto *list : {&shared_, &learner.fresh_})
    for (const Representative *r : *list)
      if (matcher_.matches(*r, block))
        return r;
  return nullptr;
}

void IdleBlocks::learn(uint64_t linear, Learner &learner,
                       BlockCounter &counter) const {
  size_t room = std::max(1u, options_.maxOpenClasses);
  if (shared_.size() + learner.fresh_.size() >= room)
    return;
  core::Dim3 b = blockAt(linear, config_.grid);
  Representative &cls = learner.owned_.emplace_back();
  cls.rep = b;
  cls.observed.resize(matcher_.checks().size());
  classes::ProbeSink probes(counter.begin(cls.part, b, false),
                            matcher_.checks(), matcher_.checksAt(),
                            cls.observed);
  ObservingSink observing(probes, watchPcs_);
  // It ran idle once and stores nothing; a buffer keeps any store from
  // landing all the same.
  StoreBuffer buffer;
  learner.observer_->setStoreBuffer(&buffer);
  BlockResult r = learner.observer_->runBlock(b, observing);
  learner.observer_->setStoreBuffer(nullptr);
  buffer.discard();
  if (r.ok() && observing.idle())
    learner.fresh_.push_back(&cls);
  else
    learner.owned_.pop_back();
}

void IdleBlocks::share(const std::vector<std::unique_ptr<Learner>> &learners) {
  size_t room = std::max(1u, options_.maxOpenClasses);
  for (const auto &l : learners) {
    for (const Representative *r : l->fresh_)
      if (shared_.size() < room)
        shared_.push_back(r);
    l->fresh_.clear();
  }
}

void IdleBlocks::note(Skipped &skipped, const Representative *r) {
  for (auto &[rep, n] : skipped)
    if (rep == r) {
      ++n;
      return;
    }
  skipped.emplace_back(r, 1);
}

void IdleBlocks::count(LaunchResult &into, const Skipped &skipped) {
  for (const auto &[rep, n] : skipped) {
    accumulate(into, rep->part, n);
    into.blocksIdle += n;
  }
}

} // namespace kcheck::sim
