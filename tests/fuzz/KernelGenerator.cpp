#include "KernelGenerator.h"

#include <algorithm>
#include <array>

namespace kcheck::fuzz {

uint32_t ChoiceStream::below(uint32_t n) {
  if (n <= 1)
    return 0;
  if (fromSeed_)
    return uint32_t(prng_() % n);
  // Two bytes per choice when one cannot cover n, so every value is
  // reachable; past the end: 0.
  uint32_t v = 0;
  for (unsigned i = 0; i < (n > 256 ? 2u : 1u); ++i)
    v = v << 8 | (next_ < bytes_.size() ? bytes_[next_++] : 0);
  return v % n;
}

namespace {

struct ElemType {
  const char *name;
  unsigned bytes;
};
constexpr std::array<ElemType, 5> kTypes = {
    {{"char", 1}, {"short", 2}, {"float", 4}, {"double", 8}, {"float4", 16}}};

enum class Space { Shared, Input, Scratch };

struct Array {
  std::string name;
  const ElemType *type;
  uint32_t elems; // a power of two
  Space space;
  unsigned salt; // its values are mix(index, salt)
};

struct LaunchShape {
  unsigned gridX, gridY, blockX, blockY, n;
  uint64_t threads() const { return uint64_t(gridX) * gridY * blockX * blockY; }
};

// Block shapes whose thread count is a multiple of 32 (full-mask shuffles
// need whole warps).
constexpr std::array<std::array<unsigned, 2>, 8> kBlocks = {
    {{32, 1}, {64, 1}, {128, 1}, {256, 1}, {32, 2}, {32, 4}, {16, 4}, {8, 8}}};

// Helpers every program starts with: values of each element type from an
// index, and back, exactly (small integers only).
constexpr const char *kPrelude = R"(#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__host__ __device__ inline unsigned mix(unsigned k, unsigned salt) {
  k = (k ^ salt) * 2654435761u;
  return k ^ (k >> 15);
}
__host__ __device__ inline void put(char &d, unsigned x) { d = char(x & 127u); }
__host__ __device__ inline void put(short &d, unsigned x) { d = short(x & 32767u); }
__host__ __device__ inline void put(float &d, unsigned x) { d = float(x & 65535u); }
__host__ __device__ inline void put(double &d, unsigned x) { d = double(x & 65535u); }
__host__ __device__ inline void put(float4 &d, unsigned x) {
  d.x = float(x & 255u);
  d.y = float((x >> 8) & 255u);
  d.z = float((x >> 16) & 255u);
  d.w = float(x >> 24);
}
__device__ inline unsigned val(char v) { return unsigned(v); }
__device__ inline unsigned val(short v) { return unsigned(v); }
__device__ inline unsigned val(float v) { return unsigned(v); }
__device__ inline unsigned val(double v) { return unsigned(v); }
__device__ inline unsigned val(float4 v) { return unsigned(v.x + v.y + v.z + v.w); }
)";

class Generator {
public:
  Generator(ChoiceStream &choices, const GeneratorOptions &options)
      : c_(choices), options_(options) {}

  GeneratedProgram run() {
    GeneratedProgram p;
    chooseGlobals();
    std::string kernels;
    std::vector<std::pair<std::string, LaunchShape>> launches;
    unsigned numKernels = 1 + c_.below(2);
    for (unsigned k = 0; k < numKernels; ++k) {
      std::string name = "k" + std::to_string(k);
      p.kernels.push_back(name);
      kernels += kernel(name);
      for (unsigned l = 0, count = c_.oneIn(4) ? 2 : 1; l < count; ++l)
        launches.emplace_back(name, launchShape());
    }
    for (const auto &[name, shape] : launches) {
      p.mostBlocks =
          std::max<uint64_t>(p.mostBlocks, uint64_t(shape.gridX) * shape.gridY);
      outElems_ = std::max(outElems_, shape.threads());
    }
    p.source = kPrelude + globalsText() + kernels + hostMain(launches);
    p.mayFault = mayFault_;
    p.divergentBarrier = divergentBarrier_;
    p.launches = unsigned(launches.size());
    return p;
  }

private:
  bool valueMode() const { return options_.mode == ProgramMode::GpuValues; }

  const ElemType *elemType() { return &kTypes[c_.below(kTypes.size())]; }

  // Power-of-two element count with at most maxBytes bytes.
  uint32_t elemCount(const ElemType &t, unsigned minLog, unsigned maxLog,
                     uint64_t maxBytes) {
    unsigned log = minLog + c_.below(maxLog - minLog + 1);
    while (log > 0 && (uint64_t(1) << log) * t.bytes > maxBytes)
      --log;
    return uint32_t(1) << log;
  }

