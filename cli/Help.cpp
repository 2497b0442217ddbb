#include "cli/Help.h"

#include "checks/Registry.h"
#include "cli/Commands.h"
#include "cli/Options.h"
#include "core/Json.h"

#include <fmt/format.h>

#include <string_view>

namespace kcheck::cli {

namespace {

constexpr std::string_view kCheckExitCodes =
    "exit codes: 0 no finding, 1 findings (warnings or errors), 2 usage "
    "error,\n            3 FILE.cu could not be analysed (compile error, "
    "unsupported\n            construct, step budget, fault)\n";

// The prose of a command's page; its options come from the option table
// (cli/Options.td), under their headings.
struct HelpPage {
  std::string_view command;
  std::string_view usage;     // after "usage: kcheck "
  std::string_view what;      // what it does and reports
  std::string_view examples;  // command lines, each with what it shows
  std::string_view exitCodes; // the whole "exit codes:" line(s)
};

// The sanitizer commands share one page shape: what they catch differs.
#define SANITIZER_PAGE(name, catches, examples)                                \
  HelpPage {                                                                   \
    name, name " FILE.cu [options] [-- clang args]",                           \
        "compute-sanitizer's " name " without a GPU: simulates every launch "  \
        "of\nFILE.cu and reports " catches                                     \
        ",\nwith the kernel, line, thread, "                                   \
        "block and address (kcheck explain " name                              \
        ").\nA faulting launch stops "                                         \
        "there, as on a GPU; the others are still checked.\n",                 \
        examples,                                                              \
        "exit codes: 0 no finding, 1 findings, 2 usage error, 3 FILE.cu "      \
        "could "                                                               \
        "not be\n            analysed\n"                                       \
  }

// One page per command, in `kcheck --help`'s order.
const HelpPage kPages[] = {
    {"bank-conflicts", "bank-conflicts FILE.cu [options] [-- clang args]",
     R"(Simulates every launch of FILE.cu (the launches its host code makes, or
one from --grid/--block) warp by warp and reports each source line whose
shared-memory accesses take more wavefronts than the ideal: the
N-way conflict, the array, the index expression, the launches concerned,
then a per-launch summary of shared loads and stores (requests,
wavefronts, Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared
counters). Check id: [bank-conflict] (kcheck explain bank-conflict).
)",
     R"(  kcheck bank-conflicts kernels/reduce_v0_v8.cu --kernel reduce_v1
      reduce_v1's interleaved addressing: a 2-way to 8-way conflict on sdata
  kcheck bank-conflicts kernels/slides_bank_conflicts.cu
      the slides' strides 2 and 8 and the 32 x 32 column read; 32 x 33 is clean
  kcheck bank-conflicts --verify kernels/slides_bank_conflicts.cu
      exit 0: every finding is the one its // expected-warning says
)",
     kCheckExitCodes},
    {"coalescing", "coalescing FILE.cu [options] [-- clang args]",
     R"(Reports each line, global array and direction (load or store) whose
32-byte sectors exceed the ideal (the sectors the active lanes' bytes need
if contiguous and aligned) by 10 % or more in some launch, with the lane
pattern that causes it (misaligned, strided, gather), the bytes used of
each sector, and requests / sectors / ideal per launch. Check id:
[uncoalesced-access] (kcheck explain uncoalesced-access).
)",
     R"(  kcheck coalescing kernels/slides_coalescing.cu --kernel OffsetCopy
      misaligned by 4 bytes: 5 sectors per request where 4 would do
  kcheck coalescing kernels/slides_coalescing.cu --kernel StrideCopy
      a stride of 2 elements: half of every fetched sector unused
  kcheck coalescing kernels/slides_matmul.cu --kernel MatMulKernel --remarks
      no finding (exit 0); each access explained: broadcast, coalesced
)",
     kCheckExitCodes},
    {"divergence", "divergence FILE.cu [options] [-- clang args]",
     R"(Reports the branches whose condition depends on the thread and that
split warps in the simulated launches (how many warp executions diverge,
per loop iteration), SIMT efficiency per launch and line, and, as an error,
a __syncthreads() that only part of a block reaches. Check ids:
[divergent-branch] (warning), [barrier-divergence] (error).
)",
     R"(  kcheck divergence kernels/reduce_v0_v8.cu --kernel reduce_v0
      `tid % (2 * s) == 0`: divergent warps per iteration, SIMT efficiency
  kcheck divergence kernels/slides_reduction.cu
      the slides' two reductions: `t % (2 * stride)` diverges at every step,
      `t < stride` once stride is under a warp
)",
     kCheckExitCodes},
    {"check", "check FILE.cu [options] [-- clang args]",
     R"(Runs every check (bank-conflicts, coalescing, divergence) in one
simulation and reports their findings in source order, then each launch's
summary. The command for CI and editors: -p for the project's flags,
--checks to choose, --format for tools.
)",
     R"(  kcheck check kernels/sgemm_vectorize.cu
      bank conflicts on smem_a/smem_b and an uncoalesced store to C
  kcheck check kernels/sgemm_vectorize.cu --checks=-*,bank-conflict
      only the bank conflicts
  kcheck check --verify kernels/reduce_v0_v8.cu
      exit 0: the file's // expected-warning comments are exactly the findings
)",
     kCheckExitCodes},
    SANITIZER_PAGE(
        "memcheck", "out-of-bounds and misaligned accesses",
        "  kcheck memcheck kernels/sanitize/memcheck_shared_off_by_one.cu\n"
        "      thread (31,0,0) writes 0 bytes after 'tile'\n"
        "  kcheck memcheck --run-host "
        "kernels/sanitize/memcheck_global_past_end.cu\n"
        "      a read past the end of a cudaMalloc, with the "
        "program's sizes\n"),
    SANITIZER_PAGE("initcheck", "shared memory read before this block wrote it",
                   "  kcheck initcheck kernels/sanitize/initcheck_shared.cu\n"
                   "      the thread, block and byte read before any write\n"),
    SANITIZER_PAGE(
        "racecheck",
        "shared-memory races: between warps with\nno barrier, within a "
        "warp without __syncwarp() or volatile",
        "  kcheck racecheck "
        "kernels/sanitize/racecheck_missing_syncthreads.cu\n"
        "      a write and another warp's read with no "
        "__syncthreads() between\n"
        "  kcheck racecheck kernels/sanitize/racecheck_warp_reduce.cu\n"
        "      warpReduce without volatile relies on implicit warp "
        "synchrony\n"),
    SANITIZER_PAGE("synccheck",
                   "__syncthreads() reached by part of a block "
                   "[barrier-divergence]",
                   "  kcheck synccheck "
                   "kernels/sanitize/synccheck_barrier_divergence.cu\n"),
    SANITIZER_PAGE("sanitize",
                   "all four of memcheck, initcheck, racecheck "
                   "and synccheck",
                   "  kcheck sanitize kernels/reduce_v0_v8.cu\n"
                   "      exit 0: no sanitizer finding in the tutorial "
                   "kernels\n"
                   "  kcheck sanitize --verify kernels/sanitize/*.cu\n"),
    {"predict", "predict FILE.cu [options] [-- clang args]",
     R"(Prints every counter kcheck predicts for each launch, under Nsight
Compute's metric names (shared and global requests, wavefronts, sectors,
branches, active lanes); --format json writes the report schema that
kcheck-profile also writes, per launch and per source line, for compare.
Reports no findings.
)",
     R"(  kcheck predict kernels/reduce_v0_v8.cu --kernel reduce_v1
      the counters of reduce_v1's launch
  kcheck predict kernels/slides_coalescing.cu --format json > pred.json
      the JSON report (input of kcheck compare)
  kcheck predict kernels/reduce_v0_v8.cu --kernel reduce_v8 --grid 512
      a grid the host code takes from a device query, given by hand
)",
     "exit codes: 0 predicted, 2 usage error, 3 FILE.cu could not be "
     "analysed\n"},
    {"compare", "compare PRED.json MEAS.json [PRED2.json MEAS2.json ...]",
     R"(Joins a prediction (kcheck predict --format json) and a measurement
(kcheck-profile, same schema) launch by launch and line by line, and prints
each counter side by side with whether they agree. Needs no GPU and no
LLVM.
)",
     R"(  kcheck predict tests/divergence/inputs/sass_probes.cu --format json > pred.json
  kcheck compare pred.json tests/divergence/inputs/sass_probes.measured.json
      against the H100's measurement (kcheck-profile --per-line): all agree
)",
     "exit codes: 0 every value agrees, 1 some differ, 2 usage error, 3 a "
     "file\n            that cannot be read or is no report\n"},
    {"validate", "validate FILE.cu [options] [-- clang args]",
     R"(Predicts FILE.cu, builds it with nvcc -lineinfo, measures it with
kcheck-profile on this machine's GPU and compares the two (what compare
prints). Needs the CUDA toolkit and a GPU.
)",
     R"(  kcheck validate kernels/slides_bank_conflicts.cu
  kcheck validate kernels/reduce_v0_v8.cu --per-line --keep out/
)",
     "exit codes: 0 all agree, 1 some differ, 2 usage error, 3 could not "
     "build,\n            measure or analyse, 4 no GPU\n"},
    {"run", "run FILE.cu [options] [-- program args]",
     R"(Runs the program's own host code in-process (Clang compiles it, LLVM's
JIT runs it against kcheck's CUDA runtime: it executes the program, never
do it on code you would not run), simulates every launch it makes with its
real sizes and data, every block, so the program prints what it prints on
a GPU; then reports each launch's counters and every check's findings.
With --format json the program's stdout goes to stderr.
)",
     R"(  kcheck run kernels/reduce_v0_v8.cu
      the program's output, then its launches' counters and findings
  kcheck run kernels/slides_coalescing.cu --format json > run.json
)",
     "exit codes: 0 no finding, 1 findings, 2 usage error, 3 the program could "
     "not\n            be compiled or run (unsupported call, failed launch, "
     "budget)\n"},
    {"list-checks", "list-checks",
     "Lists the checks by id (the [id] ending each finding) with a line "
     "each.\n",
     "  kcheck list-checks\n", "exit codes: 0\n"},
    {"explain", "explain CHECK-ID",
     R"(Prints a check's page (docs/checks/ID.md): what it reports, how kcheck
counts it, what Nsight Compute measures, typical fixes.
)",
     "  kcheck explain bank-conflict\n  kcheck explain uncoalesced-access\n",
     "exit codes: 0, 2 no such check\n"},
};
#undef SANITIZER_PAGE

