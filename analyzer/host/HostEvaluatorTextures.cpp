// HostEvaluator: CUDA arrays and texture and surface objects, followed as
// the simulated runtime answers them (core/TextureRules.h, the rules both
// host paths share).
//
// - cudaCreateChannelDesc(x, y, z, w, f) is a descriptor of those five
//   values; cudaCreateChannelDesc<T>() and make_cudaExtent/Pos/PitchedPtr
//   are entered in the toolkit's headers, whose definitions say what they
//   return (followedToolkitFunction).
// - cudaMallocArray and cudaMalloc3DArray make an allocation holding the
//   array's texels (HostAllocation::array, its layout core's); the handle
//   is a device pointer to it. Copies into an array mark it as host data,
//   as cudaMemcpy does an allocation.
// - cudaCreateTextureObject and cudaCreateSurfaceObject read the
//   descriptors host code filled field by field (cudaResourceDesc and the
//   others are flattened like a user's struct, a union's members each their
//   own slots: host code writes the member its resType names) and record
//   the view core makes of them (HostProgram::textureObjects), its texels'
//   addresses relative to the allocation they lie in; the driver places it
//   before the first launch. The handle is the one the runtime would give
//   (1, 2, ... in the order made); an error core's rules give is the call's
//   result.
// Not followed, with a note naming the call: mipmapped arrays' textures,
// descriptors with a field the evaluation does not know.
#include "analyzer/host/HostEvaluatorDescriptors.h"

#include "core/RuntimeRules.h"
#include "core/TextureRules.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

