// The option table (cli/Options.td) is both what kcheck parses and what its
// help lists: every command accepts exactly the options its help page names,
// and every command of the table is one kcheck runs.
#include "cli/Help.h"
#include "cli/Options.h"

#include <gtest/gtest.h>

#include <set>

using namespace kcheck::cli;

namespace {

// The option's command-line words: the spelling, and a value when it takes
// one (which may be a bad value: a value error still means "accepted").
std::vector<std::string> wordsOf(const OptionHelp &o) {
  size_t blank = o.spelling.find(' ');
  if (blank == std::string::npos)
    return {o.spelling};
  return {o.spelling.substr(0, blank), "1"};
}

bool refusedAsForeign(const ParseResult &r) {
  return r.error.find("is not one of") != std::string::npos;
}

} // namespace

TEST(OptionTable, EachCommandAcceptsExactlyTheOptionsItsHelpLists) {
  std::vector<OptionHelp> all = optionHelp("");
  ASSERT_GT(all.size(), 30u);
  for (const CommandSummary &c : commandSummaries()) {
    if (c.name == "list-checks" || c.name == "explain")
      continue; // no options but --help (and list-checks' --format json)
    std::set<std::string> listed;
    for (const OptionHelp &o : optionHelp(c.name))
      listed.insert(o.spelling);
    for (const OptionHelp &o : all) {
      if (o.spelling == "--help")
        continue;
      std::vector<std::string> argv = {c.name};
      for (const std::string &w : wordsOf(o))
        argv.push_back(w);
      argv.push_back("a.cu");
      ParseResult r = parseOptions(argv);
      EXPECT_EQ(refusedAsForeign(r), !listed.count(o.spelling))
          << c.name << " " << o.spelling << ": " << r.error;
    }
  }
}

TEST(OptionTable, EveryCommandOfTheTableRunsAndHasAPage) {
  std::vector<CommandSummary> commands = commandSummaries();
  ASSERT_GE(commands.size(), 15u);
  for (const CommandSummary &c : commands) {
    EXPECT_FALSE(c.summary.empty()) << c.name;
    ParseResult r = parseOptions({c.name, "--help"});
    EXPECT_EQ(r.options.helpTopic, c.name) << r.error;
    std::string page = commandHelp(c.name);
    EXPECT_NE(page.find("usage: kcheck " + c.name), std::string::npos)
        << c.name;
    for (const OptionHelp &o : optionHelp(c.name))
      EXPECT_NE(page.find(o.spelling), std::string::npos)
          << c.name << " page lacks " << o.spelling;
  }
}

TEST(OptionTable, BothValueSpellingsAndAliases) {
  ParseResult a =
      parseOptions({"check", "--arch=sm_80", "--grid", "4,2", "-j", "3", "-q",
                    "-p=db", "-fix", "k.cu", "--", "-DX"});
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.options.arch, "sm_80");
  EXPECT_EQ(a.options.grid->x, 4u);
  EXPECT_EQ(a.options.grid->y, 2u);
  EXPECT_EQ(a.options.jobs, 3u);
  EXPECT_TRUE(a.options.quiet);
  EXPECT_TRUE(a.options.applyFixes);
  EXPECT_EQ(a.options.compileDatabase, "db");
  EXPECT_EQ(a.options.file, "k.cu");
  EXPECT_EQ(a.options.clangArgs, (std::vector<std::string>{"-DX"}));
  EXPECT_EQ(parseOptions({"check", "k.cu", "--arch"}).error,
            "option --arch needs a value");
  EXPECT_EQ(parseOptions({"check", "k.cu", "--nope"}).error,
            "unknown option '--nope'");
  EXPECT_EQ(parseOptions({"run", "k.cu", "--", "--nope"}).options.programArgs,
            (std::vector<std::string>{"--nope"}));
}