/// `label` in a column `width` wide, then `text` wrapped to 79 columns,
/// each following line indented to the text's column (a label too long for
/// its column gets a line of its own).
std::string labelled(const std::string &label, std::string_view text,
                     size_t width) {
  constexpr size_t kColumns = 79;
  std::string out = "  " + label;
  size_t column = 2 + width;
  if (out.size() + 1 > column)
    out += "\n" + std::string(column, ' ');
  else
    out.resize(column, ' ');
  // out.rfind is npos (then + 1 is 0) when the label shares the line.
  size_t lineStart = out.rfind('\n') + 1;
  bool first = true;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(' ', pos);
    std::string_view word =
        text.substr(pos, end == std::string_view::npos ? end : end - pos);
    if (!first && out.size() - lineStart + 1 + word.size() > kColumns) {
      out += "\n";
      lineStart = out.size();
      out += std::string(column, ' ');
    } else if (!first) {
      out += ' ';
    }
    out += word;
    first = false;
    pos = end == std::string_view::npos ? text.size() : end + 1;
  }
  return out + "\n";
}

/// The options `command` takes (every option for ""), under their headings.
std::string optionsText(const std::string &command) {
  std::string out, heading;
  for (const OptionHelp &o : optionHelp(command)) {
    if (o.group != heading) {
      heading = o.group;
      out += "\n" + heading + ":\n";
    }
    out += labelled(o.spelling, o.help, 21);
  }
  return out;
}

