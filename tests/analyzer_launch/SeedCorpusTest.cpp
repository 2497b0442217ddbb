// The launch extractor on the seed corpus (corpus/seed/*.cu with their
// common.h), against the H100 measurements and the device IR's kernel names.
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

// The mangled names of each seed program's launches, in launch order.
std::map<std::string, std::vector<std::string>> seedMangledNames() {
  return {
      {"reduce_bbuf.cu",
       {"_Z9reduce_v0PfS_", "_Z9reduce_v1PfS_", "_Z9reduce_v2PfS_",
        "_Z9reduce_v3PfS_", "_Z9reduce_v4PfS_", "_Z9reduce_v5ILj256EEvPfS0_",
        "_Z9reduce_v6ILj256ELi128EEvPfS0_", "_Z9reduce_v7ILj256ELi128EEvPfS0_j",
        "_Z9reduce_v8PfS_j"}},
      {"reduce_cg.cu",
       {"_Z20reduce_gpu_v1_kernelPKimPi", "_Z20reduce_gpu_v2_kernelPKimPi",
        "_Z20reduce_gpu_v4_kernelPKimPi",
        "_Z20reduce_gpu_v7_kernelILi512EEvPKimPi",
        "_Z20reduce_gpu_v9_kernelILi512EEvPKimPi"}},
      {"sgemm.cu",
       {"_Z15sgemm_vectorizeILi128ELi128ELi8ELi8ELi8EEviiiPKfS1_Pf",
        "_Z17sgemm_warp_tilingILi128ELi128ELi16ELi64ELi64ELi4ELi8ELi4ELi128EEv"
        "iiiPKfS1_Pf"}},
      {"slides.cu",
       {"_Z13PictureKernelPfS_ii", "_Z12MatMulKernelPfS_S_i",
        "_Z11MatMulTiledPfS_S_i", "_Z17SlideReduceModuloPfS_",
        "_Z18SlideReduceHalvingPfS_", "_Z12ColumnRead32PKfPfi",
        "_Z12ColumnRead33PKfPfi", "_Z10OffsetCopyPfPKfi",
        "_Z10OffsetCopyPfPKfi", "_Z10StrideCopyPfPKfi"}}};
}

// Each launch of `file` as measured, named as in the device IR.
void expectMeasuredLaunches(const std::string &file, const Result &r,
                            const std::vector<MeasuredLaunch> &rows,
                            const std::vector<std::string> &mangled) {
  const HostProgram &p = r.program;
  for (size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE("launch " + std::to_string(i));
    const HostLaunch &l = p.launches[i];
    EXPECT_EQ(l.signature, rows[i].kernel);
    EXPECT_EQ(l.mangledName, mangled[i]);
    EXPECT_TRUE(r.irKernels.count(l.mangledName)) << l.mangledName;
    EXPECT_EQ(l.block, rows[i].block);
    if (file != "reduce_cg.cu") {
      EXPECT_EQ(l.dynamicSharedBytes, 0u);
    }
    if (l.kernelName == "reduce_v8") {
      // Its grid is the device's SM count * threads per SM / 256.
      EXPECT_FALSE(l.grid.has_value());
      std::string notes = joined(l.notes);
      EXPECT_NE(notes.find("device query cudaDeviceGetAttribute("
                           "cudaDevAttrMultiProcessorCount) at "
                           "reduce_bbuf.cu:161"),
                std::string::npos)
          << notes;
      continue;
    }
    EXPECT_EQ(l.grid, rows[i].grid);
    EXPECT_TRUE(l.notes.empty()) << joined(l.notes);
    for (const LaunchArg &a : l.args)
      EXPECT_TRUE(a.value.known()) << a.text << ": " << a.value.why;
  }
}

