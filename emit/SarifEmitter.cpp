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

void writeMessage(core::JsonWriter &w, const std::string &text) {
  w.key("message");
  w.beginObject();
  w.key("text");
  w.value(text);
  w.endObject();
}

void writeRule(core::JsonWriter &w, const Rule &r) {
  w.beginObject();
  w.key("id");
  w.value(r.id);
  w.key("name");
  w.value(pascalCase(r.id));
  w.key("shortDescription");
  w.beginObject();
  w.key("text");
  w.value(r.shortText);
  w.endObject();
  w.key("fullDescription");
  w.beginObject();
  w.key("text");
  w.value(r.fullText);
  w.endObject();
  if (!r.page.empty()) {
    w.key("help");
    w.beginObject();
    w.key("text");
    w.value(r.page);
    w.key("markdown");
    w.value(r.page);
    w.endObject();
  }
  w.key("defaultConfiguration");
  w.beginObject();
  w.key("level");
  w.value(r.level);
  w.endObject();
  w.key("properties");
  w.beginObject();
  w.key("tags");
  w.beginArray();
  w.value("cuda");
  w.value("performance");
  w.endArray();
  w.endObject();
  w.endObject();
}

/// kcheck's per-launch figures: what `predict --format json` says of each
/// launch, minus the per-line tables.
void writeLaunchProperties(core::JsonWriter &w, const Session &s) {
  w.key("properties");
  w.beginObject();
  w.key("arch");
  w.value(s.report.arch);
  w.key("launches");
  w.beginArray();
  for (const core::LaunchReport &l : s.report.launches) {
    w.beginObject();
    writeLaunchIdentity(w, l.index, l.kernel, l.signature, l.config);
    w.key("simulated");
    w.value(l.simulated);
    if (l.simulated) {
      w.key("metrics");
      w.beginObject();
      for (unsigned m = 0; m < core::kMetricCount; ++m) {
        core::Metric metric = core::Metric(m);
        if (l.predicts(metric)) {
          w.key(core::metricName(metric));
          w.value(l.metrics[metric]);
        }
      }
      w.endObject();
    }
    if (!l.notes.empty()) {
      w.key("notes");
      w.beginArray();
      for (const std::string &n : l.notes)
        w.value(n);
      w.endArray();
    }
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

void writeInvocation(core::JsonWriter &w, const Session &s) {
  w.key("invocations");
  w.beginArray();
  w.beginObject();
  w.key("executionSuccessful");
  w.value(s.errors.empty());
  std::vector<std::pair<const char *, std::string>> notifications;
  for (const std::string &e : s.errors)
    notifications.emplace_back("error", e);
  for (const std::string &n : s.report.notes)
    notifications.emplace_back("note", n);
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      notifications.emplace_back(
          "note", fmt::format("launch #{} {}: {}", l.index, l.kernel, n));
  if (!notifications.empty()) {
    w.key("toolExecutionNotifications");
    w.beginArray();
    for (auto &[level, text] : notifications) {
      w.beginObject();
      w.key("level");
      w.value(level);
      writeMessage(w, text);
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
  w.endArray();
}

} // namespace

std::string sarifLog(const Session &s,
                     const std::vector<core::Diagnostic> &diags) {
  std::vector<Rule> rules = rulesFor(diags);
  core::JsonWriter w;
  w.beginObject();
  w.key("$schema");
  w.value(kSchemaUri);
  w.key("version");
  w.value("2.1.0");
  w.key("runs");
  w.beginArray();
  w.beginObject();

  w.key("tool");
  w.beginObject();
  w.key("driver");
  w.beginObject();
  w.key("name");
  w.value("kcheck");
#ifdef KCHECK_HOME_URL
  // Only where the build says where kcheck lives (-DKCHECK_HOME_URL=...):
  // no address is made up.
  w.key("informationUri");
  w.value(KCHECK_HOME_URL);
#endif
  w.key("version");
  w.value(driver::kKcheckVersion);
  w.key("rules");
  w.beginArray();
  for (const Rule &r : rules)
    writeRule(w, r);
  w.endArray();
  w.endObject();
  w.endObject();

  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  w.key("originalUriBaseIds");
  w.beginObject();
  w.key(kSourceRoot);
  w.beginObject();
  w.key("uri");
  w.value("file://" + percentEncode(cwd.generic_string()) + "/");
  w.endObject();
  w.endObject();

  writeInvocation(w, s);

  w.key("results");
  w.beginArray();
  SourceLines sources;
  // (rule, uri, line text) -> occurrences so far: the fingerprint's suffix.
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> seen;
  for (const core::Diagnostic &d : diags) {
    auto rule = std::find_if(rules.begin(), rules.end(),
                             [&](const Rule &r) { return r.id == d.checkId; });
    w.beginObject();
    if (rule != rules.end()) {
      w.key("ruleId");
      w.value(rule->id);
      w.key("ruleIndex");
      w.value(uint64_t(rule - rules.begin()));
    }
    w.key("level");
    w.value(levelOf(d.severity));
    std::string text = d.message;
    for (const core::Diagnostic &n : d.notes)
      text += (&n == &d.notes.front() ? "\n\n- " : "\n- ") + n.message;
    writeMessage(w, text);
    if (d.loc.valid()) {
      ArtifactUri uri = artifactUri(d.loc.file);
      w.key("locations");
      w.beginArray();
      w.beginObject();
      w.key("physicalLocation");
      w.beginObject();
      w.key("artifactLocation");
      w.beginObject();
      w.key("uri");
      w.value(uri.uri);
      if (uri.underSourceRoot) {
        w.key("uriBaseId");
        w.value(kSourceRoot);
      }
      w.endObject();
      w.key("region");
      w.beginObject();
      w.key("startLine");
      w.value(d.loc.line);
      if (d.loc.col) {
        w.key("startColumn");
        w.value(d.loc.col);
      }
      w.endObject();
      w.endObject();
      w.endObject();
      w.endArray();

      std::string lineText = withoutSpace(sources.line(d.loc.file, d.loc.line));
      unsigned occurrence = seen[{d.checkId, uri.uri, lineText}]++;
      w.key("partialFingerprints");
      w.beginObject();
      w.key(kFingerprintKey);
      w.value(fmt::format("{:016x}:{}",
                          fnv1a(d.checkId + '\n' + uri.uri + '\n' + lineText),
                          occurrence + 1));
      w.endObject();
    }
    w.endObject();
  }
  w.endArray();

  writeLaunchProperties(w, s);
  w.endObject();
  w.endArray();
  w.endObject();
  return w.str() + "\n";
}

} // namespace kcheck::emit
