#include "emit/HtmlPictures.h"

#include "simulator/models/SharedBankModel.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace kcheck::emit::html {

namespace {

constexpr unsigned kLanes = 32;

// Tableau 10: distinguishable, and readable with white text on it.
constexpr const char *kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                    "#59a14f", "#b8a12f", "#b07aa1", "#ff9da7",
                                    "#9c755f", "#8c8c8c"};
constexpr size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

bool active(uint32_t mask, unsigned lane) { return (mask >> lane) & 1u; }

std::string svgOpen(unsigned width, unsigned height, std::string_view label) {
  return fmt::format("<svg class=\"pic\" xmlns=\"http://www.w3.org/2000/svg\" "
                     "viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
                     "role=\"img\" aria-label=\"{2}\">\n",
                     width, height, escape(label));
}

std::string text(double x, double y, std::string_view content,
                 std::string_view cls, std::string_view anchor = "middle") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"{}\" "
                     "text-anchor=\"{}\">{}</text>\n",
                     x, y, cls, anchor, escape(content));
}

} // namespace

std::string escape(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (char c : in) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

/// Bank -> the distinct words (byte offset of the word) the warp's active
/// lanes touch there, in address order.
std::vector<std::vector<uint64_t>> bankWords(const sim::SharedBankModel &model,
                                             const sim::WorstWarp &w) {
  const unsigned wordBytes = model.bankBytes();
  std::vector<std::vector<uint64_t>> words(model.banks());
  for (unsigned lane = 0; lane < kLanes; ++lane)
    if (active(w.activeMask, lane)) {
      auto &ws = words[model.bankOf(w.addrs[lane])];
      uint64_t word = w.addrs[lane] / wordBytes * wordBytes;
      if (std::find(ws.begin(), ws.end(), word) == ws.end())
        ws.push_back(word);
    }
  for (auto &ws : words)
    std::sort(ws.begin(), ws.end());
  return words;
}

/// Distinct words per bank under the lanes: the replays each bank forces.
std::string wordCountsRow(const std::vector<std::vector<uint64_t>> &words,
                          size_t most, unsigned left, double y, unsigned cell) {
  std::string svg = text(left - 6, y + 14, "words", "tick", "end");
  for (unsigned b = 0; b < words.size(); ++b) {
    size_t n = words[b].size();
    double x = left + b * cell;
    std::string cls = n == most && most > 1 ? "count hot"
                      : n > 1               ? "count warm"
                      : n == 1              ? "count ok"
                                            : "count none";
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                       "rx=\"2\" class=\"{}\"/>\n",
                       x + 1, y, cell - 2, 20, cls);
    if (n)
      svg += text(x + cell / 2.0, y + 14, std::to_string(n), "countnum");
  }
  return svg;
}

} // namespace

std::string bankPicture(const sim::WorstWarp &w, const core::ArchSpec &arch) {
  sim::SharedBankModel model(arch);
  const unsigned banks = model.banks(), wordBytes = model.bankBytes();
  std::vector<std::vector<uint64_t>> words = bankWords(model, w);
  size_t most = 1;
  for (auto &ws : words)
    most = std::max(most, ws.size());

  const unsigned cell = 14, left = 52, top = 40;
  const unsigned width = left + banks * cell + 12;
  const unsigned height = top + kLanes * cell + 44;
  std::string svg = svgOpen(width, height,
                            fmt::format("lanes to banks of block ({}) warp {}",
                                        core::toString(w.block), w.warp));
  svg += text(left + banks * cell / 2.0, 12, "bank", "axis");
  svg += text(left - 8, top - 8, "lane", "axis", "end");
  for (unsigned b = 0; b < banks; ++b) {
    double x = left + b * cell + cell / 2.0;
    bool worst = words[b].size() == most && most > 1;
    svg += text(x, top - 8, std::to_string(b), worst ? "tick hot" : "tick");
  }
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    double y = top + lane * cell;
    bool on = active(w.activeMask, lane);
    svg += text(left - 6, y + cell - 4, std::to_string(lane),
                on ? "tick" : "tick off", "end");
    svg +=
        fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                    "class=\"{}\"/>\n",
                    left, y, banks * cell, cell, lane % 2 ? "row odd" : "row");
    if (!on)
      continue;
    unsigned b = model.bankOf(w.addrs[lane]);
    uint64_t word = w.addrs[lane] / wordBytes * wordBytes;
    size_t k = size_t(std::find(words[b].begin(), words[b].end(), word) -
                      words[b].begin());
    double x = left + b * cell;
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" "
        "fill=\"{}\" class=\"lane\"><title>lane {}: byte offset {}, bank {}, "
        "word {} of {} in this bank</title></rect>\n",
        x + 1, y + 1, cell - 2, cell - 2, kPalette[k % kPaletteSize], lane,
        w.addrs[lane], b, k + 1, words[b].size());
    if (words[b].size() > 1)
      svg +=
          text(x + cell / 2.0, y + cell - 4, std::to_string(k + 1), "cellnum");
  }
  svg += wordCountsRow(words, most, left, top + kLanes * cell + 6, cell);
  svg += text(left, height - 6,
              fmt::format("{} bank{} of {} bytes; the busiest bank serves {} "
                          "distinct word{}",
                          banks, banks == 1 ? "" : "s", wordBytes, most,
                          most == 1 ? "" : "s"),
              "caption", "start");
  svg += "</svg>\n";
  return svg;
}

