// The device runtime's copies and sets (1D, 2D, 3D), error names and
// strings, kernel queries, device graph launches and node updates,
// cooperative groups' queries and conditional values (GridDeviceRuntime's,
// the rules and their sources in DeviceLaunches.h).
#include "simulator/DeviceLaunches.h"

#include "core/CudaErrors.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace kcheck::sim {

namespace {

using core::CudaError;
using Op = bc::DeviceRuntimeOp;

uint64_t code(CudaError e) { return uint64_t(int(e)); }

// libcudadevrt's own accesses (DeviceLaunches.h), one lane each.
constexpr uint64_t kCopySetupLoads = 1, kCopySetupStores = 96;
constexpr uint64_t kSetSetupLoads = 1, kSetSetupStores = 73;
constexpr uint64_t kSectorBytes = 32;
// The row rule's threshold: rows of fewer bytes are copied a byte a lane.
constexpr uint64_t kWideRowBytes = 256;
// cudaGetErrorName / cudaGetErrorString: the driver's table, in the order
// it searches it (probes/device_error_text_costs.cu: code c at position p
// costs p + 3 loads, a code not in it kErrorNotFoundLoads; the names are
// the host's: device_runtime_queries.cu's error_name probes).
constexpr int kErrorTableOrder[] = {
    0,   1,   2,   3,   4,   5,   6,   7,   8,   34,  36,  46,  100, 101,  102,
    103, 200, 201, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215,  216,
    217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 300, 301, 302, 303,  304,
    400, 401, 402, 500, 600, 700, 701, 702, 703, 704, 705, 708, 709, 710,  711,
    712, 713, 714, 715, 716, 717, 718, 719, 720, 721, 800, 801, 802, 803,  804,
    805, 806, 807, 808, 809, 810, 811, 812, 900, 901, 902, 903, 904, 905,  906,
    907, 908, 909, 910, 911, 912, 913, 914, 915, 999, 52,  53,  98,  9,    12,
    13,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,   31,
    32,  35,  37,  43,  44,  45,  49,  65,  66,  67,  68,  69,  127, 10000};
constexpr uint64_t kErrorFoundExtraLoads = 3, kErrorNotFoundLoads = 135;
// cudaOccupancy*: a block size below 1 (the error path's loads).
constexpr uint64_t kOccupancyRefusedLoads = 4;
// cudaFuncAttributes' fields the device writes: sharedSizeBytes to
// binaryVersion, the first 40 bytes.
constexpr size_t kDeviceFuncAttributeBytes = 40;

uint64_t get64(const std::vector<uint8_t> &b, size_t at) {
  uint64_t v = 0;
  if (at + 8 <= b.size())
    std::memcpy(&v, b.data() + at, 8);
  return v;
}

// The lanes' width for a row of `width` bytes (DeviceLaunches.h).
uint64_t laneBytes(uint64_t width) {
  if (width >= kWideRowBytes)
    for (uint64_t b : {8, 4, 2})
      if (width % b == 0)
        return b;
  return 1;
}

} // namespace

void GridDeviceRuntime::addAccesses(bool load, uint64_t instructions,
                                    uint64_t sectors, uint64_t lanes) {
  using core::Metric;
  library_[load ? Metric::GlobalLdInst : Metric::GlobalStInst] += instructions;
  library_[load ? Metric::GlobalLdSectors : Metric::GlobalStSectors] += sectors;
  library_[load ? Metric::GlobalLdPredOn : Metric::GlobalStPredOn] += lanes;
}