std::string render(const HelpPage &p) {
  std::string out = "usage: kcheck ";
  out += p.usage;
  out += "\n\n";
  out += p.what;
  out += optionsText(std::string(p.command));
  out += "\nexamples:\n";
  out += p.examples;
  out += "\n";
  out += p.exitCodes;
  return out;
}

} // namespace

std::string usageText() {
  std::string out = R"(usage: kcheck <command> FILE.cu [options] [-- clang args]

Predicts, without a GPU, what the GPU does with a CUDA kernel's memory
accesses, with Nsight Compute's metrics, per launch and per source line.

commands:
)";
  for (const CommandSummary &c : commandSummaries())
    out += labelled(c.name, c.summary, 15);
  out += optionsText("");
  out += R"(
exit codes: 0 clean, 1 findings, 2 usage, 3 input could not be analysed,
            4 no GPU (validate)

example:
  kcheck bank-conflicts reduce_v1.cu
  kcheck check --verify kernels/slides_coalescing.cu
  kcheck predict reduce.cu --format json --kernel reduce_v8 --grid 1056
  kcheck help check
)";
  return out;
}

std::string commandHelp(const std::string &command) {
  for (const HelpPage &p : kPages)
    if (p.command == command)
      return render(p);
  return "";
}

std::vector<std::string> helpCommands() {
  std::vector<std::string> names;
  for (const HelpPage &p : kPages)
    names.emplace_back(p.command);
  return names;
}