namespace {

/// Where each sector of a sector picture is drawn: in address order,
/// adjacent sectors close together, a gap before a far one.
struct SectorLayout {
  unsigned sectorBytes;
  double byteWidth, sectorWidth;
  uint64_t firstSector;
  std::map<uint64_t, double> xOf; // sector -> x of its first byte
};

/// One rectangle per sector the lane's bytes fall in.
std::string laneBytes(const sim::GlobalWarp &w, unsigned lane, unsigned bytes,
                      const SectorLayout &l, double y, unsigned rowHeight) {
  std::string svg;
  for (uint64_t a = w.addrs[lane]; a < w.addrs[lane] + bytes;) {
    uint64_t sector = a / l.sectorBytes;
    uint64_t end =
        std::min<uint64_t>(w.addrs[lane] + bytes, (sector + 1) * l.sectorBytes);
    double bx = l.xOf.at(sector) + double(a % l.sectorBytes) * l.byteWidth;
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" "
        "fill=\"hsl({},55%,50%)\" class=\"lane\"><title>lane {}: bytes "
        "{}..{} of sector +{}</title></rect>\n",
        bx + 0.3, y + 1, double(end - a) * l.byteWidth - 0.6, rowHeight - 2,
        lane * 300 / kLanes, lane, a % l.sectorBytes, (end - 1) % l.sectorBytes,
        (sector - l.firstSector) * l.sectorBytes);
    a = end;
  }
  return svg;
}

/// Bytes used per sector: what each sector's bytes of traffic buy.
std::string usedBytesRow(const std::map<uint64_t, std::set<uint64_t>> &used,
                         const SectorLayout &l, double y, unsigned left) {
  std::string svg = text(left - 6, y + 13, "used", "tick", "end");
  for (auto &[sector, bytesUsed] : used) {
    double sx = l.xOf.at(sector);
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" "
                       "height=\"18\" class=\"sector\"/>\n",
                       sx, y, l.sectorWidth);
    for (uint64_t a : bytesUsed)
      svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" "
                         "height=\"18\" class=\"usedbyte\"/>\n",
                         sx + double(a % l.sectorBytes) * l.byteWidth, y,
                         l.byteWidth);
    svg += text(sx + l.sectorWidth / 2, y + 32,
                fmt::format("{}/{} B", bytesUsed.size(), l.sectorBytes),
                bytesUsed.size() == l.sectorBytes ? "tick" : "tick hot");
  }
  return svg;
}

} // namespace

std::string sectorPicture(const sim::GlobalWarp &w, unsigned sectorBytes) {
  const unsigned bytes = std::max(1u, w.bytesPerLane);
  std::map<uint64_t, std::set<uint64_t>> used; // sector -> bytes used
  for (unsigned lane = 0; lane < kLanes; ++lane)
    if (active(w.activeMask, lane))
      for (uint64_t a = w.addrs[lane]; a < w.addrs[lane] + bytes; ++a)
        used[a / sectorBytes].insert(a);
  if (used.empty())
    return "";

  SectorLayout sectors;
  sectors.sectorBytes = sectorBytes;
  sectors.byteWidth = sectorBytes <= 32 ? 3 : 96.0 / sectorBytes;
  sectors.sectorWidth = sectors.byteWidth * sectorBytes;
  sectors.firstSector = used.begin()->first;
  const double sectorWidth = sectors.sectorWidth;
  const unsigned rowHeight = 10, left = 52, top = 44, adjacentGap = 4,
                 farGap = 22;
  std::map<uint64_t, double> &xOf = sectors.xOf;
  double x = left;
  uint64_t previous = 0;
  for (auto &[sector, unused] : used) {
    if (!xOf.empty())
      x += sector == previous + 1 ? adjacentGap : farGap;
    xOf[sector] = x;
    x += sectorWidth;
    previous = sector;
  }
  const unsigned width = unsigned(x) + 14;
  const unsigned height = top + kLanes * rowHeight + 58;
  std::string svg =
      svgOpen(width, height,
              fmt::format("lanes to sectors of block ({}) warp {}",
                          core::toString(w.block), w.warp));
  const uint64_t firstSector = sectors.firstSector;
  svg += text(left - 8, top - 8, "lane", "axis", "end");
  previous = 0;
  for (auto &[sector, unused] : used) {
    double sx = xOf[sector];
    if (sector != firstSector && sector != previous + 1)
      svg += text(sx - farGap / 2.0, top + kLanes * rowHeight / 2.0, "\u22ef",
                  "gap");
    previous = sector;
    svg +=
        text(sx + sectorWidth / 2, top - 22,
             fmt::format("+{}", (sector - firstSector) * sectorBytes), "tick");
    svg += text(sx + sectorWidth / 2, top - 8, "sector", "tick small");
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" "
                       "height=\"{}\" class=\"sector\"/>\n",
                       sx, top, sectorWidth, kLanes * rowHeight);
  }
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    double y = top + lane * rowHeight;
    bool on = active(w.activeMask, lane);
    if (lane % 4 == 0 || lane == kLanes - 1)
      svg += text(left - 6, y + rowHeight - 1, std::to_string(lane),
                  on ? "tick" : "tick off", "end");
    if (on)
      svg += laneBytes(w, lane, bytes, sectors, y, rowHeight);
  }
  svg += usedBytesRow(used, sectors, top + kLanes * rowHeight + 8, left);
  svg += text(left, height - 4,
              fmt::format("{} sector{} of {} bytes for {} lanes x {} bytes; "
                          "{} would do",
                          used.size(), used.size() == 1 ? "" : "s", sectorBytes,
                          std::popcount(w.activeMask), bytes, w.ideal),
              "caption", "start");
  svg += "</svg>\n";
  return svg;
}