  void chooseGlobals() {
    unsigned inputs = 1 + c_.below(3), scratch = c_.below(3);
    for (unsigned i = 0; i < inputs + scratch; ++i) {
      Array a;
      a.space = i < inputs ? Space::Input : Space::Scratch;
      a.name = (i < inputs ? "in" : "w") +
               std::to_string(i < inputs ? i : i - inputs);
      a.type = elemType();
      a.elems = elemCount(*a.type, 6, 13, 128 << 10);
      a.salt = 17 * (i + 1);
      globals_.push_back(a);
    }
  }

  std::string globalsText() const { return "\n"; }

  std::string params() const {
    std::string s;
    for (const Array &a : globals_)
      s += std::string(a.space == Space::Input ? "const " : "") + a.type->name +
           " *" + a.name + ", ";
    return s + "unsigned *out, unsigned n";
  }

  std::string args() const {
    std::string s;
    for (const Array &a : globals_)
      s += a.name + ", ";
    return s + "out";
  }

  LaunchShape launchShape() {
    LaunchShape s;
    const auto &b = kBlocks[c_.below(kBlocks.size())];
    s.blockX = b[0];
    s.blockY = b[1];
    s.gridX = c_.oneIn(8) ? 16 + c_.below(300) : 1 + c_.below(4);
    s.gridY = 1 + c_.below(2);
    s.n = c_.below(64);
    return s;
  }

  // --- expressions -------------------------------------------------------

  struct Scope {
    std::vector<std::string> loopVars;
    bool divergent = false; // some threads of a block may not be here
    unsigned depth = 0;
  };

  std::string atom(const Scope &sc, bool &threadDependent) {
    switch (c_.below(10)) {
    case 0:
      threadDependent = true;
      return "threadIdx.x";
    case 1:
      threadDependent = true;
      return "threadIdx.y";
    case 2:
      threadDependent = true;
      return c_.oneIn(2) ? "lane" : "warp";
    case 3:
    case 4:
      threadDependent = true;
      return c_.oneIn(3) ? "gtid" : "tid";
    case 5:
      return c_.oneIn(2) ? "blockIdx.x" : "blockIdx.y";
    case 6:
      return c_.oneIn(2) ? "blockDim.x" : "n";
    case 7:
      if (!sc.loopVars.empty())
        return sc.loopVars[c_.below(unsigned(sc.loopVars.size()))];
      [[fallthrough]];
    default:
      return std::to_string(c_.below(40)) + "u";
    }
  }

  std::string expr(const Scope &sc, unsigned depth, bool &threadDependent) {
    if (depth == 0 || c_.oneIn(3))
      return atom(sc, threadDependent);
    // Strided patterns, which bank and sector counts are most sensitive to.
    static constexpr std::array<unsigned, 10> kStrides = {1,  2,  3,  4,  8,
                                                          16, 17, 32, 33, 64};
    // Operands are generated in order (not inside one `+` chain, whose
    // evaluation order C++ leaves open): the same bytes, the same program.
    auto sub = [&] { return expr(sc, depth - 1, threadDependent); };
    unsigned op = c_.below(9);
    std::string a = sub();
    switch (op) {
    case 0: {
      std::string stride = std::to_string(kStrides[c_.below(kStrides.size())]);
      return "(" + a + " * " + stride + "u + " + sub() + ")";
    }
    case 1:
      return "(" + a + " + " + sub() + ")";
    case 2:
      return "(" + a + " * " + sub() + ")";
    case 3:
      return "(" + a + " ^ " + sub() + ")";
    case 4:
      return "(" + a + " - " + sub() + ")";
    case 5:
      return "(" + a + " >> " + std::to_string(c_.below(5)) + ")";
    case 6:
      return "(" + a + " << " + std::to_string(c_.below(6)) + ")";
    case 7:
      return "(" + a + " % " + std::to_string(1 + c_.below(33)) + "u)";
    default:
      return "(" + a + " / " + std::to_string(1 + c_.below(9)) + "u)";
    }
  }

  // An index into `a`: masked into bounds, or, rarely and only when asked
  // for, left as it is.
  std::string index(const Scope &sc, const Array &a) {
    bool thr = false;
    std::string e = expr(sc, 3, thr);
    if (options_.allowFaults && !valueMode() && c_.oneIn(60)) {
      mayFault_ = true;
      return e;
    }
    return "(" + e + ") & " + std::to_string(a.elems - 1) + "u";
  }

  // --- statements --------------------------------------------------------

  const Array *pick(Space space, const std::vector<Array> &shared) {
    std::vector<const Array *> candidates;
    for (const Array &a : space == Space::Shared ? shared : globals_)
      if (a.space == space)
        candidates.push_back(&a);
    if (candidates.empty())
      return nullptr;
    return candidates[c_.below(unsigned(candidates.size()))];
  }

