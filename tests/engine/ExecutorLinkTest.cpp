// Linked with every object of kcheck_executor and kcheck_core, and no LLVM
// library (tests/engine/CMakeLists.txt): that it links is the test. It also
// runs what it can without a decoder: device memory and the ALU.
#include "simulator/engine/AluOps.h"
#include "simulator/engine/DeviceMemory.h"

#include <cstdio>
#include <limits>

int main() {
  using namespace kcheck::sim;
  DeviceMemory memory;
  uint64_t base = memory.allocate(64, "buffer");
  bool ok = base != 0 &&
            alu::fcmp<float>(unsigned(alu::FcmpPred::Olt), 1.0f, 2.0f) &&
            !alu::fcmp<float>(unsigned(alu::FcmpPred::Oeq),
                              std::numeric_limits<float>::quiet_NaN(), 1.0f);
  std::puts(ok ? "executor linked without LLVM" : "executor misbehaves");
  return ok ? 0 : 1;
}
