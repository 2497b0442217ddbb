#include "emit/SarifEmitter.h"

#include "checks/Registry.h"
#include "core/Json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

namespace kcheck::emit {

using driver::describeLaunchCall;
using driver::Session;
using driver::SimulatedLaunch;

namespace {

namespace fs = std::filesystem;

constexpr const char *kSchemaUri = "https://docs.oasis-open.org/sarif/sarif/"
                                   "v2.1.0/errata01/os/schemas/"
                                   "sarif-schema-2.1.0.json";
constexpr const char *kSourceRoot = "%SRCROOT%";
constexpr const char *kFingerprintKey = "kcheckLineHash/v1";

/// What a rule says about itself, from its docs page.
struct Rule {
  std::string id;
  std::string shortText; // "shared-memory bank conflicts"
  std::string fullText;  // the page's "What it reports." paragraph
  std::string page;      // the whole page (Markdown), empty for none
  std::string level;     // "warning", "error" or "note"
};

/// A registry row and its page: the page title gives the short text (less
/// its "(warning)" suffix), the first paragraph after it the full text; the
/// level is the check's severity.
Rule ruleOf(const checks::Check &check, const checks::CheckPage *page) {
  Rule r{std::string(check.id), std::string(check.id), std::string(check.id),
         "", std::string(core::severityName(check.severity))};
  if (!page)
    return r;
  r.shortText = r.fullText = page->summary;
  r.page = page->text;
  if (size_t paren = r.shortText.rfind(" (");
      paren != std::string::npos && r.shortText.ends_with(")"))
    r.shortText.resize(paren);
  size_t start = page->text.find("\n\n");
  if (start != std::string::npos) {
    size_t end = page->text.find("\n\n", start + 2);
    std::string paragraph = page->text.substr(start + 2, end - start - 2);
    const std::string bold = "**What it reports.** ";
    if (paragraph.starts_with(bold))
      paragraph.erase(0, bold.size());
    std::replace(paragraph.begin(), paragraph.end(), '\n', ' ');
    if (!paragraph.empty())
      r.fullText = paragraph;
  }
  return r;
}

/// "bank-conflict" -> "BankConflict": SARIF's rule name is an identifier.
std::string pascalCase(const std::string &id) {
  std::string out;
  bool upper = true;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    out += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

/// Every documented check, then any other id a diagnostic carries (the
/// remarks' ids), so that every result has a ruleIndex.
std::vector<Rule> rulesFor(const std::vector<core::Diagnostic> &diags) {
  std::vector<Rule> rules;
  for (const checks::Check &c : checks::registry()) {
    const checks::CheckPage *page = nullptr;
    for (const checks::CheckPage &p : checks::checkPages())
      if (p.id == c.id)
        page = &p;
    rules.push_back(ruleOf(c, page));
  }
  for (const core::Diagnostic &d : diags)
    if (!d.checkId.empty() &&
        std::none_of(rules.begin(), rules.end(),
                     [&](const Rule &r) { return r.id == d.checkId; }))
      rules.push_back({d.checkId, d.checkId, d.checkId, "", "note"});
  return rules;
}

std::string_view levelOf(core::Severity s) {
  switch (s) {
  case core::Severity::Error:
    return "error";
  case core::Severity::Warning:
    return "warning";
  case core::Severity::Note:
  case core::Severity::Remark:
    return "note";
  }
  return "note";
}

/// RFC 3986: everything but unreserved characters and '/' percent-encoded
/// (spaces and UTF-8 bytes in paths included).
std::string percentEncode(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
        c == '/')
      out += char(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

struct ArtifactUri {
  std::string uri;
  bool underSourceRoot = false;
};

ArtifactUri artifactUri(const std::string &file) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  fs::path absolute = fs::absolute(file, ec).lexically_normal();
  if (!ec) {
    fs::path relative = absolute.lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..")
      return {percentEncode(relative.generic_string()), true};
  }
  return {"file://" + percentEncode(absolute.generic_string()), false};
}

/// 64-bit FNV-1a: small, stable across platforms and runs.
uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

/// The source lines of each file a finding points into, read once.
class SourceLines {
public:
  std::string_view line(const std::string &file, unsigned number) {
    auto [it, inserted] = files_.try_emplace(file);
    if (inserted) {
      std::ifstream in(file);
      for (std::string l; std::getline(in, l);)
        it->second.push_back(l);
    }
    if (number == 0 || number > it->second.size())
      return {};
    return it->second[number - 1];
  }

private:
  std::map<std::string, std::vector<std::string>> files_;
};

std::string withoutSpace(std::string_view text) {
  std::string out;
  for (unsigned char c : text)
    if (!std::isspace(c))
      out += char(c);
  return out;
}

using core::Json;

Json messageJson(const std::string &text) { return {{"text", text}}; }

Json ruleJson(const Rule &r) {
  Json rule = {{"id", r.id},
               {"name", pascalCase(r.id)},
               {"shortDescription", messageJson(r.shortText)},
               {"fullDescription", messageJson(r.fullText)}};
  if (!r.page.empty())
    rule["help"] = {{"text", r.page}, {"markdown", r.page}};
  rule["defaultConfiguration"] = {{"level", r.level}};
  rule["properties"] = {{"tags", {"cuda", "performance"}}};
  return rule;
}

Json toolJson(const std::vector<Rule> &rules) {
  Json driver = {{"name", "kcheck"}};
#ifdef KCHECK_HOME_URL
  // Only where the build says where kcheck lives (-DKCHECK_HOME_URL=...):
  // no address is made up.
  driver["informationUri"] = KCHECK_HOME_URL;
#endif
  driver["version"] = driver::kKcheckVersion;
  Json ruleList = Json::array();
  for (const Rule &r : rules)
    ruleList.push_back(ruleJson(r));
  driver["rules"] = std::move(ruleList);
  return {{"driver", std::move(driver)}};
}

/// kcheck's per-launch figures: what `predict --format json` says of each
/// launch, minus the per-line tables.
Json launchPropertiesJson(const Session &s) {
  Json launches = Json::array();
  for (const core::LaunchReport &l : s.report.launches) {
    Json launch =
        core::launchIdentityJson(l.index, l.kernel, l.signature, l.config);
    launch["simulated"] = l.simulated;
    if (l.simulated) {
      Json metrics = Json::object();
      for (unsigned m = 0; m < core::kMetricCount; ++m)
        if (l.predicts(core::Metric(m)))
          metrics[core::metricName(core::Metric(m))] =
              l.metrics[core::Metric(m)];
      launch["metrics"] = std::move(metrics);
    }
    if (!l.notes.empty())
      launch["notes"] = l.notes;
    launches.push_back(std::move(launch));
  }
  return {{"arch", s.report.arch}, {"launches", std::move(launches)}};
}

Json invocationsJson(const Session &s) {
  Json invocation = {{"executionSuccessful", s.errors.empty()}};
  Json notifications = Json::array();
  auto notify = [&](const char *level, const std::string &text) {
    notifications.push_back({{"level", level}, {"message", messageJson(text)}});
  };
  for (const std::string &e : s.errors)
    notify("error", e);
  for (const std::string &n : s.report.notes)
    notify("note", n);
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      notify("note", fmt::format("launch #{} {}: {}", l.index, l.kernel, n));
  if (!notifications.empty())
    invocation["toolExecutionNotifications"] = std::move(notifications);
  return Json::array({std::move(invocation)});
}

/// The finding's location and the fingerprint that follows its line's text
/// (code scanning matches results across commits with it); `seen` counts
/// (rule, uri, line text) so far, the fingerprint's suffix.
void addLocationJson(Json &result, const core::Diagnostic &d,
                     SourceLines &sources,
                     std::map<std::tuple<std::string, std::string, std::string>,
                              unsigned> &seen) {
  ArtifactUri uri = artifactUri(d.loc.file);
  Json artifact = {{"uri", uri.uri}};
  if (uri.underSourceRoot)
    artifact["uriBaseId"] = kSourceRoot;
  Json region = {{"startLine", d.loc.line}};
  if (d.loc.col)
    region["startColumn"] = d.loc.col;
  result["locations"] =
      Json::array({{{"physicalLocation",
                     {{"artifactLocation", artifact}, {"region", region}}}}});
  std::string lineText = withoutSpace(sources.line(d.loc.file, d.loc.line));
  unsigned occurrence = seen[{d.checkId, uri.uri, lineText}]++;
  result["partialFingerprints"] = {
      {kFingerprintKey,
       fmt::format("{:016x}:{}",
                   fnv1a(d.checkId + '\n' + uri.uri + '\n' + lineText),
                   occurrence + 1)}};
}

Json resultsJson(const std::vector<Rule> &rules,
                 const std::vector<core::Diagnostic> &diags) {
  Json results = Json::array();
  SourceLines sources;
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> seen;
  for (const core::Diagnostic &d : diags) {
    auto rule = std::find_if(rules.begin(), rules.end(),
                             [&](const Rule &r) { return r.id == d.checkId; });
    Json result = Json::object();
    if (rule != rules.end()) {
      result["ruleId"] = rule->id;
      result["ruleIndex"] = uint64_t(rule - rules.begin());
    }
    result["level"] = std::string(levelOf(d.severity));
    std::string text = d.message;
    for (const core::Diagnostic &n : d.notes)
      text += (&n == &d.notes.front() ? "\n\n- " : "\n- ") + n.message;
    result["message"] = messageJson(text);
    if (d.loc.valid())
      addLocationJson(result, d, sources, seen);
    results.push_back(std::move(result));
  }
  return results;
}

} // namespace

std::string sarifLog(const Session &s,
                     const std::vector<core::Diagnostic> &diags) {
  std::vector<Rule> rules = rulesFor(diags);
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  Json run = {
      {"tool", toolJson(rules)},
      {"originalUriBaseIds",
       {{kSourceRoot,
         {{"uri", "file://" + percentEncode(cwd.generic_string()) + "/"}}}}},
      {"invocations", invocationsJson(s)},
      {"results", resultsJson(rules, diags)},
      {"properties", launchPropertiesJson(s)}};
  Json log = {{"$schema", kSchemaUri},
              {"version", "2.1.0"},
              {"runs", Json::array({std::move(run)})}};
  return core::jsonText(log) + "\n";
}

} // namespace kcheck::emit