  void statements(Scope sc, const std::vector<Array> &shared,
                  const std::string &pad, std::string &out) {
    unsigned count = 1 + c_.below(4);
    for (unsigned i = 0; i < count && statementBudget_ > 0; ++i) {
      --statementBudget_;
      statement(sc, shared, pad, out);
    }
  }

  void store(const Array &a, const Scope &sc, const std::string &pad,
             std::string &out) {
    out += pad + "{\n" + pad + "  unsigned ix = " + index(sc, a) + ";\n" + pad +
           "  put(" + a.name + "[ix], mix(ix, " + std::to_string(a.salt) +
           "u));\n" + pad + "}\n";
  }

  void statement(const Scope &sc, const std::vector<Array> &shared,
                 const std::string &pad, std::string &out) {
    switch (c_.below(12)) {
    case 0:
    case 1:
      if (const Array *a = pick(Space::Input, shared)) {
        out += pad + "acc += val(" + a->name + "[" + index(sc, *a) + "]);\n";
        return;
      }
      break;
    case 2:
      if (const Array *a = pick(Space::Shared, shared)) {
        out += pad + "acc += val(" + a->name + "[" + index(sc, *a) + "]);\n";
        return;
      }
      break;
    case 3:
      if (const Array *a = pick(Space::Shared, shared)) {
        store(*a, sc, pad, out);
        return;
      }
      break;
    case 4:
      if (const Array *a = pick(Space::Scratch, shared)) {
        if (c_.oneIn(2))
          store(*a, sc, pad, out);
        else
          out += pad + "acc += val(" + a->name + "[" + index(sc, *a) + "]);\n";
        return;
      }
      break;
    case 5:
    case 6:
      if (sc.depth < 3) {
        bool thr = false;
        std::string cond;
        if (c_.oneIn(12)) {
          thr = true; // on loaded data
          cond = "(acc & 1u) != 0u";
        } else {
          std::string e = expr(sc, 2, thr);
          static constexpr std::array<const char *, 3> kOps = {" < ",
                                                               " == ", " != "};
          const char *op = kOps[c_.below(3)];
          cond = e + op + std::to_string(c_.below(64)) + "u";
        }
        Scope inner = sc;
        inner.depth++;
        inner.divergent |= thr;
        out += pad + "if (" + cond + ") {\n";
        statements(inner, shared, pad + "  ", out);
        if (c_.oneIn(2)) {
          out += pad + "} else {\n";
          statements(inner, shared, pad + "  ", out);
        }
        out += pad + "}\n";
        return;
      }
      break;
    case 7:
    case 8:
      if (sc.depth < 3) {
        std::string var = "i" + std::to_string(loopCounter_++);
        std::string bound;
        Scope inner = sc;
        switch (c_.below(4)) {
        case 0:
          bound = "(n & 3u) + 1u";
          break;
        case 1:
          bound = "(tid & 3u) + 1u"; // thread-dependent trip count
          inner.divergent = true;
          break;
        default:
          bound = std::to_string(1 + c_.below(5)) + "u";
        }
        inner.depth++;
        inner.loopVars.push_back(var);
        out += pad + "for (unsigned " + var + " = 0; " + var + " < " + bound +
               "; ++" + var + ") {\n";
        statements(inner, shared, pad + "  ", out);
        out += pad + "}\n";
        return;
      }
      break;
    case 9:
      if (!sc.divergent) {
        out += pad + "__syncthreads();\n";
        return;
      }
      if (options_.allowDivergentBarriers && !valueMode() && c_.oneIn(8)) {
        divergentBarrier_ = true;
        out += pad + "__syncthreads(); // divergent on purpose\n";
        return;
      }
      break;
    case 10:
      if (!sc.divergent) {
        bool thr = false;
        if (c_.oneIn(2))
          out += pad + "acc += __shfl_sync(0xffffffffu, acc, (" +
                 expr(sc, 2, thr) + ") & 31u);\n";
        else
          out += pad + "acc += __shfl_xor_sync(0xffffffffu, acc, " +
                 std::to_string(1u << c_.below(5)) + ");\n";
        return;
      }
      break;
    default:
      break;
    }
    bool thr = false;
    std::string factor = std::to_string(1 + 2 * c_.below(8));
    out += pad + "acc = acc * " + factor + "u + " + expr(sc, 2, thr) + ";\n";
  }

