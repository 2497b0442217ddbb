// kcheck_fuzz_replay: the fuzz targets without libFuzzer, for ctest and for
// people: replays saved inputs (corpus, regressions), runs generated
// programs from PRNG seeds through the oracles, and writes generated
// programs to files (GPU value checks: tests/fuzz/gpu-values.sh).
#include "FuzzTargets.h"
#include "KernelGenerator.h"
#include "PipelineOracle.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kcheck::fuzz::ChoiceStream;
using kcheck::fuzz::GeneratedProgram;
using kcheck::fuzz::GeneratorOptions;
using kcheck::fuzz::ProgramMode;

int usage() {
  std::fprintf(
      stderr,
      "usage: kcheck_fuzz_replay pipeline|pipeline_mutated|json PATH...\n"
      "         replay inputs (files, or every file of a directory)\n"
      "       kcheck_fuzz_replay seeds FIRST LAST\n"
      "         generated programs of PRNG seeds FIRST..LAST through the\n"
      "         pipeline oracles (class-based vs --exhaustive included)\n"
      "       kcheck_fuzz_replay show INPUT\n"
      "         the program fuzz_pipeline generates from INPUT\n"
      "       kcheck_fuzz_replay write static|gpu DIR COUNT [FIRST_SEED]\n"
      "         write COUNT generated programs (gpu: a main that fills the\n"
      "         inputs and prints a hash of every written buffer)\n");
  return 2;
}

std::vector<uint8_t> readBytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

int replay(const std::string &target, const std::vector<std::string> &paths) {
  int (*run)(const uint8_t *, size_t) =
      target == "pipeline"           ? kcheck::fuzz::fuzzPipeline
      : target == "pipeline_mutated" ? kcheck::fuzz::fuzzPipelineMutated
      : target == "json"             ? kcheck::fuzz::fuzzJson
                                     : nullptr;
  if (!run)
    return usage();
  std::vector<fs::path> files;
  for (const std::string &p : paths) {
    if (fs::is_directory(p)) {
      for (const auto &entry : fs::directory_iterator(p))
        if (entry.is_regular_file())
          files.push_back(entry.path());
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path &f : files) {
    auto start = std::chrono::steady_clock::now();
    std::vector<uint8_t> bytes = readBytes(f);
    run(bytes.data(), bytes.size()); // aborts on a failed oracle
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("%s: ok (%.2f s)\n", f.string().c_str(), s);
  }
  std::printf("%zu inputs replayed, no failure\n", files.size());
  return 0;
}

int seeds(uint64_t first, uint64_t last) {
  unsigned checked = 0;
  for (uint64_t seed = first; seed <= last; ++seed) {
    ChoiceStream choices(seed);
    GeneratedProgram program =
        kcheck::fuzz::generateProgram(choices, GeneratorOptions{});
    std::string failure = kcheck::fuzz::checkGeneratedProgram(program);
    if (!failure.empty()) {
      std::fprintf(stderr, "seed %llu:\n%s\n", (unsigned long long)seed,
                   failure.c_str());
      return 1;
    }
    std::printf("seed %llu: ok (%u launches, %llu blocks at most%s%s)\n",
                (unsigned long long)seed, program.launches,
                (unsigned long long)program.mostBlocks,
                program.mayFault ? ", may fault" : "",
                program.divergentBarrier ? ", divergent barrier" : "");
    ++checked;
  }
  std::printf("%u generated programs checked\n", checked);
  return 0;
}

int write(const std::string &kind, const fs::path &dir, uint64_t count,
          uint64_t firstSeed) {
  GeneratorOptions options;
  if (kind == "gpu") {
    options.mode = ProgramMode::GpuValues;
    options.allowFaults = false;
    options.allowDivergentBarriers = false;
  } else if (kind != "static") {
    return usage();
  }
  fs::create_directories(dir);
  for (uint64_t i = 0; i < count; ++i) {
    ChoiceStream choices(firstSeed + i);
    GeneratedProgram program = kcheck::fuzz::generateProgram(choices, options);
    fs::path file = dir / ("gen_" + std::to_string(firstSeed + i) + ".cu");
    std::ofstream(file) << program.source;
    std::printf("%s\n", file.string().c_str());
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty())
    return usage();
  if (args[0] == "seeds" && args.size() == 3)
    return seeds(std::stoull(args[1]), std::stoull(args[2]));
  if (args[0] == "show" && args.size() == 2) {
    std::vector<uint8_t> bytes = readBytes(args[1]);
    ChoiceStream choices({bytes.data(), bytes.size()});
    std::fputs(kcheck::fuzz::generateProgram(choices, GeneratorOptions{})
                   .source.c_str(),
               stdout);
    return 0;
  }
  if (args[0] == "write" && (args.size() == 4 || args.size() == 5))
    return write(args[1], args[2], std::stoull(args[3]),
                 args.size() == 5 ? std::stoull(args[4]) : 1);
  if (args.size() >= 2 && args[0] != "seeds" && args[0] != "write")
    return replay(args[0], {args.begin() + 1, args.end()});
  return usage();
}