// Allocations and arguments of the seed programs.
void expectSeedAllocationsAndArguments(
    std::map<std::string, HostProgram> &programs) {
  const HostProgram &bbuf = programs["reduce_bbuf.cu"];
  ASSERT_EQ(bbuf.allocations.size(), 2u);
  EXPECT_EQ(bbuf.allocations[0].name, "in");
  EXPECT_EQ(bbuf.allocations[0].bytes, 32u * 1024 * 1024 * 4);
  EXPECT_TRUE(bbuf.allocations[0].hostInitialized);
  EXPECT_EQ(bbuf.allocations[1].name, "out");
  EXPECT_EQ(bbuf.allocations[1].bytes, 32u * 1024 * 1024 / 256 * 4);
  EXPECT_TRUE(bbuf.allocations[1].zeroed);
  EXPECT_EQ(bbuf.launches[7].args[2].value.i, 32 * 1024 * 1024);
  EXPECT_EQ(bbuf.launches[0].loc.line, 218u);

  const HostProgram &cg = programs["reduce_cg.cu"];
  for (size_t i = 0; i < cg.launches.size(); ++i)
    EXPECT_EQ(cg.launches[i].dynamicSharedBytes, i < 3 ? 1024u : 2048u);
  EXPECT_EQ(cg.launches[0].args[1].value.i, 32 * 1024 * 1024);

  const HostProgram &sgemm = programs["sgemm.cu"];
  ASSERT_EQ(sgemm.allocations.size(), 3u);
  EXPECT_EQ(sgemm.allocations[2].name, "C");
  EXPECT_EQ(sgemm.launches[1].args[0].value.i, 1024);

  const HostProgram &slides = programs["slides.cu"];
  ASSERT_EQ(slides.allocations.size(), 11u);
  const HostAllocation &in = slides.allocations[9];
  EXPECT_EQ(in.name, "in");
  EXPECT_EQ(in.bytes, (2u * 4 * 1024 * 1024 + 64) * 4);
  EXPECT_EQ(slides.allocations[10].bytes, in.bytes);
  const HostLaunch &off0 = slides.launches[7], &off1 = slides.launches[8];
  EXPECT_EQ(off0.args[0].value.allocation, 10);
  EXPECT_EQ(off0.args[0].value.offset, 0);
  EXPECT_EQ(off0.args[1].value.allocation, 9);
  EXPECT_EQ(off0.args[2].value.i, 0);
  EXPECT_EQ(off1.args[2].value.i, 1);
  EXPECT_EQ(slides.launches[1].grid, d3(64, 64)); // NB = W / TILE_WIDTH ...
  EXPECT_EQ(slides.launches[1].args[3].value.i, 1024);
}

// The seed programs, as measured on the H100: same launches, same order, same
// geometry and Nsight names; mangled names equal the device IR's kernels.
TEST(LaunchExtractor, SeedCorpus) {
  std::string corpus = KCHECK_CORPUS_DIR;
  std::string common = readFile(corpus + "/common.h");
  if (common.empty())
    GTEST_SKIP() << "no corpus at " << corpus;
  auto measured = readMeasured(corpus + "/h100/seed_exact.csv");
  ASSERT_FALSE(measured.empty());
  std::map<std::string, std::vector<std::string>> mangled = seedMangledNames();
  std::map<std::string, HostProgram> programs;
  for (const auto &[file, rows] : measured) {
    SCOPED_TRACE(file);
    std::string code = readFile(corpus + "/seed/" + file);
    ASSERT_FALSE(code.empty());
    Result r = run(code, "/kcheck-corpus/seed/" + file,
                   {{"/kcheck-corpus/common.h", common}}, {}, true);
    ASSERT_TRUE(r.ok);
    const HostProgram &p = r.program;
    dump(file, p);
    ASSERT_EQ(p.launches.size(), rows.size());
    EXPECT_TRUE(p.kernelsWithoutLaunch.empty());
    expectMeasuredLaunches(file, r, rows, mangled[file]);
    programs[file] = p;
  }

  ASSERT_NO_FATAL_FAILURE(expectSeedAllocationsAndArguments(programs));
}

} // namespace
} // namespace kcheck::analyzer