int printHelp(const std::string &command, std::ostream &out,
              std::ostream &err) {
  if (command.empty()) {
    out << usageText();
    return kExitClean;
  }
  std::string text = commandHelp(command);
  // A command without a page of its own here (one added since): the
  // overview, which describes every command.
  if (text.empty() &&
      parseOptions({command, "--help"}).options.helpTopic == command) {
    out << usageText();
    return kExitClean;
  }
  if (text.empty()) {
    err << "kcheck: error: no command '" << command << "' (commands:";
    for (const std::string &name : helpCommands())
      err << ' ' << name;
    err << ")\n";
    return kExitUsage;
  }
  out << text;
  return kExitClean;
}

namespace {

const checks::CheckPage *pageOf(std::string_view id) {
  for (const checks::CheckPage &page : checks::checkPages())
    if (page.id == id)
      return &page;
  return nullptr;
}

} // namespace

int listChecks(std::ostream &out, bool json) {
  if (json) {
    core::Json checks = core::Json::array();
    for (const checks::Check &c : checks::registry()) {
      const checks::CheckPage *page = pageOf(c.id);
      checks.push_back(
          {{"id", std::string(c.id)},
           {"severity", core::severityName(c.severity)},
           {"reports_as", std::string(c.findingId())},
           {"sanitizer", c.sanitizer},
           {"summary", page ? std::string(page->summary) : ""},
           {"page", page ? fmt::format("docs/checks/{}.md", c.id) : ""},
           {"kernel",
            c.kernel.empty() ? "" : fmt::format("kernels/{}", c.kernel)}});
    }
    out << core::jsonText(checks) << '\n';
    return kExitClean;
  }
  for (const checks::Check &c : checks::registry()) {
    const checks::CheckPage *page = pageOf(c.id);
    out << fmt::format("{:<20} {}\n", c.id, page ? page->summary : "(no page)");
  }
  out << "\n`kcheck explain ID` shows a check's page (docs/checks/ID.md).\n";
  return kExitClean;
}

int explainCheck(const std::string &id, std::ostream &out, std::ostream &err) {
  if (const checks::CheckPage *page = pageOf(id)) {
    out << page->text;
    return kExitClean;
  }
  err << "kcheck: error: no check '" << id
      << "' (kcheck list-checks lists them)\n";
  return kExitUsage;
}

} // namespace kcheck::cli
