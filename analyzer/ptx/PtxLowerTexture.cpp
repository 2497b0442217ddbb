// Texture and surface statements (PTX ISA 9.0, "Texture Instructions" and
// "Surface Instructions"): tex, tld4, suld.b and sust.b become calls of
// kcheck.texture.read / kcheck.texture.write with the instruction in a
// constant (core/TextureInstruction.h), which the engine's texture unit
// executes. Forms not lowered fail with their name: sparse fetches (a
// residency predicate), depth compare and texel offsets, multisample
// geometries, formatted surface stores (sust.p), txq, suq.
#include "analyzer/ptx/PtxLowerer.h"

#include "core/TextureInstruction.h"

#include "llvm/IR/Module.h"

namespace kcheck::analyzer::ptx {

using namespace llvm;
using TI = core::TextureInstruction;

namespace {

std::optional<TI::Geometry> geometryOf(const Statement &st) {
  static const std::pair<const char *, TI::Geometry> names[] = {
      {"1d", TI::Geometry::D1},      {"2d", TI::Geometry::D2},
      {"3d", TI::Geometry::D3},      {"a1d", TI::Geometry::A1},
      {"a2d", TI::Geometry::A2},     {"cube", TI::Geometry::Cube},
      {"acube", TI::Geometry::ACube}};
  for (const auto &[name, g] : names)
    if (hasPart(st, name))
      return g;
  return std::nullopt;
}

} // namespace

bool Lowerer::lowerTexture(const Statement &st) {
  const std::string &op = st.parts[0];
  if (op == "txq" || op == "suq")
    return fail(op + " (texture and surface queries: no CUDA header emits "
                     "them)");
  if (st.guard)
    return fail("a guarded " + op);
  TI t;
  std::optional<TI::Geometry> g = geometryOf(st);
  if (!g)
    return fail(op + " geometry (2dms and a2dms are not lowered)");
  t.geometry = *g;
  const Operand *data = nullptr, *image = nullptr;
  std::vector<const Operand *> rest;
  if (op == "tex" || op == "tld4") {
    t.kind = op == "tex" ? TI::Kind::Tex : TI::Kind::Tld4;
    if (!hasPart(st, "v4"))
      return fail(op + " with other than four results (.v4)");
    std::vector<std::string> types = typesOf(st);
    if (types.size() != 2 || (types[1] != "f32" && types[1] != "s32"))
      return fail(op + " types");
    t.result = types[0] == "f32"   ? TI::Result::F32
               : types[0] == "s32" ? TI::Result::S32
               : types[0] == "u32" ? TI::Result::U32
                                   : TI::Result(255);
    if (t.result == TI::Result(255))
      return fail(op + " result type ." + types[0]);
    t.floatCoords = types[1] == "f32";
    if (hasPart(st, "level"))
      t.lod = TI::Lod::Level;
    else if (hasPart(st, "grad"))
      t.lod = TI::Lod::Grad;
    if (t.kind == TI::Kind::Tld4) {
      static const char *comps[] = {"r", "g", "b", "a"};
      for (unsigned c = 0; c < 4; ++c)
        if (hasPart(st, comps[c]))
          t.component = uint8_t(c);
      if (t.geometry != TI::Geometry::D2)
        return fail("tld4 on other than .2d");
    }
    if (st.operands.size() < 2)
      return fail(op + " operands");
    data = &st.operands[0];
    image = &st.operands[1];
    for (size_t i = 2; i < st.operands.size(); ++i)
      rest.push_back(&st.operands[i]);
    size_t wanted = t.lod == TI::Lod::Level  ? 1
                    : t.lod == TI::Lod::Grad ? 2
                                             : 0;
    if (rest.size() != wanted)
      return fail(op + " with a texel offset or depth compare");
    if (data->kind == Operand::Kind::Pair)
      return fail("sparse " + op + " (a residency predicate)");
  } else if (op == "suld" || op == "sust") {
    t.kind = op == "suld" ? TI::Kind::Suld : TI::Kind::Sust;
    if (st.parts.size() < 2 || st.parts[1] != "b")
      return fail(op + "." + (st.parts.size() > 1 ? st.parts[1] : "") +
                  " (only the unformatted .b form is lowered)");
    t.vector = hasPart(st, "v4") ? 4 : hasPart(st, "v2") ? 2 : 1;
    t.elementBits = hasPart(st, "b8")    ? 8
                    : hasPart(st, "b16") ? 16
                    : hasPart(st, "b64") ? 64
                                         : 32;
    t.clamp = hasPart(st, "zero")    ? TI::Clamp::Zero
              : hasPart(st, "clamp") ? TI::Clamp::Clamp
                                     : TI::Clamp::Trap;
    if (t.vector * t.elementBits > 128)
      return fail(op + " of more than 16 bytes");
    if (t.geometry == TI::Geometry::Cube || t.geometry == TI::Geometry::ACube)
      return fail(op + " geometry");
    if (st.operands.size() != 2)
      return fail(op + " operands");
    bool load = t.kind == TI::Kind::Suld;
    data = &st.operands[load ? 0 : 1];
    image = &st.operands[load ? 1 : 0];
  } else {
    return fail("instruction " + st.opcode);
  }
  if (image->kind != Operand::Kind::ImageAddress || image->elements.size() != 2)
    return fail(op + " address");

  IntegerType *i32 = b_.getInt32Ty();
  Value *handle = read(image->elements[0], 64);
  if (!handle)
    return fail(op + " texture or surface object");
  // Coordinates: PTX pads a 3-element vector to four; a scalar is one.
  const Operand &c = image->elements[1];
  std::vector<const Operand *> coords;
  if (c.kind == Operand::Kind::Vector)
    for (const Operand &e : c.elements)
      coords.push_back(&e);
  else
    coords.push_back(&c);
  if (coords.size() > 4 || coords.size() < core::textureCoordinates(t.geometry))
    return fail(op + " coordinates");
  Value *coordVec = PoisonValue::get(FixedVectorType::get(i32, 4));
  for (unsigned k = 0; k < 4; ++k) {
    Value *v = k < coords.size() ? read(*coords[k], 32) : b_.getInt32(0);
    if (!v)
      return fail(op + " coordinate");
    coordVec = b_.CreateInsertElement(coordVec, v, k);
  }
  std::vector<Value *> extra(8, b_.getInt32(0));
  if (t.lod == TI::Lod::Level) {
    Value *lod = read(*rest[0], 32);
    if (!lod)
      return fail("tex.level level");
    extra[0] = lod;
  } else if (t.lod == TI::Lod::Grad) {
    for (unsigned which = 0; which < 2; ++which) {
      const Operand &v = *rest[which];
      if (v.kind != Operand::Kind::Vector || v.elements.size() > 4)
        return fail("tex.grad gradients");
      for (unsigned k = 0; k < v.elements.size(); ++k) {
        Value *e = read(v.elements[k], 32);
        if (!e)
          return fail("tex.grad gradient");
        extra[4 * which + k] = e;
      }
    }
  }
  unsigned elementBits = t.elementBits;
  std::vector<const Operand *> dataOps;
  if (data->kind == Operand::Kind::Vector)
    for (const Operand &e : data->elements)
      dataOps.push_back(&e);
  else
    dataOps.push_back(data);
  unsigned wantData =
      t.kind == TI::Kind::Tex || t.kind == TI::Kind::Tld4 ? 4 : t.vector;
  if (dataOps.size() != wantData)
    return fail(op + " data vector");
  // A register narrower than 32 bits carries a b8/b16 element ("h").
  unsigned regBits = elementBits < 16 ? 16 : elementBits;
  if (t.kind == TI::Kind::Sust) {
    for (unsigned e = 0; e < t.vector; ++e) {
      Value *v = read(*dataOps[e], regBits);
      if (!v)
        return fail("sust data");
      if (elementBits == 64) {
        extra[2 * e] = b_.CreateTrunc(v, i32);
        extra[2 * e + 1] = b_.CreateTrunc(b_.CreateLShr(v, 32), i32);
      } else {
        extra[e] = b_.CreateZExtOrTrunc(v, i32);
      }
    }
  }
  Value *extraVec = PoisonValue::get(FixedVectorType::get(i32, 8));
  for (unsigned k = 0; k < 8; ++k)
    extraVec = b_.CreateInsertElement(extraVec, extra[k], k);

  Type *i64 = b_.getInt64Ty();
  Type *v4 = FixedVectorType::get(i32, 4);
  Type *v8 = FixedVectorType::get(i32, 8);
  bool writes = t.kind == TI::Kind::Sust;
  FunctionType *type = FunctionType::get(writes ? b_.getVoidTy() : v4,
                                         {i64, i64, v4, v8}, false);
  FunctionCallee f = module_.getOrInsertFunction(
      writes ? core::kTextureWriteFunction : core::kTextureReadFunction, type);
  if (auto *fn = dyn_cast<Function>(f.getCallee()); fn && !writes) {
    // A texture fetch reads memory only (as a non-volatile asm, which the
    // toolkit's headers give it, may be moved or merged).
    fn->setOnlyReadsMemory();
    fn->setDoesNotThrow();
    fn->setWillReturn();
  }
  CallInst *call =
      b_.CreateCall(f, {b_.getInt64(t.encode()), handle, coordVec, extraVec});
  tag(call, st);
  if (writes)
    return true;
  for (unsigned e = 0; e < dataOps.size(); ++e) {
    if (t.kind == TI::Kind::Suld && elementBits == 64) {
      Value *lo = b_.CreateZExt(b_.CreateExtractElement(call, 2 * e), i64);
      Value *hi = b_.CreateZExt(b_.CreateExtractElement(call, 2 * e + 1), i64);
      if (!write(*dataOps[e], b_.CreateOr(lo, b_.CreateShl(hi, 32))))
        return false;
      continue;
    }
    Value *word = b_.CreateExtractElement(call, e);
    if (t.kind == TI::Kind::Suld && regBits == 16)
      word = b_.CreateTrunc(word, b_.getInt16Ty());
    if (!write(*dataOps[e], word))
      return false;
  }
  return true;
}

} // namespace kcheck::analyzer::ptx
