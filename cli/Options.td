// kcheck's command line: every command and option, once. llvm-tblgen
// (-gen-opt-parser-defs) turns it into the table LLVM's OptTable parses with,
// and kcheck's help (cli/Help.cpp) is written from the same table: a
// command's page lists the options that name it, under their group.
//
// Help texts are one paragraph each; the help printer wraps them.
include "llvm/Option/OptParser.td"

// The commands: `kcheck COMMAND ...`. The help text is the command's line in
// `kcheck --help`.
def cmd_bank_conflicts : SubCommand<"bank-conflicts",
  "shared-memory bank conflicts per source line [bank-conflict]">;
def cmd_coalescing : SubCommand<"coalescing",
  "global accesses that move more 32-byte sectors than their bytes need, per "
  "source line [uncoalesced-access]">;
def cmd_divergence : SubCommand<"divergence",
  "thread-dependent branches, how often warps diverge there, SIMT efficiency "
  "[divergent-branch]; __syncthreads() reached by part of a block "
  "[barrier-divergence] (error)">;
def cmd_check : SubCommand<"check",
  "every check: the three above and compute-sanitizer's four below "
  "(--no-sanitizers: without them)">;
def cmd_memcheck : SubCommand<"memcheck",
  "compute-sanitizer's memcheck without a GPU: out-of-bounds and misaligned "
  "accesses [memcheck]">;
def cmd_initcheck : SubCommand<"initcheck",
  "shared memory read before it was written [initcheck]">;
def cmd_racecheck : SubCommand<"racecheck",
  "shared-memory races between warps, and within a warp without __syncwarp "
  "or volatile [racecheck]">;
def cmd_synccheck : SubCommand<"synccheck",
  "barrier divergence [barrier-divergence]">;
def cmd_sanitize : SubCommand<"sanitize",
  "all four sanitizer checks (with --run-host: on the program's run)">;
def cmd_predict : SubCommand<"predict",
  "all predicted counters (--format json: the report schema)">;
def cmd_compare : SubCommand<"compare",
  "PRED.json MEAS.json [...]: predicted vs measured counters per launch and "
  "line (exit 0 all agree, 1 any differs)">;
def cmd_validate : SubCommand<"validate",
  "predict FILE.cu, build it with nvcc -lineinfo, measure it with "
  "kcheck-profile on this machine's GPU and compare (exit 0 all agree, 1 any "
  "differs, 4 no GPU)">;
def cmd_run : SubCommand<"run",
  "FILE.cu [-- program args]: run the program's own host code (in-process, "
  "against a simulated GPU: it executes the program!), simulate every launch "
  "it makes with its real sizes and data, then report each launch like "
  "predict and check (--format json: the program's stdout goes to stderr)">;
def cmd_list_checks : SubCommand<"list-checks",
  "the checks, by id (the [id] of each finding); --format json: as data">;
def cmd_explain : SubCommand<"explain",
  "ID: what a check reports, how kcheck counts it, typical fixes">;

// Which commands take an option.
defvar Sanitizers = [cmd_memcheck, cmd_initcheck, cmd_racecheck,
                     cmd_synccheck, cmd_sanitize];
defvar Checks = !listconcat([cmd_bank_conflicts, cmd_coalescing,
                             cmd_divergence, cmd_check], Sanitizers);
defvar Fixing = [cmd_bank_conflicts, cmd_coalescing, cmd_check];
// The commands that compile FILE.cu and simulate its launches.
defvar Simulating = !listconcat(Checks, [cmd_predict, cmd_validate, cmd_run]);
defvar Launching = !listconcat(Checks, [cmd_predict, cmd_validate]);
defvar All = !listconcat(Simulating, [cmd_compare, cmd_list_checks,
                                      cmd_explain]);

// Help headings, in the order the help prints them.
def grp_findings : OptionGroup<"findings">;
def grp_output : OptionGroup<"output">;
def grp_fixes : OptionGroup<"fixes">;
def grp_build : OptionGroup<"the project's build">;
def grp_launch : OptionGroup<"launches">;
def grp_host : OptionGroup<"host code">;
def grp_model : OptionGroup<"GPU model">;
def grp_limits : OptionGroup<"simulation and its limits">;
def grp_validate : OptionGroup<"validate">;