namespace kcheck::analyzer {

using namespace clang;
namespace tx = core::textures;

bool HostEvaluator::followedToolkitFunction(const FunctionDecl *fd) const {
  if (!fd->getIdentifier())
    return false;
  llvm::StringRef n = fd->getName();
  if (n == "cudaCreateChannelDesc")
    return fd->getNumParams() == 0; // the template; the 5-int form is a call
  return n == "make_cudaExtent" || n == "make_cudaPos" ||
         n == "make_cudaPitchedPtr";
}

using descriptors::pointeeOfParam;

std::optional<AbstractValue>
HostEvaluator::evalTextureCall(const CallExpr *e, const std::string &name) {
  std::string here = where(e->getExprLoc());
  if (name == "cudaCreateChannelDesc" && e->getNumArgs() == 5) {
    std::vector<AbstractValue> parts;
    for (const Expr *a : e->arguments())
      parts.push_back(AbstractValue::of(eval(a).scalar));
    if (leafCount(e->getType()) != std::optional<uint64_t>(5))
      return AbstractValue::unknown("result of `cudaCreateChannelDesc` at " +
                                    here);
    return AbstractValue::object(std::move(parts));
  }
  // cudaCreateChannelDesc<T>(), cudaCreateChannelDescHalf4(), ...: the
  // header's definitions.
  if (llvm::StringRef(name).starts_with("cudaCreateChannelDesc")) {
    const FunctionDecl *fd = e->getDirectCallee(), *def = nullptr;
    if (fd && fd->hasBody(def))
      return callFunction(fd, e, 0, -1);
    return std::nullopt;
  }
  if (std::optional<AbstractValue> v = evalArrayAllocation(e, name))
    return v;
  // Copies into an array: its texels are the host's data, or the source
  // array's.
  llvm::StringRef n(name);
  if (n.starts_with("cudaMemcpy") &&
      (n.contains("ToArray") || n.starts_with("cudaMemcpy3D"))) {
    if (n.starts_with("cudaMemcpy3D")) {
      AbstractValue p = eval(argAt(e, 0));
      for (unsigned i = 1; i < e->getNumArgs(); ++i)
        eval(e->getArg(i));
      noteCopy3D(e, 0, p);
      return cudaSuccess(e);
    }
    // (dst, wOffset, hOffset, src, ...) for each of them.
    HostValue dst, src;
    for (unsigned i = 0; i < e->getNumArgs(); ++i) {
      HostValue v = eval(e->getArg(i)).scalar;
      if (i == 0)
        dst = v;
      else if (i == 3)
        src = v;
    }
    noteCopy(dst, src);
    return cudaSuccess(e);
  }
  if (name == "cudaCreateTextureObject")
    return createTextureObject(e, false);
  if (name == "cudaCreateSurfaceObject")
    return createTextureObject(e, true);
  return std::nullopt;
}

void HostEvaluator::noteCopy3D(const CallExpr *e, unsigned arg,
                               const AbstractValue &params) {
  DescriptorReader p(*this, params.slotRef, pointeeOfParam(e, arg), "p");
  // An array's end, else a pitched pointer's.
  auto end = [&](llvm::StringRef array, llvm::StringRef pitched) {
    HostValue v = p.value({array});
    return v.kind == HostValue::Kind::DevicePtr ? v : p.value({pitched, "ptr"});
  };
  noteCopy(end("dstArray", "dstPtr"), end("srcArray", "srcPtr"));
}

// How core's rules find the arrays a descriptor's placeholders name.
core::textures::ArrayLookup HostEvaluator::arrayLookup() const {
  using Object = HostTextureObject;
  auto allocationAt = [this](const void *h) -> const HostAllocation * {
    uint64_t p = reinterpret_cast<uint64_t>(h);
    int id = Object::allocationOf(p);
    if (id < 0 || size_t(id) >= program_.allocations.size() ||
        Object::offsetOf(p) != 0)
      return nullptr;
    return &program_.allocations[size_t(id)];
  };
  auto placedArray = [](const HostAllocation &a) {
    return tx::PlacedArray{&*a.array, Object::placeholder(a.id, 0)};
  };
  tx::ArrayLookup l;
  l.array = [=](const void *h) -> std::optional<tx::PlacedArray> {
    const HostAllocation *a = allocationAt(h);
    if (!a || !a->array)
      return std::nullopt;
    return placedArray(*a);
  };
  l.mipmap =
      [=, this](const void *h) -> std::optional<std::vector<tx::PlacedArray>> {
    const HostAllocation *m = allocationAt(h);
    if (!m || m->mipmapLevels.empty())
      return std::nullopt;
    std::vector<tx::PlacedArray> levels;
    for (int id : m->mipmapLevels)
      levels.push_back(placedArray(program_.allocations[size_t(id)]));
    return levels;
  };
  return l;
}

// cudaMallocArray, cudaMalloc3DArray, cudaMallocMipmappedArray and its
// levels, cudaMallocPitch, cudaMalloc3D: allocations laid out by the
// runtime's rules, their handles device pointers to them.
std::optional<AbstractValue>
HostEvaluator::evalArrayAllocation(const CallExpr *e, const std::string &name) {
  std::string here = where(e->getExprLoc());
  std::string unknown; // the first operand not known
  auto size = [&](const HostValue &v, size_t &out) {
    if (v.kind == HostValue::Kind::Int)
      out = size_t(v.i);
    else if (unknown.empty())
      unknown = "its size is not known: " + v.why;
  };
  auto extentOf = [&](const Expr *x, tx::Extent &out) {
    AbstractValue v = eval(x);
    if (v.leaves && v.leaves->size() == 3) {
      size((*v.leaves)[0].scalar, out.width);
      size((*v.leaves)[1].scalar, out.height);
      size((*v.leaves)[2].scalar, out.depth);
    } else if (unknown.empty()) {
      unknown = "its extent is not known: " + v.why();
    }
  };
  auto flagsOf = [&](const Expr *x) -> unsigned {
    if (!x)
      return 0;
    HostValue v = eval(x).scalar;
    if (v.kind != HostValue::Kind::Int && unknown.empty())
      unknown = "its flags are not known: " + v.why;
    return unsigned(v.i);
  };
  bool array = name == "cudaMallocArray", threeD = name == "cudaMalloc3DArray",
       mipmapped = name == "cudaMallocMipmappedArray";
  if (array || threeD || mipmapped) {
    AbstractValue target = eval(argAt(e, 0));
    DescriptorReader desc(*this, eval(argAt(e, 1)).slotRef,
                          pointeeOfParam(e, 1), "desc");
    tx::Extent extent;
    unsigned flags = 0, levels = 1;
    if (array) {
      size(eval(argAt(e, 2)).scalar, extent.width);
      if (argAt(e, 3))
        size(eval(argAt(e, 3)).scalar, extent.height);
      flags = flagsOf(argAt(e, 4));
    } else {
      extentOf(argAt(e, 2), extent);
      if (mipmapped) {
        size_t n = 0;
        size(eval(argAt(e, 3)).scalar, n);
        levels = unsigned(n);
      }
      flags = flagsOf(argAt(e, mipmapped ? 4 : 3));
    }
    tx::ChannelFormatDesc d = desc.channels({});
    if (unknown.empty())
      unknown = desc.missing;
    if (!unknown.empty()) {
      setThrough(target,
                 AbstractValue::unknown("the array of `" + name + "` at " +
                                        here + ": " + unknown));
      return cudaSuccess(e);
    }
    std::vector<tx::Extent> extents{extent};
    std::vector<tx::ArrayShape> shapes;
    tx::Answer a;
    if (array && (flags & (tx::kArrayLayered | tx::kArrayCubemap)))
      a.error = core::CudaError::cudaErrorInvalidValue; // 3D arrays' flags
    else if (mipmapped)
      a = tx::mipmapLevelExtents(extent, levels, flags, extents);
    for (const tx::Extent &x : extents)
      if (a.ok())
        a = tx::arrayShape(d, x, flags, shapes.emplace_back());
    if (!a.unsupported.empty()) {
      program_.notes.push_back("`" + name + "` at " + here + ": " +
                               a.unsupported + " is not simulated");
      setThrough(target,
                 AbstractValue::unknown("the array of `" + name + "` at " +
                                        here + ", not simulated"));
      return cudaSuccess(e);
    }
    if (a.error != core::CudaError::cudaSuccess) {
      program_.notes.push_back("`" + name + "` at " + here + " fails (" +
                               core::cudaErrorName(a.error) + ")");
      return cudaResult(e, a.error);
    }
    std::vector<int> made;
    for (tx::ArrayShape &shape : shapes) {
      HostAllocation alloc;
      alloc.bytes = shape.bytes;
      alloc.array = shape;
      if (mipmapped)
        alloc.name = text(argAt(e, 0)->IgnoreParenCasts()) + " level " +
                     std::to_string(made.size());
      made.push_back(
          addAllocation(e, mipmapped ? nullptr : &target, std::move(alloc)));
    }
    if (mipmapped) {
      HostAllocation m;
      m.bytes = 0;
      m.mipmapLevels = made;
      addAllocation(e, &target, std::move(m));
    }
    return cudaSuccess(e);
  }
  if (name == "cudaGetMipmappedArrayLevel") {
    AbstractValue target = eval(argAt(e, 0));
    HostValue m = eval(argAt(e, 1)).scalar, i = eval(argAt(e, 2)).scalar;
    const HostAllocation *mm =
        m.kind == HostValue::Kind::DevicePtr && m.allocation >= 0
            ? &program_.allocations[size_t(m.allocation)]
            : nullptr;
    if (!mm || mm->mipmapLevels.empty() || i.kind != HostValue::Kind::Int) {
      setThrough(target, AbstractValue::unknown(
                             "the level of `" + name + "` at " + here +
                             ": its mipmapped array or index is not known"));
      return cudaSuccess(e);
    }
    if (i.i < 0 || size_t(i.i) >= mm->mipmapLevels.size())
      return cudaResult(e, core::CudaError::cudaErrorInvalidValue);
    setThrough(target, AbstractValue::of(HostValue::devicePtr(
                           mm->mipmapLevels[size_t(i.i)], 0)));
    return cudaSuccess(e);
  }
  // Pitched linear memory: rows of core's pitch.
  if (name == "cudaMallocPitch" || name == "cudaMalloc3D") {
    AbstractValue target = eval(argAt(e, 0));
    size_t width = 0, height = 0, depth = 1;
    AbstractValue pitchOut;
    if (name == "cudaMallocPitch") {
      pitchOut = eval(argAt(e, 1));
      size(eval(argAt(e, 2)).scalar, width);
      size(eval(argAt(e, 3)).scalar, height);
    } else {
      tx::Extent x;
      extentOf(argAt(e, 1), x);
      width = x.width, height = x.height, depth = x.depth;
    }
    uint64_t pitch = core::pitchedRowBytes(width);
    HostAllocation alloc;
    if (unknown.empty())
      alloc.bytes = pitch * height * depth;
    else
      program_.notes.push_back("size of allocation `" +
                               text(argAt(e, 0)->IgnoreParenCasts()) + "` at " +
                               here + " is unknown: " + unknown);
    AbstractValue pitchValue =
        unknown.empty()
            ? AbstractValue::of(HostValue::integer(int64_t(pitch)))
            : AbstractValue::unknown("the pitch of `" + name + "` at " + here +
                                     ": " + unknown);
    if (name == "cudaMallocPitch") {
      addAllocation(e, &target, std::move(alloc));
      setThrough(pitchOut, pitchValue);
      return cudaSuccess(e);
    }
    // cudaMalloc3D(&p, extent): p = {ptr, pitch, xsize, ysize}.
    DescriptorReader p(*this, target.slotRef, pointeeOfParam(e, 0), "p");
    auto store = [&](llvm::StringRef f, AbstractValue v) {
      if (int at = p.slot({f}, -1); at >= 0)
        this->at(at) = std::move(v);
    };
    AbstractValue ptrSlot;
    ptrSlot.slotRef = p.slot({"ptr"}, -1);
    ptrSlot.slotCount = 1;
    addAllocation(e, &ptrSlot, std::move(alloc));
    store("pitch", pitchValue);
    store("xsize", AbstractValue::of(HostValue::integer(int64_t(width))));
    store("ysize", AbstractValue::of(HostValue::integer(int64_t(height))));
    return cudaSuccess(e);
  }
  return std::nullopt;
}

AbstractValue HostEvaluator::createTextureObject(const CallExpr *e,
                                                 bool surface) {
  std::string name =
      surface ? "cudaCreateSurfaceObject" : "cudaCreateTextureObject";
  std::string here = where(e->getExprLoc());
  AbstractValue out = eval(argAt(e, 0));
  DescriptorReader res{*this, eval(argAt(e, 1)).slotRef, pointeeOfParam(e, 1),
                       argAt(e, 1) ? text(argAt(e, 1)) : "?"};
  DescriptorReader tex{*this, -1, {}, "?"}, view{*this, -1, {}, "?"};
  bool hasView = false;
  if (!surface) {
    tex =
        DescriptorReader(*this, eval(argAt(e, 2)).slotRef, pointeeOfParam(e, 2),
                         argAt(e, 2) ? text(argAt(e, 2)) : "?");
    if (const Expr *v = argAt(e, 3)) {
      AbstractValue pv = eval(v);
      hasView = !(pv.scalar.kind == HostValue::Kind::Int && pv.scalar.i == 0);
      view = DescriptorReader(*this, pv.slotRef, pointeeOfParam(e, 3), text(v));
    }
  }
  auto notFollowed = [&](const std::string &why) {
    setThrough(out, AbstractValue::unknown("the object of `" + name + "` at " +
                                           here + ": " + why));
    return cudaSuccess(e);
  };
  // A device pointer in a descriptor, as a placeholder for the address
  // its allocation will have (HostTextureObject::placeholder).
  auto placed = [](const HostValue &p) -> void * {
    if (p.kind == HostValue::Kind::DevicePtr && p.allocation >= 0)
      return reinterpret_cast<void *>(
          HostTextureObject::placeholder(p.allocation, uint64_t(p.offset)));
    return nullptr; // null, or memory the device cannot read: refused
  };
  tx::ResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = int(res.integer({"resType"}));
  switch (rd.resType) {
  case 0:
    rd.res.array.array = placed(res.value({"res", "array", "array"}));
    break;
  case 1:
    rd.res.mipmap.mipmap = placed(res.value({"res", "mipmap", "mipmap"}));
    break;
  case 2:
    rd.res.linear.devPtr = placed(res.value({"res", "linear", "devPtr"}));
    rd.res.linear.desc = res.channels({"res", "linear", "desc"});
    rd.res.linear.sizeInBytes =
        size_t(res.integer({"res", "linear", "sizeInBytes"}));
    break;
  case 3:
    rd.res.pitch2D.devPtr = placed(res.value({"res", "pitch2D", "devPtr"}));
    rd.res.pitch2D.desc = res.channels({"res", "pitch2D", "desc"});
    rd.res.pitch2D.width = size_t(res.integer({"res", "pitch2D", "width"}));
    rd.res.pitch2D.height = size_t(res.integer({"res", "pitch2D", "height"}));
    rd.res.pitch2D.pitchInBytes =
        size_t(res.integer({"res", "pitch2D", "pitchInBytes"}));
    break;
  default:
    break;
  }
  tx::TextureDesc td;
  std::memset(&td, 0, sizeof td);
  tx::ResourceViewDesc vd;
  std::memset(&vd, 0, sizeof vd);
  if (!surface) {
    for (int d = 0; d < 3; ++d)
      td.addressMode[d] = int(tex.integer({"addressMode"}, d));
    td.filterMode = int(tex.integer({"filterMode"}));
    td.readMode = int(tex.integer({"readMode"}));
    td.sRGB = int(tex.integer({"sRGB"}));
    for (int c = 0; c < 4; ++c)
      td.borderColor[c] = float(tex.real({"borderColor"}, c));
    td.normalizedCoords = int(tex.integer({"normalizedCoords"}));
    td.maxAnisotropy = unsigned(tex.integer({"maxAnisotropy"}));
    td.mipmapFilterMode = int(tex.integer({"mipmapFilterMode"}));
    td.mipmapLevelBias = float(tex.real({"mipmapLevelBias"}));
    td.minMipmapLevelClamp = float(tex.real({"minMipmapLevelClamp"}));
    td.maxMipmapLevelClamp = float(tex.real({"maxMipmapLevelClamp"}));
    if (hasView) {
      vd.format = int(view.integer({"format"}));
      vd.width = size_t(view.integer({"width"}));
      vd.height = size_t(view.integer({"height"}));
      vd.depth = size_t(view.integer({"depth"}));
      vd.firstMipmapLevel = unsigned(view.integer({"firstMipmapLevel"}));
      vd.lastMipmapLevel = unsigned(view.integer({"lastMipmapLevel"}));
      vd.firstLayer = unsigned(view.integer({"firstLayer"}));
      vd.lastLayer = unsigned(view.integer({"lastLayer"}));
    }
  }
  for (const DescriptorReader *r : {&res, &tex, &view})
    if (!r->missing.empty())
      return notFollowed(r->missing);
  tx::ArrayLookup lookup = arrayLookup();
  core::TextureView v;
  tx::Answer a =
      surface ? tx::surfaceView(rd, lookup, v)
              : tx::textureView(rd, td, hasView ? &vd : nullptr, lookup, v);
  if (!a.unsupported.empty()) {
    program_.notes.push_back("`" + name + "` at " + here + ": " +
                             a.unsupported + " is not simulated");
    return notFollowed(a.unsupported + ", not simulated");
  }
  if (a.error != core::CudaError::cudaSuccess) {
    program_.notes.push_back("`" + name + "` at " + here + " fails (" +
                             core::cudaErrorName(a.error) + ")");
    return cudaResult(e, a.error);
  }
  HostTextureObject o;
  o.handle = program_.textureObjects.size() + 1;
  o.surface = surface;
  o.view = std::move(v);
  o.where = here;
  setThrough(out, AbstractValue::of(HostValue::integer(int64_t(o.handle))));
  program_.textureObjects.push_back(std::move(o));
  return cudaSuccess(e);
}

} // namespace kcheck::analyzer