namespace {

constexpr unsigned kCountBar = 140, kEfficiencyBar = 100; // bar lengths

/// A count against its ideal: the ideal part, the excess after it, and
/// "actual / ideal (ratio)".
std::string countBarSvg(const Bar &b, double x, double by) {
  if (!b.known || b.actual == 0)
    return text(x, by + 10, b.known ? "none" : "not simulated", "muted",
                "start");
  double good =
      kCountBar * double(std::min(b.ideal, b.actual)) / double(b.actual);
  std::string svg = fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" "
                                "height=\"12\" class=\"ideal\"/>\n",
                                x, by, good);
  if (b.actual > b.ideal)
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" "
                       "height=\"12\" class=\"excess\"/>\n",
                       x + good, by, kCountBar - good);
  std::string ratio =
      b.ideal && b.actual > b.ideal
          ? fmt::format(" ({:.2f}\u00d7)", double(b.actual) / double(b.ideal))
          : "";
  svg += text(x + kCountBar + 6, by + 10,
              grouped(b.actual) + " / " + grouped(b.ideal) + ratio,
              b.actual > b.ideal ? "value hot" : "value", "start");
  return svg;
}

/// An efficiency (ideal / actual) as a filled track and a percentage.
std::string efficiencyBarSvg(const Bar &b, double x, double by) {
  if (!b.known || b.actual == 0)
    return text(x, by + 10, b.known ? "none" : "not simulated", "muted",
                "start");
  double fraction = double(b.ideal) / double(b.actual);
  std::string svg =
      fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" "
                  "class=\"track\"/>\n",
                  x, by, kEfficiencyBar);
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" "
                     "height=\"12\" class=\"{}\"/>\n",
                     x, by, kEfficiencyBar * fraction,
                     fraction < 0.999 ? "partial" : "ideal");
  svg += text(x + kEfficiencyBar + 6, by + 10,
              fmt::format("{:.1f}%", 100.0 * fraction),
              fraction < 0.999 ? "value hot" : "value", "start");
  return svg;
}

} // namespace

std::string launchChart(const std::vector<LaunchBars> &launches) {
  if (launches.empty())
    return "";
  const unsigned labelWidth = 330, countCell = 330, effCell = 170,
                 rowHeight = 34, top = 26;
  const LaunchBars &first = launches.front();
  const unsigned width = labelWidth +
                         unsigned(first.countBars.size()) * countCell +
                         unsigned(first.efficiencyBars.size()) * effCell;
  const unsigned height = top + unsigned(launches.size()) * rowHeight + 8;
  std::string svg = svgOpen(width, height, "per-launch counts against ideal");
  double x = labelWidth;
  for (const Bar &b : first.countBars) {
    svg += text(x, 14, b.label, "colhead", "start");
    x += countCell;
  }
  for (const Bar &b : first.efficiencyBars) {
    svg += text(x, 14, b.label, "colhead", "start");
    x += effCell;
  }
  for (size_t i = 0; i < launches.size(); ++i) {
    const LaunchBars &l = launches[i];
    double y = top + double(i) * rowHeight;
    svg += fmt::format("<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" "
                       "class=\"{}\"/>\n",
                       y, width, rowHeight, i % 2 ? "row odd" : "row");
    std::string title =
        l.title.size() > 46 ? l.title.substr(0, 45) + "\u2026" : l.title;
    svg += fmt::format("<text x=\"6\" y=\"{}\" class=\"launch\">{}<title>{}"
                       "</title></text>\n",
                       y + 21, escape(title), escape(l.title));
    x = labelWidth;
    for (const Bar &b : l.countBars) {
      svg += countBarSvg(b, x, y + 11);
      x += countCell;
    }
    for (const Bar &b : l.efficiencyBars) {
      svg += efficiencyBarSvg(b, x, y + 11);
      x += effCell;
    }
  }
  svg += "</svg>\n";
  return svg;
}

} // namespace kcheck::emit::html
