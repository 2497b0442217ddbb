#include "EngineTestUtil.h"

#include "simulator/engine/Decode.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace kcheck::sim::test {

const char *const kModuleHeader =
    "target datalayout = "
    "\"e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64\"\n"
    "target triple = \"nvptx64-nvidia-cuda\"\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

static std::string debugFooter() {
  std::string s =
      "!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!2}\n"
      "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: "
      "!1, isOptimized: true, runtimeVersion: 0, emissionKind: "
      "LineTablesOnly)\n"
      "!1 = !DIFile(filename: \"k.cu\", directory: \"/tmp\")\n"
      "!2 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
      "!3 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: "
      "1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n"
      "!4 = !DISubroutineType(types: !5)\n!5 = !{}\n";
  for (int line = 10; line < 60; ++line) {
    std::string n = std::to_string(line);
    s.append("!").append(n).append(" = !DILocation(line: ").append(n);
    s.append(", column: 1, scope: !3)\n");
  }
  return s;
}

ParsedKernel parseKernel(const std::string &body, const std::string &name) {
  return parseModule(std::string(kModuleHeader) + body + "\n" + debugFooter(),
                     name);
}

ParsedKernel parseModule(const std::string &text, const std::string &name) {
  ParsedKernel out;
  out.context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  out.module = llvm::parseAssemblyString(text, diag, *out.context);
  if (!out.module) {
    llvm::raw_string_ostream os(out.error);
    diag.print("test", os);
    return out;
  }
  llvm::Function *fn = out.module->getFunction(name);
  if (!fn) {
    out.error = "no function " + name;
    return out;
  }
  auto decoded = decodeKernel(*fn);
  if (!decoded)
    out.error = llvm::toString(decoded.takeError());
  else
    out.kernel = std::move(*decoded);
  return out;
}

void RecordingSink::onAccess(const WarpAccess &a) {
  accesses.push_back({a.instId, a.space, a.kind, a.bytesPerLane, a.activeMask,
                      std::vector<uint64_t>(a.addrs, a.addrs + kWarpSize),
                      a.warp});
}

std::vector<RecordedAccess> RecordingSink::of(uint32_t instId) const {
  std::vector<RecordedAccess> out;
  for (const auto &a : accesses)
    if (a.instId == instId)
      out.push_back(a);
  return out;
}

std::vector<uint32_t> instsWithOpcode(const DecodedKernel &k,
                                      const std::string &opcode) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < k.insts().size(); ++i)
    if (k.insts()[i].opcode == opcode)
      out.push_back(i);
  return out;
}

std::vector<float> readFloats(const DeviceMemory &mem, uint64_t addr,
                              size_t n) {
  std::vector<float> out(n);
  mem.read(addr, out.data(), n * sizeof(float));
  return out;
}

std::vector<int32_t> readInts(const DeviceMemory &mem, uint64_t addr,
                              size_t n) {
  std::vector<int32_t> out(n);
  mem.read(addr, out.data(), n * sizeof(int32_t));
  return out;
}

core::LaunchConfig launch1d(uint32_t grid, uint32_t block,
                            uint64_t dynamicShared) {
  core::LaunchConfig cfg;
  cfg.grid = {grid, 1, 1};
  cfg.block = {block, 1, 1};
  cfg.dynamicSharedBytes = dynamicShared;
  return cfg;
}

} // namespace kcheck::sim::test