// An option with a value: `--name VALUE` and `--name=VALUE`.
multiclass Value<string name, string meta, OptionGroup group,
                 list<SubCommand> commands, string help> {
  def NAME : Separate<["--"], name, commands>, MetaVarName<meta>,
             Group<group>, HelpText<help>;
  def NAME # _eq : Joined<["--"], name # "=", commands>,
                   Alias<!cast<Option>(NAME)>, Group<group>;
}

// findings
defm checks : Value<"checks", "LIST", grp_findings,
  !listconcat(Checks, [cmd_run]),
  "the checks to report, clang-tidy style globs: -*,bank-conflict (only "
  "it), -divergent-branch. In FILE.cu, // kcheck-ignore(CHECK-ID): reason, "
  "on a finding's line or alone on the line before it, suppresses it">;
def verify : Flag<["--"], "verify", Checks>, Group<grp_findings>,
  HelpText<"check FILE.cu's // expected-warning {{...}} (and expected-error) "
           "comments instead of printing (exit 0 all match, 1 not)">;
def remarks : Flag<["--"], "remarks",
    [cmd_bank_conflicts, cmd_coalescing, cmd_divergence, cmd_check]>,
  Group<grp_findings>,
  HelpText<"also explain what is not a finding: coalesced and broadcast "
           "accesses, thread-dependent branches that never split a warp">;
def no_sanitizers : Flag<["--"], "no-sanitizers", [cmd_check]>,
  Group<grp_findings>,
  HelpText<"leave out memcheck, initcheck, racecheck and synccheck (their "
           "shadow state runs blocks on one thread)">;

// output
defm format : Value<"format", "FORMAT", grp_output,
  All,
  "text (default), json, markdown (compare, validate), sarif (SARIF 2.1.0 "
  "for code scanning) or html (one self-contained page with the annotated "
  "source and pictures of the worst warps); sarif and html: the check "
  "commands, predict and run">;
def quiet : Flag<["--"], "quiet", Simulating>, Group<grp_output>,
  HelpText<"no progress line on stderr for long simulations">;
def : Flag<["-"], "q", Simulating>, Alias<quiet>, Group<grp_output>;

// fixes
def fix : Flag<["--"], "fix", Fixing>, Group<grp_fixes>,
  HelpText<"apply the fixes that re-simulation verified to FILE.cu in place "
           "(also -fix)">;
def : Flag<["-"], "fix", Fixing>, Alias<fix>, Group<grp_fixes>;
def diff : Flag<["--"], "diff", Fixing>, Group<grp_fixes>,
  HelpText<"print the verified fixes as a unified diff on stdout">;
def no_fixes : Flag<["--"], "no-fixes", Fixing>, Group<grp_fixes>,
  HelpText<"do not search for fixes (each is re-simulated)">;
def parseable_fixits : Flag<["--"], "parseable-fixits", Fixing>,
  Group<grp_fixes>,
  HelpText<"print a fix's edits as Clang's -fdiagnostics-parseable-fixits "
           "lines, not under the caret">;

// the project's build
def compile_database : Separate<["-"], "p", Simulating>, MetaVarName<"DIR">,
  Group<grp_build>,
  HelpText<"take FILE.cu's include paths, macros and -std from "
           "DIR/compile_commands.json (CMake: "
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON), as clang-tidy -p; without "
           "FILE.cu (check commands): every .cu of the database, --jobs "
           "files at a time, one report">;
def : Joined<["-"], "p=", Simulating>, Alias<compile_database>,
  Group<grp_build>;
defm cuda_path : Value<"cuda-path", "DIR", grp_build, Simulating,
  "the CUDA toolkit to compile against (default: as nvcc and Clang find it: "
  "CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda)">;
def bundled_headers : Flag<["--"], "bundled-headers", Simulating>,
  Group<grp_build>,
  HelpText<"compile against kcheck's own CUDA headers, not a toolkit (what "
           "happens when no toolkit is found)">;

// launches
defm kernel : Value<"kernel", "NAME", grp_launch, Launching,
  "analyse only the launches of kernel NAME">;