DeviceRuntimeAnswer GridDeviceRuntime::copyOrSet(const DeviceRuntimeCall &c) {
  const uint64_t *v = c.values;
  DeviceWork w;
  w.block = c.block, w.thread = c.thread, w.instId = c.instId;
  uint64_t stream = 0;
  CudaError refused = CudaError::cudaSuccess;
  const char *name = "";
  switch (c.op) {
  case Op::MemcpyAsync:
  case Op::MemcpyAsyncPtsz: // dst, src, count, kind, stream
    name = "cudaMemcpyAsync";
    w.kind = DeviceWork::Kind::Copy;
    w.dst = v[0], w.src = v[1], w.width = v[2], stream = v[4];
    break;
  case Op::MemsetAsync:
  case Op::MemsetAsyncPtsz: // dst, value, count, stream
    name = "cudaMemsetAsync";
    w.kind = DeviceWork::Kind::Set;
    w.dst = v[0], w.width = v[2], stream = v[3];
    break;
  case Op::Memcpy2DAsync:
  case Op::Memcpy2DAsyncPtsz: // dst, dpitch, src, spitch, width, height,
                              // kind, stream
    name = "cudaMemcpy2DAsync";
    w.kind = DeviceWork::Kind::Copy;
    w.dst = v[0], w.dstPitch = v[1], w.src = v[2], w.srcPitch = v[3];
    w.width = v[4], w.height = v[5], stream = v[7];
    if (w.width > w.dstPitch || w.width > w.srcPitch) // as the H200
      refused = CudaError::cudaErrorInvalidPitchValue;
    break;
  case Op::Memset2DAsync:
  case Op::Memset2DAsyncPtsz: // dst, pitch, value, width, height, stream
    name = "cudaMemset2DAsync";
    w.kind = DeviceWork::Kind::Set;
    w.dst = v[0], w.dstPitch = v[1], w.width = v[3], w.height = v[4];
    stream = v[5];
    if (w.width > w.dstPitch) // as the H200
      refused = CudaError::cudaErrorInvalidValue;
    break;
  case Op::Memset3DAsync:
  case Op::Memset3DAsyncPtsz: { // cudaPitchedPtr, value, cudaExtent, stream
    name = "cudaMemset3DAsync";
    const std::vector<uint8_t> &p = c.blobs[0], &e = c.blobs[1];
    w.kind = DeviceWork::Kind::Set;
    w.dst = get64(p, 0), w.dstPitch = get64(p, 8);
    w.dstSlice = w.dstPitch * get64(p, 24);
    w.width = get64(e, 0), w.height = get64(e, 8), w.depth = get64(e, 16);
    stream = v[1];
    // As a 2D set (not measured in 3D).
    if (w.width > w.dstPitch)
      refused = CudaError::cudaErrorInvalidValue;
    break;
  }
  case Op::Memcpy3DAsync:
  case Op::Memcpy3DAsyncPtsz: { // const cudaMemcpy3DParms *, stream
    name = "cudaMemcpy3DAsync";
    // srcArray, srcPos, srcPtr, dstArray, dstPos, dstPtr, extent, kind.
    const std::vector<uint8_t> &p = c.blobs[0];
    w.kind = DeviceWork::Kind::Copy;
    // Offsets: srcArray 0, srcPos 8, srcPtr 32 (ptr, pitch, xsize, ysize),
    // dstArray 64, dstPos 72, dstPtr 96, extent 128, kind 152.
    uint64_t srcPitch = get64(p, 40), srcY = get64(p, 56);
    uint64_t dstPitch = get64(p, 104), dstY = get64(p, 120);
    w.srcPitch = srcPitch, w.srcSlice = srcPitch * srcY;
    w.dstPitch = dstPitch, w.dstSlice = dstPitch * dstY;
    w.src = get64(p, 32) + get64(p, 8) + get64(p, 16) * srcPitch +
            get64(p, 24) * w.srcSlice;
    w.dst = get64(p, 96) + get64(p, 72) + get64(p, 80) * dstPitch +
            get64(p, 88) * w.dstSlice;
    w.width = get64(p, 128), w.height = get64(p, 136), w.depth = get64(p, 144);
    stream = v[0];
    if (p.empty() || get64(p, 0) || get64(p, 64)) // CUDA arrays: none here
      refused = CudaError::cudaErrorInvalidValue;
    else if (get64(p, 8) + w.width > srcPitch ||
             get64(p, 72) + w.width > dstPitch) // as a 2D copy
      refused = CudaError::cudaErrorInvalidPitchValue;
    break;
  }
  default:
    return {code(CudaError::cudaErrorNotSupported)};
  }
  if (refused != CudaError::cudaSuccess)
    return {code(refused)};
  if (!w.width || !w.height || !w.depth) // nothing to do: no access at all
    return {0};
  bool copy = w.kind == DeviceWork::Kind::Copy;
  addAccesses(true, copy ? kCopySetupLoads : kSetSetupLoads,
              copy ? kCopySetupLoads : kSetSetupLoads,
              copy ? kCopySetupLoads : kSetSetupLoads);
  addAccesses(false, copy ? kCopySetupStores : kSetSetupStores,
              copy ? kCopySetupStores : kSetSetupStores,
              copy ? kCopySetupStores : kSetSetupStores);
  // The rows, where each starts 32-byte aligned (the path measured).
  bool aligned = true;
  w.forEachRow([&](uint64_t dst, uint64_t src) {
    aligned = aligned && dst % kSectorBytes == 0 &&
              (!copy || src % kSectorBytes == 0);
  });
  if (aligned) {
    uint64_t lane = laneBytes(w.width), chunk = 32 * lane;
    auto row = [&](bool load, uint64_t start) {
      for (uint64_t off = 0; off < w.width; off += chunk) {
        uint64_t n = std::min(chunk, w.width - off), a = start + off;
        addAccesses(load, 1,
                    (a + n + kSectorBytes - 1) / kSectorBytes -
                        a / kSectorBytes,
                    (n + lane - 1) / lane);
      }
    };
    w.forEachRow([&](uint64_t dst, uint64_t src) {
      if (copy)
        row(true, src);
      row(false, dst);
    });
  } else {
    std::string what =
        std::string(name) + "'s copy of rows that do not start 32-byte aligned";
    if (std::find(uncounted_.begin(), uncounted_.end(), what) ==
        uncounted_.end())
      uncounted_.push_back(what);
  }
  (stream == kTailLaunch ? tail_ : work_).push_back(std::move(w));
  return {0};
}

