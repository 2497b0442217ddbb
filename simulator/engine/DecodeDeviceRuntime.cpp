// Decoding of the CUDA device runtime's calls (DeviceRuntime.def): the
// operands' slots, the kernel a launch names, and the layout of a kernel's
// parameter buffer.
#include "simulator/engine/Decoder.h"

#include "simulator/engine/DeviceRuntime.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace kcheck::sim {

using namespace llvm;

#define TRY_SLOT(var, value)                                                   \
  auto var##OrErr = slotOf(value);                                             \
  if (!var##OrErr)                                                             \
    return var##OrErr.takeError();                                             \
  uint32_t var = *var##OrErr;

std::vector<DecodedKernel::ParameterPlace>
parameterPlaces(const Function &kernel) {
  const DataLayout &layout = kernel.getParent()->getDataLayout();
  std::vector<DecodedKernel::ParameterPlace> places;
  uint64_t offset = 0;
  for (const Argument &a : kernel.args()) {
    Type *type = a.hasByValAttr() ? a.getParamByValType() : a.getType();
    uint64_t size = layout.getTypeAllocSize(type);
    uint64_t align = a.getParamAlign().valueOrOne().value();
    align = std::max<uint64_t>(align, layout.getABITypeAlign(type).value());
    offset = (offset + align - 1) / align * align;
    places.push_back({offset, size});
    offset += size;
  }
  return places;
}

Error Decoder::decodeDeviceRuntime(const CallInst &call, bc::Inst &in,
                                   StringRef name) {
  std::optional<DeviceRuntimeFunction> f =
      deviceRuntimeFunction({name.data(), name.size()});
  if (!f)
    return unsupported(call, "device runtime function " + name +
                                 " (not executed: see "
                                 "docs/conformance.md, CUDA device runtime)");
  if (call.arg_size() != f->operands.size())
    return unsupported(call, "call of " + name + " with " +
                                 Twine(call.arg_size()) + " operands");
  in.op = bc::Op::DeviceRuntime;
  in.sub = uint8_t(f->op);
  in.imm = k_.callOperands_.size();
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    const Value *operand = call.getArgOperand(i);
    if (f->operands[i] == 'k') {
      const auto *kernel = dyn_cast<Function>(operand->stripPointerCasts());
      if (!kernel)
        return unsupported(call, name + " of a kernel chosen at run time (a "
                                        "function pointer)");
      in.aux = uint32_t(k_.deviceKernels_.size());
      k_.deviceKernels_.push_back(kernel->getName().str());
      continue;
    }
    TRY_SLOT(slot, operand);
    k_.callOperands_.push_back(slot);
  }
  emit(in, call, "call " + name.str());
  return Error::success();
}

} // namespace kcheck::sim