defm grid : Value<"grid", "X[,Y,Z]", grp_launch, Launching,
  "the launch's grid (overrides what host code says; a file without host "
  "code needs --grid and --block)">;
defm block : Value<"block", "X[,Y,Z]", grp_launch, Launching,
  "the launch's block">;
defm shmem : Value<"shmem", "BYTES", grp_launch, Launching,
  "the launch's dynamic shared memory">;
defm arg : Value<"arg", "NAME=VALUE", grp_launch, Launching,
  "a kernel argument host code does not fix (NAME: the parameter, the "
  "argument as written at the launch, or #INDEX)">;

// host code
def run_host : Flag<["--"], "run-host",
    !listconcat(Checks, [cmd_predict])>, Group<grp_host>,
  HelpText<"take the launches (sizes, arguments, data) from running the "
           "program's host code, as `run` does (it executes the program; "
           "never the default)">;
defm host_budget : Value<"host-budget", "SECS", grp_host, Simulating,
  "run, --run-host: seconds host code may run, simulations not counted "
  "(default 120); past it, exit 3">;
defm program_args : Value<"program-args", "\"A B\"", grp_host, Simulating,
  "the program's arguments (argv[1..]; default: none, argc 1): static "
  "extraction reads them where host code converts argv (atoi, strtol, "
  "std::stoi, atof...); --run-host and run pass them to the program">;

// GPU model
defm arch : Value<"arch", "sm_XX", grp_model, Simulating,
  "the GPU to predict for (default sm_90, the H100)">;
defm bank_mode : Value<"bank-mode", "4|8", grp_model, Simulating,
  "shared-memory bank width in bytes (cc 3.x only)">;
defm l1_cache : Value<"l1-cache", "on|off", grp_model, Simulating,
  "whether global loads are cached in L1 (cc 2.0 and later; on sm_90 as "
  "-Xptxas -dlcm=ca|cg)">;

// simulation and its limits
def exhaustive : Flag<["--"], "exhaustive", Simulating>, Group<grp_limits>,
  HelpText<"simulate every block (default: one per class of blocks proven "
           "to behave the same)">;
defm jobs : Value<"jobs", "N", grp_limits, Simulating,
  "threads that simulate blocks (default: the machine's cores, at most 8; "
  "-p without FILE.cu: files at a time); results do not depend on it">;
def : Separate<["-"], "j", Simulating>, Alias<jobs>, Group<grp_limits>;
defm step_budget : Value<"step-budget", "N", grp_limits, Simulating,
  "warp instructions one block may execute (default 1000000000; 20000000 "
  "once a branch on input data kcheck did not see steers it)">;
defm max_launch_steps : Value<"max-launch-steps", "N", grp_limits,
  Simulating, "warp instructions one launch may execute, each block costing "
  "at least one (default 1000000000)">;
defm max_memory : Value<"max-memory", "MB", grp_limits, Simulating,
  "simulated memory one launch may touch: global pages, shared and local "
  "memory (default: half of this machine's memory)">;
defm max_launches : Value<"max-launches", "N", grp_limits, Simulating,
  "launches per program (default 100000; a repeat of an earlier launch on "
  "the same input is not simulated again but counts)">;
defm time_budget : Value<"time-budget", "SECS", grp_limits, Simulating,
  "seconds the whole analysis may take, compiling included (default 600; "
  "0: none): past it the launch being simulated stops, the launches before "
  "it are reported">;
defm max_source : Value<"max-source", "MB", grp_limits, Simulating,
  "size of FILE.cu kcheck compiles (default 4). Past a limit that launch "
  "stops with a message, exit 3, and the other launches are still "
  "reported">;

// validate
def per_line : Flag<["--"], "per-line", [cmd_validate]>, Group<grp_validate>,
  HelpText<"also measure and compare per source line">;
defm keep : Value<"keep", "DIR", grp_validate, [cmd_validate],
  "keep the predicted and measured JSON in DIR">;

// Every command.
def help : Flag<["--"], "help", All>, Group<grp_output>,
  HelpText<"this text; kcheck help COMMAND (or COMMAND --help): a command's "
           "options and examples">;
def : Flag<["-"], "h", All>, Alias<help>, Group<grp_output>;