DeviceRuntimeAnswer GridDeviceRuntime::errorText(const DeviceRuntimeCall &c) {
  int e = int(int32_t(c.values[0]));
  std::optional<uint64_t> position;
  for (size_t p = 0; p < std::size(kErrorTableOrder); ++p)
    if (kErrorTableOrder[p] == e)
      position = p;
  uint64_t loads =
      position ? *position + kErrorFoundExtraLoads : kErrorNotFoundLoads;
  addAccesses(true, loads, loads, loads);
  const core::CudaErrorText &t = core::cudaErrorText(position ? e : -1);
  const char *text = c.op == Op::GetErrorName ? t.name : t.message;
  // The text in device memory, where the kernel reads it (global loads).
  size_t n = std::strlen(text) + 1;
  uint64_t address = memory_.allocate(n, "a device runtime error text");
  if (address)
    memory_.write(address, text, n);
  return {address};
}

DeviceRuntimeAnswer GridDeviceRuntime::kernelQuery(const DeviceRuntimeCall &c) {
  std::string why = "kcheck runs the kernel without its program's runtime";
  std::optional<core::KernelResources> k;
  if (context_.kernels && c.kernel)
    k = context_.kernels->resources(*c.kernel, why);
  const char *call = c.op == Op::FuncGetAttributes
                         ? "cudaFuncGetAttributes"
                         : "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
  if (!k)
    return {0,
            {},
            std::string(call) + " on the device, of " +
                (c.kernel ? *c.kernel : std::string("a kernel")) +
                ": kcheck cannot answer it (" + why + ")"};
  if (c.op == Op::FuncGetAttributes) {
    DeviceRuntimeAnswer a{0};
    a.outBytes.resize(kDeviceFuncAttributeBytes);
    uint8_t *out = a.outBytes.data();
    for (const core::FuncAttribute &f : core::funcAttributes(arch_, *k)) {
      uint64_t v = uint64_t(f.value);
      auto put = [&](size_t at, size_t bytes) {
        std::memcpy(out + at, &v, bytes);
      };
      if (f.field == "sharedSizeBytes")
        put(0, 8);
      else if (f.field == "constSizeBytes")
        put(8, 8);
      else if (f.field == "localSizeBytes")
        put(16, 8);
      else if (f.field == "maxThreadsPerBlock")
        put(24, 4);
      else if (f.field == "numRegs")
        put(28, 4);
      else if (f.field == "ptxVersion")
        put(32, 4);
      else if (f.field == "binaryVersion")
        put(36, 4);
    }
    return a;
  }
  // The occupancy calculator: the host's answer, whatever the flags.
  int blockSize = int(int32_t(c.values[0]));
  if (blockSize < 1) {
    addAccesses(true, kOccupancyRefusedLoads, kOccupancyRefusedLoads,
                kOccupancyRefusedLoads);
    return {code(CudaError::cudaErrorInvalidValue), 0};
  }
  core::Occupancy o =
      core::occupancy(arch_, *k, blockSize, c.values[1],
                      context_.kernels->sharedPreference(*c.kernel));
  return {0, uint64_t(uint32_t(o.blocksPerSM))};
}

DeviceRuntimeAnswer GridDeviceRuntime::deviceGraph(const DeviceRuntimeCall &c) {
  DeviceGraphs *graphs = context_.graphs;
  if (c.op == Op::CurrentGraphExec)
    return {graphs ? graphs->current() : 0};
  if (!graphs)
    return {0,
            {},
            "cudaGraphLaunch from the device: the static analysis does not "
            "follow graphs launched by kernels; --run-host runs them"};
  std::string fault;
  uint64_t status = graphs->launch(c.values[0], c.values[1], c.instId, fault);
  return {status, {}, fault};
}

