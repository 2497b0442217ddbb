// Memory errors as compute-sanitizer's memcheck reports them, plus the
// allocation the access missed: the __shared__ variable (from the IR global),
// the local array (the alloca) or the global allocation nearest to the
// address (cudaMalloc'd or __device__), with the distance past its end.
// Only runs when an access faults, so it costs nothing on the normal path.
// Also the fault record every cause shares (recordFault, makeFault): the
// thread, block and source frames compute-sanitizer prints.
#include "simulator/engine/RunnerImpl.h"

#include <cstdio>

namespace kcheck::sim {

namespace {

const char *cudaSpaceName(MemSpace space) {
  switch (space) {
  case MemSpace::Shared:
    return "__shared__";
  case MemSpace::Local:
    return "__local__";
  case MemSpace::Constant:
    return "__constant__";
  default:
    return "__global__";
  }
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

struct Candidate {
  std::string name;
  uint64_t lo, hi;
};

/// ", 4 bytes after 'sdata' [0x0, 0x80)": where [addr, addr+bytes) lies
/// relative to the candidate nearest to it.
std::string relativeTo(const std::vector<Candidate> &candidates, uint64_t addr,
                       uint32_t bytes) {
  const Candidate *best = nullptr;
  uint64_t bestDistance = ~0ull;
  for (const Candidate &c : candidates) {
    uint64_t d = addr >= c.hi           ? addr - c.hi
                 : addr + bytes <= c.lo ? c.lo - addr
                                        : 0;
    if (d < bestDistance)
      best = &c, bestDistance = d;
  }
  if (!best)
    return "";
  std::string where;
  if (addr >= best->hi)
    where = std::to_string(addr - best->hi) + " bytes after";
  else if (addr + bytes <= best->lo)
    where = std::to_string(best->lo - addr) + " bytes before";
  else if (addr < best->lo)
    where = "straddling the start of";
  else
    where = "straddling the end of";
  return ", " + where + " " + best->name + " [" + hex(best->lo) + ", " +
         hex(best->hi) + ")";
}

} // namespace

std::pair<uint64_t, uint64_t>
BlockRunner::Impl::objectBounds(const InstInfo &info) const {
  if (info.sharedVariable >= 0) {
    const SharedVariable &v = kernel.sharedVariables()[info.sharedVariable];
    return {v.offset, v.dynamic ? sharedBytes : v.offset + v.bytes};
  }
  if (info.localVariable >= 0) {
    const LocalVariable &v = kernel.localVariables()[info.localVariable];
    return {v.offset, v.offset + v.bytes};
  }
  return {0, ~0ull};
}

std::string BlockRunner::Impl::nearestAllocation(MemSpace space, uint64_t addr,
                                                 uint32_t bytes,
                                                 uint32_t pc) const {
  const InstInfo &info = kernel.insts()[pc];
  std::vector<Candidate> candidates;
  auto quoted = [](const std::string &name, const char *fallback) {
    return name.empty() ? std::string(fallback) : "'" + name + "'";
  };
  switch (space) {
  case MemSpace::Shared:
    if (info.sharedVariable >= 0) {
      auto [lo, hi] = objectBounds(info);
      const SharedVariable &v = kernel.sharedVariables()[info.sharedVariable];
      candidates.push_back({quoted(v.sourceName, "__shared__ array"), lo, hi});
      break;
    }
    for (const SharedVariable &v : kernel.sharedVariables())
      candidates.push_back({quoted(v.sourceName, "__shared__ array"), v.offset,
                            v.dynamic ? sharedBytes : v.offset + v.bytes});
    if (candidates.empty())
      candidates.push_back({"the block's shared memory", 0, sharedBytes});
    break;
  case MemSpace::Local:
    if (info.localVariable >= 0) {
      auto [lo, hi] = objectBounds(info);
      const LocalVariable &v = kernel.localVariables()[info.localVariable];
      candidates.push_back({"local " + quoted(v.name, "array"), lo, hi});
      break;
    }
    for (const LocalVariable &v : kernel.localVariables())
      candidates.push_back(
          {"local " + quoted(v.name, "array"), v.offset, v.offset + v.bytes});
    break;
  default:
    for (const DeviceMemory::Allocation &a : memory.allocations())
      candidates.push_back({a.label == "cudaMalloc"
                                ? "a cudaMalloc allocation of " +
                                      std::to_string(a.size) + " bytes"
                                : quoted(a.label, "an allocation") + " (" +
                                      std::to_string(a.size) + " bytes)",
                            a.base, a.base + a.size});
  }
  return relativeTo(candidates, addr, bytes);
}

Fault BlockRunner::Impl::accessFault(bool misaligned, MemSpace space,
                                     const char *op, uint32_t bytes,
                                     uint64_t addr, uint32_t pc,
                                     const WarpState &w, unsigned lane) const {
  std::string access = std::string(cudaSpaceName(space)) + " " + op +
                       " of size " + std::to_string(bytes) + " bytes";
  std::string problem = misaligned
                            ? "address " + hex(addr) + " is misaligned (a " +
                                  std::to_string(bytes) +
                                  "-byte access needs a multiple "
                                  "of " +
                                  std::to_string(bytes) + ")"
                            : "address " + hex(addr) + " is out of bounds" +
                                  nearestAllocation(space, addr, bytes, pc);
  Fault f = makeFault(std::string(misaligned ? "misaligned" : "out-of-bounds") +
                          " " + toString(space) + " " + op,
                      "Invalid " + access + ": " + problem, pc, w, lane, addr);
  f.access = std::move(access);
  f.problem = std::move(problem);
  return f;
}

void BlockRunner::Impl::recordFault(FaultCause cause, std::string kind,
                                    std::string message, uint32_t pc,
                                    const WarpState &w, unsigned lane,
                                    uint64_t address,
                                    const core::SourceLoc *at) {
  result.status = BlockResult::Status::Faulted;
  result.fault =
      makeFault(std::move(kind), std::move(message), pc, w, lane, address, at);
  result.fault->cause = cause;
}

Fault BlockRunner::Impl::makeFault(std::string kind, std::string message,
                                   uint32_t pc, const WarpState &w,
                                   unsigned lane, uint64_t address,
                                   const core::SourceLoc *at) const {
  Fault f;
  f.kind = std::move(kind);
  f.thread = threadOf(w, lane);
  f.block = blockIdx;
  f.address = address;
  f.instId = pc;
  const auto &chain = kernel.insts()[pc].inlineChain;
  if (at)
    f.loc = *at;
  else if (!chain.empty())
    f.loc = chain.front();
  std::string place =
      at ? at->file + ":" + std::to_string(at->line) : where(pc);
  // The frames the instruction was inlined into, as compute-sanitizer lists
  // device frames: a fault inside a toolkit wrapper (__ballot_sync) names
  // the user's line too.
  if (!at)
    for (size_t i = 1; i < chain.size(); ++i)
      if (chain[i].valid() && (chain[i].file != chain[i - 1].file ||
                               chain[i].line != chain[i - 1].line))
        place += ", inlined at " + chain[i].file + ":" +
                 std::to_string(chain[i].line);
  f.message = message + "\n    at " + place + " in " + kernel.name() +
              "\n    by thread (" + core::toString(f.thread) + ") in block (" +
              core::toString(f.block) + ")";
  return f;
}

bool BlockRunner::Impl::memoryFault(bool misaligned, MemSpace space,
                                    const char *op, uint32_t bytes,
                                    uint64_t addr, uint32_t pc,
                                    const WarpState &w, unsigned lane) {
  if (quietFaults) // lanesOutsideMemory asks, nothing faults
    return false;
  result.status = BlockResult::Status::Faulted;
  result.fault = accessFault(misaligned, space, op, bytes, addr, pc, w, lane);
  return false;
}

void BlockRunner::Impl::recordOverrun(const char *op, uint32_t bytes,
                                      uint64_t addr, uint32_t pc,
                                      const WarpState &w, unsigned lane) {
  if (overranAt.empty())
    overranAt.assign(kernel.insts().size(), false);
  if (overranAt[pc])
    return;
  overranAt[pc] = true;
  overruns.push_back(
      accessFault(false, MemSpace::Global, op, bytes, addr, pc, w, lane));
}

std::string assertLine(const TrapInfo &trap, const Fault &f) {
  // __assertfail's own format, as the H100 printed it for Learn-CUDA-
  // Programming's sgemm assert (one line, the first failing thread's):
  // "sgemm.cu:29: void sgemm_kernel_A(const float *, ...): block: [0,0,0],
  // thread: [0,0,0] Assertion `A[row * K + col] == 0.f` failed."
  auto dim = [](const core::Dim3 &d) {
    return "[" + std::to_string(d.x) + "," + std::to_string(d.y) + "," +
           std::to_string(d.z) + "]";
  };
  return trap.at.file + ":" + std::to_string(trap.at.line) + ": " +
         trap.function + ": block: " + dim(f.block) +
         ", thread: " + dim(f.thread) + " Assertion `" + trap.expression +
         "` failed.\n";
}

} // namespace kcheck::sim
