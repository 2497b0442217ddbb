#include "analyzer/ptx/WmmaFragments.h"

#include <algorithm>
#include <string>

namespace kcheck::analyzer::wmma {

unsigned bitsOf(Element e) {
  switch (e) {
  case Element::S4:
  case Element::U4:
    return 4;
  case Element::B1:
    return 1;
  default:
    return 8 * bytesOf(e);
  }
}

unsigned bytesOf(Element e) {
  switch (e) {
  case Element::F16:
  case Element::BF16:
    return 2;
  case Element::TF32:
  case Element::F32:
  case Element::S32:
    return 4;
  case Element::F64:
    return 8;
  case Element::S8:
  case Element::U8:
  case Element::S4:
  case Element::U4:
  case Element::B1:
    return 1;
  }
  return 4;
}

bool isInteger(Element e) {
  return e == Element::S8 || e == Element::U8 || e == Element::S32 ||
         isSubByte(e);
}

bool isSubByte(Element e) {
  return e == Element::S4 || e == Element::U4 || e == Element::B1;
}

namespace {
Matrix other(Matrix x) {
  return x == Matrix::A ? Matrix::B : x == Matrix::B ? Matrix::A : Matrix::C;
}
} // namespace

unsigned Form::distinct(Matrix x) const {
  if (transposed())
    return transposedForm().distinct(other(x));
  switch (x) {
  case Matrix::A:
    return tilesM() * rowBits() * kBlocks();
  case Matrix::B:
    return tilesN() * kBlocks();
  case Matrix::C:
    return tilesM() * tilesN() * rowBits() * 2;
  }
  return 0;
}

unsigned Form::registers(Matrix x) const {
  if (x != Matrix::C && ab == Element::F16)
    return 8; // PTX: ".f16: eight .f16x2 registers" for every shape
  return distinct(x);
}

unsigned Form::contiguousExtent(Matrix x, bool rowMajor) const {
  switch (x) {
  case Matrix::A:
    return rowMajor ? k : m;
  case Matrix::B:
    return rowMajor ? n : k;
  case Matrix::C:
    return rowMajor ? n : m;
  }
  return 16;
}

std::vector<RegisterSpan> Form::aRowRegisters(unsigned tm, unsigned rowBit,
                                              unsigned q) const {
  std::vector<RegisterSpan> spans;
  unsigned perTile = rowBits() * kBlocks();
  for (unsigned kb = 0; kb < kBlocks(); ++kb)
    spans.push_back({tm * perTile + kb * rowBits() + rowBit,
                     kb * 4 * chunk() + q * chunk(), chunk()});
  return spans;
}

std::vector<RegisterSpan> Form::bColumnRegisters(unsigned tn,
                                                 unsigned q) const {
  std::vector<RegisterSpan> spans;
  for (unsigned kb = 0; kb < kBlocks(); ++kb)
    spans.push_back(
        {tn * kBlocks() + kb, kb * 4 * chunk() + q * chunk(), chunk()});
  return spans;
}

std::vector<AccumulatorElement> Form::accumulatorElements() const {
  std::vector<AccumulatorElement> out;
  for (unsigned tm = 0; tm < tilesM(); ++tm)
    for (unsigned tn = 0; tn < tilesN(); ++tn)
      for (unsigned e = 0; e < 2 * rowBits(); ++e)
        out.push_back({tm, tn, e / 2, e % 2});
  return out;
}

std::vector<Group> groups(const Form &f, Matrix x) {
  if (f.transposed()) {
    std::vector<Group> out = groups(f.transposedForm(), other(x));
    for (Group &g : out)
      for (Position &p : g.elements)
        std::swap(p.row, p.col);
    return out;
  }
  std::vector<Group> out;
  int c = int(f.chunk());
  auto rowOf = [&](unsigned tm, unsigned rowBit) {
    return Affine{int(f.baseM() * tm + 8 * rowBit), 1, 0};
  };
  switch (x) {
  case Matrix::A:
    for (unsigned tm = 0; tm < f.tilesM(); ++tm)
      for (unsigned r = 0; r < f.rowBits() * f.kBlocks(); ++r) {
        unsigned rowBit = r % f.rowBits(), kb = r / f.rowBits();
        Group g;
        for (int s = 0; s < c; ++s)
          g.elements.push_back(
              {rowOf(tm, rowBit), Affine{int(kb) * 4 * c + s, 0, c}});
        out.push_back(g);
      }
    break;
  case Matrix::B:
    for (unsigned tn = 0; tn < f.tilesN(); ++tn)
      for (unsigned kb = 0; kb < f.kBlocks(); ++kb) {
        Group g;
        for (int s = 0; s < c; ++s)
          g.elements.push_back(
              {Affine{int(kb) * 4 * c + s, 0, c}, Affine{int(8 * tn), 1, 0}});
        out.push_back(g);
      }
    break;
  case Matrix::C:
    for (unsigned tm = 0; tm < f.tilesM(); ++tm)
      for (unsigned tn = 0; tn < f.tilesN(); ++tn)
        for (unsigned rowBit = 0; rowBit < f.rowBits(); ++rowBit) {
          Group g;
          for (int colBit = 0; colBit < 2; ++colBit)
            g.elements.push_back(
                {rowOf(tm, rowBit), Affine{int(8 * tn) + colBit, 0, 2}});
          out.push_back(g);
        }
    break;
  }
  return out;
}

bool adjacent(const Group &group, bool rowMajor) {
  const Position &first = group.elements[0];
  for (size_t i = 1; i < group.elements.size(); ++i) {
    const Position &p = group.elements[i];
    const Affine &same = rowMajor ? p.row : p.col;
    const Affine &next = rowMajor ? p.col : p.row;
    const Affine &same0 = rowMajor ? first.row : first.col;
    const Affine &next0 = rowMajor ? first.col : first.row;
    if (same.c != same0.c || same.g != same0.g || same.t != same0.t ||
        next.g != next0.g || next.t != next0.t || next.c != next0.c + int(i))
      return false;
  }
  return true;
}

Position transposedAccess(const Position &p) {
  auto base = [](const Affine &a) { return a.c / 8 * 8; };
  auto offset = [](const Affine &a) { return Affine{a.c % 8, a.g, a.t}; };
  Affine rowOff = offset(p.row), colOff = offset(p.col);
  return {Affine{base(p.row) + colOff.c, colOff.g, colOff.t},
          Affine{base(p.col) + rowOff.c, rowOff.g, rowOff.t}};
}

namespace {

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

std::optional<Element> elementNamed(std::string_view s) {
  if (s == "f16")
    return Element::F16;
  if (s == "bf16")
    return Element::BF16;
  if (s == "tf32")
    return Element::TF32;
  if (s == "f32")
    return Element::F32;
  if (s == "f64")
    return Element::F64;
  if (s == "s8")
    return Element::S8;
  if (s == "u8")
    return Element::U8;
  if (s == "s32")
    return Element::S32;
  if (s == "s4")
    return Element::S4;
  if (s == "u4")
    return Element::U4;
  if (s == "b1")
    return Element::B1;
  return std::nullopt;
}

// m16n16k16 -> (16, 16, 16).
bool parseShape(std::string_view s, Form &f) {
  unsigned v[3] = {0, 0, 0};
  const char letters[] = {'m', 'n', 'k'};
  size_t i = 0;
  for (unsigned d = 0; d < 3; ++d) {
    if (i >= s.size() || s[i] != letters[d])
      return false;
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      v[d] = v[d] * 10 + unsigned(s[i++] - '0');
  }
  f.m = v[0];
  f.n = v[1];
  f.k = v[2];
  return i == s.size();
}

// The forms of mma.h's table: (shape, A/B type).
bool knownForm(const Form &f) {
  bool sixteen =
      f.k == 16 && ((f.m == 16 && f.n == 16) || (f.m == 32 && f.n == 8) ||
                    (f.m == 8 && f.n == 32));
  switch (f.ab) {
  case Element::F16:
  case Element::BF16:
  case Element::S8:
  case Element::U8:
    return sixteen;
  case Element::TF32:
    return f.m == 16 && f.n == 16 && f.k == 8;
  case Element::F64:
    return f.m == 8 && f.n == 8 && f.k == 4;
  case Element::S4:
  case Element::U4:
    return f.m == 8 && f.n == 8 && f.k == 32;
  case Element::B1:
    return f.m == 8 && f.n == 8 && f.k == 128;
  default:
    return false;
  }
}

// An accumulator's form from the shape alone (its layout depends only on
// the tile's rows).
Element accumulatorForm(const Form &f, Element c) {
  if (c == Element::F64)
    return Element::F64;
  if (c == Element::S32)
    return f.k == 32 ? Element::S4 : f.k == 128 ? Element::B1 : Element::S8;
  return f.k == 8 ? Element::TF32 : Element::F16;
}

} // namespace

bool isLoweredShape(unsigned m, unsigned n, unsigned k) {
  for (Element e :
       {Element::F16, Element::TF32, Element::F64, Element::S4, Element::B1})
    if (knownForm(Form{m, n, k, e}))
      return true;
  return false;
}

std::optional<Intrinsic> parseIntrinsic(std::string_view name) {
  constexpr std::string_view prefix = "llvm.nvvm.wmma.";
  if (name.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  std::vector<std::string_view> p = split(name.substr(prefix.size()));
  // A trailing address space (.p0, .p3) says nothing the pointer does not.
  if (!p.empty() && p.back().size() >= 2 && p.back()[0] == 'p' &&
      p.back()[1] >= '0' && p.back()[1] <= '9')
    p.pop_back();
  Intrinsic in;
  if (p.size() < 4 || !parseShape(p[0], in.form))
    return std::nullopt;
  if (p[1] == "mma") {
    // mma[.{xor,and}.popc].{row,col}.{row,col}.TYPES[.satfinite]
    in.mma = true;
    if (p.size() > 3 && (p[2] == "xor" || p[2] == "and") && p[3] == "popc") {
      in.bitOp = p[2] == "xor" ? Intrinsic::BitOp::Xor : Intrinsic::BitOp::And;
      p.erase(p.begin() + 2, p.begin() + 4);
    }
    if (p.size() < 5)
      return std::nullopt;
    in.satfinite = p.back() == "satfinite";
    size_t types = p.size() - (in.satfinite ? 1 : 0);
    std::vector<std::string_view> t(p.begin() + 4, p.begin() + types);
    if (t.size() == 2) { // DTYPE.CTYPE, f16 A and B
      auto d = elementNamed(t[0]), c = elementNamed(t[1]);
      if (!d || !c)
        return std::nullopt;
      in.form.ab = Element::F16;
      in.dType = *d;
      in.cType = *c;
    } else if (t.size() == 1) {
      auto e = elementNamed(t[0]);
      if (!e)
        return std::nullopt;
      in.form.ab = *e;
      in.cType = in.dType = *e == Element::F64 ? Element::F64
                            : isInteger(*e)    ? Element::S32
                                               : Element::F32;
    } else {
      return std::nullopt;
    }
    return knownForm(in.form) ? std::optional(in) : std::nullopt;
  }
  // load.{a,b,c}.LAYOUT[.stride].TYPE / store.d.LAYOUT[.stride].TYPE
  in.store = p[1] == "store";
  if (!in.store && p[1] != "load")
    return std::nullopt;
  if (p[2] == "a")
    in.matrix = Matrix::A;
  else if (p[2] == "b")
    in.matrix = Matrix::B;
  else if (p[2] == "c" || p[2] == "d")
    in.matrix = Matrix::C;
  else
    return std::nullopt;
  in.rowMajor = p[3] == "row";
  if (!in.rowMajor && p[3] != "col")
    return std::nullopt;
  in.stride = p.size() > 5 && p[4] == "stride";
  auto e = elementNamed(p[in.stride ? 5 : 4]);
  if (!e || p.size() != (in.stride ? 6u : 5u))
    return std::nullopt;
  in.element = *e;
  in.form.ab = in.matrix == Matrix::C ? accumulatorForm(in.form, *e) : *e;
  return knownForm(in.form) ? std::optional(in) : std::nullopt;
}

} // namespace kcheck::analyzer::wmma