DeviceRuntimeAnswer GridDeviceRuntime::nodeUpdate(const DeviceRuntimeCall &c) {
  DeviceGraphs *graphs = context_.graphs;
  if (!graphs)
    return {0,
            {},
            "a device-updatable kernel node's update: the static analysis "
            "does not follow graphs' nodes from the device; --run-host runs "
            "it"};
  const uint64_t *v = c.values;
  const uint64_t invalid = code(CudaError::cudaErrorInvalidValue);
  // Reads `bytes` at `address` of the thread's memory (nullopt: not there).
  auto read = [&](uint64_t address,
                  uint64_t bytes) -> std::optional<std::vector<uint8_t>> {
    std::vector<uint8_t> out(bytes);
    if (bytes && (!c.read || !c.read(address, out.data(), bytes)))
      return std::nullopt;
    return out;
  };
  auto param = [&](uint64_t node, uint64_t offset, uint64_t value,
                   uint64_t size) -> uint64_t {
    std::optional<std::vector<uint8_t>> bytes = read(value, size);
    return bytes ? graphs->setNodeParam(node, offset, *bytes) : invalid;
  };
  switch (c.op) {
  case Op::KernelNodeSetParam:
    return {param(v[0], v[1], v[2], v[3])};
  case Op::KernelNodeSetEnabled:
    return {graphs->setNodeEnabled(v[0], v[1] & 1)};
  case Op::KernelNodeSetGridDim:
    return {graphs->setNodeGridDim(v[0], c.dims[0])};
  default: { // cudaGraphKernelNodeUpdatesApply(updates, count)
    // cudaGraphKernelNodeUpdate: node 0, field 8, the union at 16 (gridDim;
    // param's pValue, offset, size; isEnabled), 40 bytes.
    constexpr uint64_t kUpdateBytes = 40;
    std::optional<std::vector<uint8_t>> all = read(v[0], v[1] * kUpdateBytes);
    if (!all)
      return {invalid};
    for (uint64_t k = 0; k < v[1]; ++k) {
      size_t at = k * kUpdateBytes;
      uint64_t node = get64(*all, at);
      uint32_t field, data[3];
      std::memcpy(&field, all->data() + at + 8, 4);
      std::memcpy(data, all->data() + at + 16, sizeof data);
      uint64_t status =
          field == 1 ? graphs->setNodeGridDim(node, {data[0], data[1], data[2]})
          : field == 2 ? param(node, get64(*all, at + 24), get64(*all, at + 16),
                               get64(*all, at + 32))
          : field == 3 ? graphs->setNodeEnabled(node, data[0] != 0)
                       : invalid;
      if (status)
        return {status};
    }
    return {0};
  }
  }
}

DeviceRuntimeAnswer
GridDeviceRuntime::cooperativeGroups(const DeviceRuntimeCall &c) {
  constexpr uint64_t kGridScope = 1, kGridHandle = 0x7ffffffffffffull;
  const bool grid = launch_.cooperative;
  if (c.op == Op::CGGetIntrinsicHandle)
    return {grid && c.values[0] == kGridScope ? kGridHandle : 0};
  DeviceRuntimeAnswer a{0};
  if (!grid || c.values[0] != kGridHandle) {
    a.result = code(CudaError::cudaErrorUnknown);
    a.out = 0, a.out2 = 0; // written, as the H200 writes them
    return a;
  }
  const core::Dim3 &g = launch_.grid, &b = launch_.block;
  if (c.op == Op::CGGetSize) {
    a.out = g.count() * b.count(), a.out2 = 1; // threads, grids
    return a;
  }
  uint64_t block =
      c.block.x + uint64_t(g.x) * (c.block.y + uint64_t(g.y) * c.block.z);
  uint64_t thread =
      c.thread.x + uint64_t(b.x) * (c.thread.y + uint64_t(b.y) * c.thread.z);
  a.out = block * b.count() + thread;
  a.out2 = 1; // the H200's grid rank
  return a;
}

DeviceRuntimeAnswer
GridDeviceRuntime::setConditional(const DeviceRuntimeCall &c) {
  const uint64_t *v = c.values;
  if (!context_.conditionals)
    return {0};
  auto it = context_.conditionals->values.find(v[0]);
  if (it == context_.conditionals->values.end()) {
    char handle[32];
    std::snprintf(handle, sizeof handle, "0x%llx",
                  static_cast<unsigned long long>(v[0]));
    return {0,
            {},
            std::string("cudaGraphSetConditional of handle ") + handle +
                ", which belongs to no graph being launched (the GPU "
                "faults with an illegal address)"};
  }
  it->second = {uint32_t(v[1]), true};
  return {0};
}

} // namespace kcheck::sim
