#include "core/SharedLayout.h"

namespace kcheck::core {

namespace {
uint64_t alignUp(uint64_t value, uint64_t align) {
  return (value + align - 1) / align * align;
}
} // namespace

SharedLayout layOutStaticShared(const std::vector<SharedVarShape> &vars) {
  SharedLayout layout;
  uint64_t offset = 0;
  for (const SharedVarShape &var : vars) {
    offset = alignUp(offset, var.align ? var.align : 1);
    layout.offsets.push_back(offset);
    offset += var.bytes;
  }
  layout.staticBytes = alignUp(offset, kDynamicSharedAlign);
  return layout;
}

uint64_t knownAlignmentAt(uint64_t offset, uint64_t cap) {
  if (offset == 0)
    return cap;
  uint64_t align = offset & -offset; // lowest set bit
  return align < cap ? align : cap;
}

} // namespace kcheck::core
