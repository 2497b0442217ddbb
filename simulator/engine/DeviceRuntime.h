// The CUDA device runtime as the engine sees it: a kernel's calls of
// cuda_device_runtime_api.h's functions (DeviceRuntime.def) go, lane by lane
// in lane order, to a DeviceRuntime the driver gives the runner
// (RunnerOptions::deviceRuntime). The engine reads the operands (a dim3
// passed by value from the thread's memory, the kernel a launch names) and
// writes the call's out-value through the thread's pointer; what a call
// means (which launches are valid, when a child grid runs, the device's
// facts) is the runtime's, not the engine's: it has no hardware knowledge.
#pragma once

#include "core/Launch.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::sim {

namespace bc {
enum class DeviceRuntimeOp : uint8_t {
#define KCHECK_DEVICE_RUNTIME(op, symbol, operands) op,
#include "simulator/engine/DeviceRuntime.def"
};
} // namespace bc

/// A row of DeviceRuntime.def.
struct DeviceRuntimeFunction {
  bc::DeviceRuntimeOp op;
  std::string_view symbol;   // "__cudaCDP2LaunchDevice"
  std::string_view operands; // one letter per operand (DeviceRuntime.def)
};

/// The row of `symbol`, if the engine executes it.
std::optional<DeviceRuntimeFunction> deviceRuntimeFunction(std::string_view);
const DeviceRuntimeFunction &deviceRuntimeFunction(bc::DeviceRuntimeOp op);
/// Every row, in table order (the conformance table's "provided").
std::vector<DeviceRuntimeFunction> deviceRuntimeFunctions();

/// The bytes an `e`, `q` or `m` operand points to (DeviceRuntime.def), 0
/// for the other letters.
constexpr unsigned deviceRuntimeOperandBytes(char letter) {
  return letter == 'e' ? 24 : letter == 'q' ? 32 : letter == 'm' ? 160 : 0;
}

/// One thread's call.
struct DeviceRuntimeCall {
  bc::DeviceRuntimeOp op{};
  core::Dim3 block, thread; // the calling thread
  uint32_t instId = 0;      // the call's instruction (where it was made)
  // The `k` operand: the mangled name of the kernel it names (null: none).
  const std::string *kernel = nullptr;
  uint64_t values[8] = {}; // the `v` operands, in order
  core::Dim3 dims[2];      // the `d` operands, in order
  // The `e` / `q` / `m` operands' bytes, in order (empty where the pointer
  // is not the thread's memory).
  std::vector<uint8_t> blobs[2];
  // Reads `bytes` of the calling thread's memory at generic `address` (a
  // buffer the call is given); false where it has none there.
  std::function<bool(uint64_t address, void *out, uint64_t bytes)> read;
};

/// What the call returns, and what it writes through its out-pointer (the
/// `i`/`l` operand) when `out` is set.
struct DeviceRuntimeAnswer {
  DeviceRuntimeAnswer(uint64_t result = 0, std::optional<uint64_t> out = {},
                      std::string fault = {})
      : result(result), out(out), fault(std::move(fault)) {}
  uint64_t result;
  std::optional<uint64_t> out;
  // For a second `i` / `l` operand (cudaCGGetSize's two counts).
  std::optional<uint64_t> out2;
  // For an `a` operand: the bytes written through it.
  std::vector<uint8_t> outBytes;
  // Not empty: the call faults the thread, as the GPU does (the message
  // says why).
  std::string fault;
};

class DeviceRuntime {
public:
  virtual ~DeviceRuntime();
  /// Called from one thread at a time (the runner of a kernel that calls
  /// the device runtime runs its blocks in order on one thread).
  virtual DeviceRuntimeAnswer call(const DeviceRuntimeCall &call) = 0;
};

} // namespace kcheck::sim
