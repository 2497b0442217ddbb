// The device runtime's calls (DeviceRuntime.h): lane by lane in lane order,
// each lane's operands read, its call handed to the RunnerOptions'
// DeviceRuntime, its out-value written through its pointer.
#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace kcheck::sim {

namespace {

constexpr DeviceRuntimeFunction kFunctions[] = {
#define KCHECK_DEVICE_RUNTIME(op, symbol, operands)                            \
  {bc::DeviceRuntimeOp::op, symbol, operands},
#include "simulator/engine/DeviceRuntime.def"
};

// cudaErrorNotSupported: what a call answers without a device runtime.
constexpr uint64_t kNotSupported = 801;

} // namespace

DeviceRuntime::~DeviceRuntime() = default;

std::optional<DeviceRuntimeFunction>
deviceRuntimeFunction(std::string_view symbol) {
  for (const DeviceRuntimeFunction &f : kFunctions)
    if (f.symbol == symbol)
      return f;
  return std::nullopt;
}

const DeviceRuntimeFunction &deviceRuntimeFunction(bc::DeviceRuntimeOp op) {
  return kFunctions[size_t(op)];
}

std::vector<DeviceRuntimeFunction> deviceRuntimeFunctions() {
  return {std::begin(kFunctions), std::end(kFunctions)};
}

bool BlockRunner::Impl::genericPlace(uint64_t generic, uint64_t n,
                                     MemSpace &space, uint64_t &addr) const {
  resolveGeneric(generic, space, addr);
  return space == MemSpace::Shared  ? addr + n <= sharedBytes
         : space == MemSpace::Local ? addr + n <= kernel.localFrameBytes()
                                    : memory.find(addr, n) != nullptr;
}

bool BlockRunner::Impl::execDeviceRuntime(const bc::Inst &in, uint32_t pc,
                                          WarpState &w, uint32_t mask) {
  const DeviceRuntimeFunction &f =
      deviceRuntimeFunction(bc::DeviceRuntimeOp(in.sub));
  const uint32_t *operands = kernel.callOperands().data() + in.imm;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    DeviceRuntimeCall call;
    call.op = f.op;
    call.block = blockIdx;
    call.thread = threadOf(w, lane);
    call.instId = pc;
    call.read = [&, lane](uint64_t address, void *out, uint64_t bytes) {
      MemSpace space;
      uint64_t addr;
      if (!genericPlace(address, bytes, space, addr))
        return false;
      readBytes(space, addr, out, bytes, w, lane);
      return true;
    };
    // The `i` / `l` out-pointers (address, bytes), in order.
    std::vector<std::pair<uint64_t, unsigned>> outPointers;
    std::optional<uint64_t> answerPointer; // `a`
    unsigned slot = 0, value = 0, dim = 0, blob = 0;
    for (char letter : f.operands) {
      if (letter == 'k') {
        call.kernel = &kernel.deviceKernels()[in.aux];
        continue;
      }
      uint64_t v = w.slot(operands[slot++])[lane];
      if (letter == 'v') {
        call.values[value++] = v;
      } else if (letter == 'd') {
        std::array<uint32_t, 3> xyz{};
        MemSpace space;
        uint64_t addr;
        if (genericPlace(v, sizeof xyz, space, addr))
          readBytes(space, addr, xyz.data(), sizeof xyz, w, lane);
        call.dims[dim++] = {xyz[0], xyz[1], xyz[2]};
      } else if (unsigned n = deviceRuntimeOperandBytes(letter)) {
        std::vector<uint8_t> &bytes = call.blobs[blob++];
        MemSpace space;
        uint64_t addr;
        if (genericPlace(v, n, space, addr)) {
          bytes.resize(n);
          readBytes(space, addr, bytes.data(), n, w, lane);
        }
      } else if (letter == 'a') {
        answerPointer = v;
      } else { // 'i' / 'l'
        outPointers.push_back({v, letter == 'i' ? 4u : 8u});
      }
    }
    DeviceRuntimeAnswer answer = options.deviceRuntime
                                     ? options.deviceRuntime->call(call)
                                     : DeviceRuntimeAnswer{kNotSupported, {}};
    if (!answer.fault.empty()) {
      recordFault(FaultCause::Memory, "invalid device runtime call",
                  answer.fault, pc, w, lane, call.values[0]);
      return false;
    }
    if (in.dst) // slot 0 is the constant 0 (a call without a result)
      w.slot(in.dst)[lane] = answer.result;
    const std::optional<uint64_t> outs[] = {answer.out, answer.out2};
    for (size_t k = 0; k < outPointers.size() && k < 2; ++k) {
      if (!outs[k])
        continue;
      MemSpace space;
      uint64_t addr;
      auto [pointer, bytes] = outPointers[k];
      if (!genericPlace(pointer, bytes, space, addr)) {
        recordFault(FaultCause::Memory, "invalid device runtime out-pointer",
                    "Invalid " + std::to_string(bytes) +
                        "-byte write by the device runtime at address " +
                        std::to_string(pointer),
                    pc, w, lane, pointer);
        return false;
      }
      writeBytes(space, addr, &*outs[k], bytes, false, w, lane);
    }
    if (answerPointer && !answer.outBytes.empty()) {
      MemSpace space;
      uint64_t addr;
      uint64_t n = answer.outBytes.size();
      if (!genericPlace(*answerPointer, n, space, addr)) {
        recordFault(FaultCause::Memory, "invalid device runtime out-pointer",
                    "Invalid " + std::to_string(n) +
                        "-byte write by the device runtime at address " +
                        std::to_string(*answerPointer),
                    pc, w, lane, *answerPointer);
        return false;
      }
      writeBytes(space, addr, answer.outBytes.data(), n, false, w, lane);
    }
  }
  if (in.dst)
    w.taint[in.dst] = 0;
  return true;
}

} // namespace kcheck::sim
