// DecodedKernel's accessors that the executor uses: no LLVM here (the
// decoder, Decoder.cpp, is the engine's only LLVM side).
#include "simulator/engine/DecodedKernel.h"

namespace kcheck::sim {

unsigned DecodedKernel::pointerBits(unsigned addrSpace) const {
  switch (addrSpace) {
  case bc::kSharedAS:
    return sharedPtrBits_;
  case bc::kLocalAS:
    return localPtrBits_;
  default:
    return genericPtrBits_;
  }
}

std::string InstInfo::where() const {
  if (inlineChain.empty() || !inlineChain.front().valid())
    return "<unknown location>";
  return inlineChain.front().file + ":" +
         std::to_string(inlineChain.front().line);
}

bool DecodedKernel::usesDeviceHeap() const {
  for (const bc::Inst &in : code_)
    if (in.op == bc::Op::DeviceHeap)
      return true;
  return false;
}

bool DecodedKernel::usesClusters() const {
  for (const bc::Inst &in : code_)
    if (in.op == bc::Op::Cluster)
      return true;
  return false;
}

bool DecodedKernel::usesTextures() const {
  for (const bc::Inst &in : code_)
    if (in.op == bc::Op::Texture)
      return true;
  return false;
}

bool DecodedKernel::usesDeviceRuntime() const {
  for (const bc::Inst &in : code_)
    if (in.op == bc::Op::DeviceRuntime)
      return true;
  return false;
}

} // namespace kcheck::sim