  std::string kernel(const std::string &name) {
    std::vector<Array> shared;
    uint64_t sharedBytes = 0;
    for (unsigned i = 0, count = c_.below(3); i < count; ++i) {
      Array a;
      a.space = Space::Shared;
      a.name = "s" + std::to_string(i);
      a.type = elemType();
      a.elems = elemCount(*a.type, 5, 10, 16 << 10);
      a.salt = 101 * (i + 1);
      sharedBytes += uint64_t(a.elems) * a.type->bytes;
      shared.push_back(a);
    }
    std::string s = "\n__global__ void " + name + "(" + params() + ") {\n";
    for (const Array &a : shared)
      s += "  __shared__ " + std::string(a.type->name) + " " + a.name + "[" +
           std::to_string(a.elems) + "];\n";
    s += "  const unsigned tid = threadIdx.x + threadIdx.y * blockDim.x;\n"
         "  const unsigned nthreads = blockDim.x * blockDim.y;\n"
         "  const unsigned gtid =\n"
         "      (blockIdx.x + blockIdx.y * gridDim.x) * nthreads + tid;\n"
         "  const unsigned lane = tid & 31u, warp = tid >> 5;\n"
         "  unsigned acc = tid;\n";
    for (const Array &a : shared)
      s += "  for (unsigned k = tid; k < " + std::to_string(a.elems) +
           "u; k += nthreads)\n    put(" + a.name + "[k], mix(k, " +
           std::to_string(a.salt) + "u));\n";
    if (!shared.empty())
      s += "  __syncthreads();\n";
    statementBudget_ = 24;
    statements(Scope{}, shared, "  ", s);
    statements(Scope{}, shared, "  ", s);
    s += "  out[gtid] = acc;\n}\n";
    (void)sharedBytes;
    return s;
  }

  // --- host --------------------------------------------------------------

  std::string hostMain(
      const std::vector<std::pair<std::string, LaunchShape>> &launches) const {
    std::string s;
    if (valueMode())
      s += "\nstatic unsigned fnv(const void *p, size_t n) {\n"
           "  unsigned h = 2166136261u;\n"
           "  for (size_t i = 0; i < n; ++i)\n"
           "    h = (h ^ ((const unsigned char *)p)[i]) * 16777619u;\n"
           "  return h;\n}\n";
    s += "\nint main() {\n";
    for (const Array &a : globals_) {
      std::string bytes =
          std::to_string(uint64_t(a.elems) * a.type->bytes) + "u";
      s += "  " + std::string(a.type->name) + " *" + a.name +
           ";\n  cudaMalloc(&" + a.name + ", " + bytes + ");\n";
      if (valueMode()) {
        std::string h = "h_" + a.name;
        s += "  " + std::string(a.type->name) + " *" + h + " = (" +
             a.type->name + " *)malloc(" + bytes +
             ");\n  for (unsigned k = 0; k < " + std::to_string(a.elems) +
             "u; ++k)\n    put(" + h + "[k], mix(k, " + std::to_string(a.salt) +
             "u));\n  cudaMemcpy(" + a.name + ", " + h + ", " + bytes +
             ", cudaMemcpyHostToDevice);\n";
      }
    }
    std::string outBytes = std::to_string(outElems_ * 4) + "u";
    s += "  unsigned *out;\n  cudaMalloc(&out, " + outBytes + ");\n";
    if (valueMode())
      s += "  cudaMemset(out, 0, " + outBytes + ");\n";
    for (const auto &[name, l] : launches)
      s += "  " + name + "<<<dim3(" + std::to_string(l.gridX) + ", " +
           std::to_string(l.gridY) + "), dim3(" + std::to_string(l.blockX) +
           ", " + std::to_string(l.blockY) + ")>>>(" + args() + ", " +
           std::to_string(l.n) + "u);\n";
    s += "  cudaDeviceSynchronize();\n";
    if (valueMode()) {
      auto dump = [&](const std::string &name, const std::string &type,
                      const std::string &bytes) {
        return "  {\n    void *h = malloc(" + bytes + ");\n    cudaMemcpy(h, " +
               name + ", " + bytes +
               ", cudaMemcpyDeviceToHost);\n    printf(\"buffer " + name +
               " %08x\\n\", fnv(h, " + bytes + "));\n    free(h);\n  }\n" +
               (type.empty() ? "" : "");
      };
      for (const Array &a : globals_)
        if (a.space == Space::Scratch)
          s += dump(a.name, a.type->name,
                    std::to_string(uint64_t(a.elems) * a.type->bytes) + "u");
      s += dump("out", "", outBytes);
    }
    s += "  return 0;\n}\n";
    return s;
  }

  ChoiceStream &c_;
  GeneratorOptions options_;
  std::vector<Array> globals_;
  uint64_t outElems_ = 0;
  unsigned loopCounter_ = 0;
  int statementBudget_ = 0;
  bool mayFault_ = false;
  bool divergentBarrier_ = false;
};

} // namespace

GeneratedProgram generateProgram(ChoiceStream &choices,
                                 const GeneratorOptions &options) {
  return Generator(choices, options).run();
}

} // namespace kcheck::fuzz
