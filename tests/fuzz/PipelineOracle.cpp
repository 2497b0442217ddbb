#include "PipelineOracle.h"

#include "core/Metrics.h"
#include "driver/LaunchFaults.h"
#include "driver/Options.h"
#include "driver/Session.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace kcheck::fuzz {

namespace {

driver::Options pipelineOptions(const std::string &path) {
  driver::Options o;
  o.command = driver::Command::Predict;
  o.file = path;
  o.quiet = true;
  o.jobs = 1;
  // Small limits: a generated program needs far less, and arbitrary text
  // must end quickly whatever it asks for.
  o.stepBudget = 2'000'000;
  o.maxLaunchSteps = 20'000'000;
  o.maxMemoryBytes = 256ull << 20;
  o.maxLaunches = 16;
  return o;
}

std::string countersDiff(const core::Counters &a, const core::Counters &b,
                         const std::string &where) {
  std::string d;
  for (unsigned m = 0; m < core::kMetricCount; ++m)
    if (a.v[m] != b.v[m])
      d += where + " " + std::string(core::metricName(core::Metric(m))) +
           ": classes " + std::to_string(a.v[m]) + ", exhaustive " +
           std::to_string(b.v[m]) + "\n";
  return d;
}

std::string compareSessions(const driver::Session &classes,
                            const driver::Session &exhaustive) {
  const auto &a = classes.report.launches, &b = exhaustive.report.launches;
  if (a.size() != b.size())
    return "launch count differs: " + std::to_string(a.size()) + " vs " +
           std::to_string(b.size()) + "\n";
  std::string d;
  for (size_t i = 0; i < a.size(); ++i) {
    std::string launch = "launch #" + std::to_string(a[i].index);
    if (a[i].simulated != b[i].simulated) {
      d += launch + ": simulated in one run only\n";
      continue;
    }
    d += countersDiff(a[i].metrics, b[i].metrics, launch);
    if (a[i].lines.size() != b[i].lines.size()) {
      d += launch + ": line count differs\n";
      continue;
    }
    for (size_t l = 0; l < a[i].lines.size(); ++l) {
      const core::LineReport &x = a[i].lines[l], &y = b[i].lines[l];
      std::string where = launch + " line " + std::to_string(x.line);
      if (x.line != y.line)
        d += where + ": vs line " + std::to_string(y.line) + "\n";
      d += countersDiff(x.metrics, y.metrics, where);
      if (x.simt.warpInst != y.simt.warpInst ||
          x.simt.activeLanes != y.simt.activeLanes)
        d += where + ": SIMT counts differ\n";
    }
  }
  return d;
}

bool contains(const std::string &s, const char *what) {
  return s.find(what) != std::string::npos;
}

} // namespace

std::string writeTempSource(std::string_view text) {
  const char *dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/kcheck-fuzz-" +
                     std::to_string(getpid()) + ".cu";
  std::ofstream(path, std::ios::binary).write(text.data(), text.size());
  return path;
}

std::string checkGeneratedProgram(const GeneratedProgram &program) {
  // In memory (an overlay over the real file system): no file is written.
  driver::Options options = pipelineOptions("/kcheck-fuzz/generated.cu");
  driver::Session s = driver::analyzeFile(options, program.source);
  std::string failure;
  if (!s.compiled) {
    failure = "the generated program does not compile:\n" + s.clangDiagnostics;
  } else if (s.report.launches.size() != program.launches) {
    failure = "expected " + std::to_string(program.launches) +
              " launches, kcheck found " +
              std::to_string(s.report.launches.size()) + "\n";
    for (const std::string &n : s.report.notes)
      failure += "note: " + n + "\n";
  } else {
    for (const std::string &e : s.errors) {
      bool fault = contains(e, "out-of-bounds") ||
                   contains(e, "out of bounds") || contains(e, "misaligned");
      bool barrier = contains(e, "barrier");
      if ((fault && program.mayFault) || (barrier && program.divergentBarrier))
        continue;
      failure += "unexpected error: " + e + "\n";
    }
    // A launch the GPU faults in too is reported up to the fault, and the
    // GPU runs nothing after it: expected where the program may fault.
    bool faulted = false;
    for (size_t i = 0; i < s.report.launches.size(); ++i) {
      if (faulted && program.mayFault)
        continue;
      if (i < s.launches.size() && driver::gpuFault(s.launches[i].result)) {
        faulted = true;
        if (!program.mayFault)
          failure += "launch #" + std::to_string(i) +
                     " faults, in a program generated not to fault\n";
        continue;
      }
      if (!s.report.launches[i].simulated && s.errors.empty()) {
        failure += "launch #" + std::to_string(i) + " not simulated:\n";
        for (const std::string &n : s.report.launches[i].notes)
          failure += "  note: " + n + "\n";
      }
    }
  }
  // After a fault the two simulate different blocks (each up to the fault).
  bool anyFault = false;
  for (const driver::SimulatedLaunch &l : s.launches)
    anyFault = anyFault || driver::gpuFault(l.result);
  if (failure.empty() && s.errors.empty() && !anyFault &&
      program.mostBlocks <= kMaxExhaustiveBlocks) {
    options.exhaustive = true;
    driver::Session all = driver::analyzeFile(options, program.source);
    failure = compareSessions(s, all);
    if (!failure.empty())
      failure = "class-based and --exhaustive simulation differ:\n" + failure;
  }
  if (!failure.empty())
    failure += "--- program ---\n" + program.source;
  return failure;
}

std::string checkArbitrarySource(std::string_view source) {
  driver::Session s = driver::analyzeFile(
      pipelineOptions("/kcheck-fuzz/input.cu"), std::string(source));
  // Whatever happened (compile error, no kernel, fault, a limit) came back
  // as a result: that is all this input can be held to.
  (void)s;
  return "";
}

} // namespace kcheck::fuzz
