// Texture and surface instructions: each lane's fetch, gather or surface
// access executed by the texture unit (TextureUnit.h) on the object its
// handle names. They send no WarpAccess: the texture pipeline's traffic is
// counted in no ld/st metric (TextureUnit.h).
#include "simulator/engine/RunnerImpl.h"

#include <bit>

namespace kcheck::sim {

namespace {

// Global memory as this warp's lane sees it (the block's store buffer too).
class LaneTexelMemory : public TexelMemory {
public:
  LaneTexelMemory(BlockRunner::Impl &runner, WarpState &w, unsigned lane)
      : runner_(runner), w_(w), lane_(lane) {}
  bool valid(uint64_t addr, uint64_t n) const override {
    return runner_.memory.find(addr, n) != nullptr;
  }
  bool read(uint64_t addr, void *dst, uint64_t n) override {
    return runner_.readBytes(MemSpace::Global, addr, dst, n, w_, lane_);
  }
  void write(uint64_t addr, const void *src, uint64_t n) override {
    runner_.writeBytes(MemSpace::Global, addr, src, n, tainted, w_, lane_);
  }
  bool tainted = false; // of the data a surface write stores

private:
  BlockRunner::Impl &runner_;
  WarpState &w_;
  unsigned lane_;
};

} // namespace

bool BlockRunner::Impl::execTexture(const bc::Inst &in, uint32_t pc,
                                    WarpState &w, uint32_t mask) {
  core::TextureInstruction inst = core::TextureInstruction::decode(in.imm);
  using K = core::TextureInstruction::Kind;
  bool surface =
      inst.kind == K::Suld || inst.kind == K::Sust || inst.kind == K::Suq;
  bool dataTainted = false;
  for (unsigned k = 0; k < 8; ++k)
    dataTainted |= in.c && w.taint[in.c + k];
  bool resultTainted = false;
  const TextureView *view = nullptr;
  uint64_t viewHandle = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned lane = std::countr_zero(m);
    uint64_t handle = w.slot(in.a)[lane];
    // A warp's lanes mostly name one object: look it up once.
    if (!view || handle != viewHandle)
      view = memory.textures.find(handle, surface), viewHandle = handle;
    if (!view) {
      recordFault(FaultCause::Memory, "invalid texture object",
                  std::string(surface ? "surface" : "texture") +
                      " object handle " + std::to_string(handle) +
                      " names no live object",
                  pc, w, lane, handle);
      return false;
    }
    std::array<uint32_t, 4> coords{};
    std::array<uint32_t, 8> extra{};
    for (unsigned k = 0; k < 4; ++k)
      coords[k] = uint32_t(w.slot(in.b + k)[lane]);
    if (in.c)
      for (unsigned k = 0; k < 8; ++k)
        extra[k] = uint32_t(w.slot(in.c + k)[lane]);
    LaneTexelMemory texels(*this, w, lane);
    texels.tainted = dataTainted;
    TextureResult r = executeTexture(inst, *view, coords, extra, texels);
    if (!r.error.empty()) {
      recordFault(FaultCause::Memory, "illegal texture access", r.error, pc, w,
                  lane, handle);
      return false;
    }
    resultTainted |= r.tainted;
    for (unsigned k = 0; k < in.n; ++k)
      w.slot(in.dst + k)[lane] = r.words[k];
  }
  for (unsigned k = 0; k < in.n; ++k)
    w.taint[in.dst + k] = resultTainted;
  return true;
}

} // namespace kcheck::sim
