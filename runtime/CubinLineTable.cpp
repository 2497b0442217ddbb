#include "runtime/CubinLineTable.h"

#include <algorithm>
#include <cstring>

namespace kcheck::runtime {

namespace {

// A bounds-checked little-endian reader: a truncated or corrupt cubin sets
// `failed` instead of reading past the end.
class Reader {
public:
  Reader(std::string_view data, size_t at = 0) : data_(data), at_(at) {}

  bool failed() const { return failed_; }
  size_t offset() const { return at_; }
  void seek(size_t at) {
    if (at > data_.size())
      failed_ = true;
    else
      at_ = at;
  }
  // A little-endian field of at most 8 bytes.
  uint64_t fixed(size_t bytes) {
    if (failed_ || bytes > 8 || bytes > data_.size() - at_) {
      failed_ = true;
      return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; ++i)
      v |= uint64_t(uint8_t(data_[at_ + i])) << (8 * i);
    at_ += bytes;
    return v;
  }
  void skip(size_t bytes) {
    if (failed_ || bytes > data_.size() - at_)
      failed_ = true;
    else
      at_ += bytes;
  }
  uint64_t uleb() {
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      uint64_t byte = fixed(1);
      if (failed_)
        return 0;
      if (shift < 64)
        v |= (byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return v;
    }
  }
  int64_t sleb() {
    int64_t v = 0;
    unsigned shift = 0;
    uint64_t byte = 0;
    do {
      byte = fixed(1);
      if (failed_)
        return 0;
      if (shift < 64)
        v |= int64_t(byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    if (shift < 64 && (byte & 0x40))
      v |= -(int64_t(1) << shift);
    return v;
  }
  std::string cstring() {
    std::string s;
    for (;;) {
      char c = char(fixed(1));
      if (failed_ || c == '\0')
        return s;
      s += c;
    }
  }

private:
  std::string_view data_;
  size_t at_;
  bool failed_ = false;
};

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  std::string_view bytes;
};

struct Symbol {
  std::string name;
  uint8_t type = 0;
  uint16_t section = 0;
  uint64_t value = 0, size = 0;
};

constexpr uint32_t kShtSymtab = 2, kShtRela = 4;
constexpr uint8_t kSttFunc = 2, kSttSection = 3;

struct Elf {
  std::vector<Section> sections;
  std::vector<Symbol> symbols;
};

std::optional<Elf> readElf(std::string_view image, std::string &error) {
  if (image.size() < 64 ||
      std::memcmp(image.data(),
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      image[4] != 2 || image[5] != 1) {
    error = "not a 64-bit little-endian ELF image";
    return std::nullopt;
  }
  Reader r(image, 0x28);
  uint64_t shoff = r.fixed(8);
  r.seek(0x3a);
  uint64_t shentsize = r.fixed(2), shnum = r.fixed(2), shstrndx = r.fixed(2);
  if (r.failed() || shentsize < 64 || shstrndx >= shnum) {
    error = "corrupt ELF header";
    return std::nullopt;
  }
  Elf elf;
  std::vector<uint32_t> nameOffsets;
  for (uint64_t i = 0; i < shnum; ++i) {
    Reader h(image);
    h.seek(shoff + i * shentsize);
    Section s;
    nameOffsets.push_back(uint32_t(h.fixed(4)));
    s.type = uint32_t(h.fixed(4));
    h.skip(16); // flags, addr
    s.offset = h.fixed(8);
    s.size = h.fixed(8);
    s.link = uint32_t(h.fixed(4));
    s.info = uint32_t(h.fixed(4));
    if (h.failed() ||
        (s.type != 8 /*NOBITS*/ &&
         (s.offset > image.size() || s.size > image.size() - s.offset))) {
      error = "corrupt ELF section header " + std::to_string(i);
      return std::nullopt;
    }
    if (s.type != 8)
      s.bytes = image.substr(s.offset, s.size);
    elf.sections.push_back(s);
  }
  std::string_view names = elf.sections[shstrndx].bytes;
  for (size_t i = 0; i < elf.sections.size(); ++i) {
    Reader n(names);
    n.seek(nameOffsets[i]);
    elf.sections[i].name = n.cstring();
  }
  for (const Section &s : elf.sections) {
    if (s.type != kShtSymtab || s.link >= elf.sections.size())
      continue;
    std::string_view strtab = elf.sections[s.link].bytes;
    for (uint64_t at = 0; at + 24 <= s.size; at += 24) {
      Reader e(s.bytes, at);
      Symbol sym;
      uint32_t nameOffset = uint32_t(e.fixed(4));
      sym.type = uint8_t(e.fixed(1) & 0xf);
      e.fixed(1);
      sym.section = uint16_t(e.fixed(2));
      sym.value = e.fixed(8);
      sym.size = e.fixed(8);
      Reader n(strtab);
      n.seek(nameOffset);
      sym.name = n.cstring();
      elf.symbols.push_back(sym);
    }
    break;
  }
  return elf;
}

// Where a DW_LNE_set_address lands: a function and the offset in it.
struct Placement {
  std::string function;
  uint64_t sectionOffset = 0; // the relocated address
  uint64_t functionStart = 0;
};

class LineProgramReader {
public:
  LineProgramReader(const Elf &elf, const Section &debugLine,
                    std::map<std::string, std::vector<LineRow>> &out)
      : elf_(elf), section_(debugLine), out_(out) {
    // Relocations against .debug_line: offset of the operand -> symbol.
    for (size_t i = 0; i < elf.sections.size(); ++i) {
      const Section &s = elf.sections[i];
      if (s.type != kShtRela || s.info >= elf.sections.size() ||
          &elf.sections[s.info] != &debugLine)
        continue;
      for (uint64_t at = 0; at + 24 <= s.size; at += 24) {
        Reader e(s.bytes, at);
        uint64_t offset = e.fixed(8), info = e.fixed(8);
        int64_t addend = int64_t(e.fixed(8));
        relocations_[offset] = {uint32_t(info >> 32), addend};
      }
    }
  }

  bool readAll(std::string &error) {
    Reader r(section_.bytes);
    while (r.offset() < section_.bytes.size()) {
      if (!readUnit(r, error))
        return false;
    }
    return true;
  }

private:
  struct Relocation {
    uint32_t symbol = 0;
    int64_t addend = 0;
  };

  Placement place(uint64_t operandOffset, uint64_t stored) const {
    Placement p;
    p.sectionOffset = stored;
    uint16_t sectionIndex = 0;
    auto rel = relocations_.find(operandOffset);
    if (rel != relocations_.end() && rel->second.symbol < elf_.symbols.size()) {
      const Symbol &sym = elf_.symbols[rel->second.symbol];
      p.sectionOffset = sym.value + uint64_t(rel->second.addend);
      sectionIndex = sym.section;
      if (sym.type == kSttFunc) {
        p.function = sym.name;
        p.functionStart = sym.value;
        return p;
      }
      if (sym.type != kSttSection)
        return p;
    }
    // A section symbol: the function of that section holding the address.
    for (const Symbol &f : elf_.symbols)
      if (f.type == kSttFunc && f.section == sectionIndex &&
          f.value <= p.sectionOffset &&
          (p.sectionOffset < f.value + f.size || f.size == 0)) {
        p.function = f.name;
        p.functionStart = f.value;
        return p;
      }
    if (sectionIndex < elf_.sections.size()) {
      const std::string &name = elf_.sections[sectionIndex].name;
      if (name.rfind(".text.", 0) == 0)
        p.function = name.substr(6);
    }
    return p;
  }

  bool readUnit(Reader &r, std::string &error) {
    const size_t unitStart = r.offset();
    uint64_t length = r.fixed(4);
    size_t offsetBytes = 4;
    if (length == 0xffffffff) {
      length = r.fixed(8);
      offsetBytes = 8;
    }
    const size_t end = r.offset() + length;
    unsigned version = unsigned(r.fixed(2));
    uint64_t headerLength = r.fixed(offsetBytes);
    const size_t programStart = r.offset() + headerLength;
    if (r.failed() || end > section_.bytes.size() || programStart > end ||
        version < 2 || version > 4) {
      error = "unsupported or corrupt line table at .debug_line+" +
              std::to_string(unitStart) + " (DWARF version " +
              std::to_string(version) + ")";
      return false;
    }
    unsigned minInst = unsigned(r.fixed(1));
    if (version >= 4)
      r.fixed(1); // maximum_operations_per_instruction
    bool defaultIsStmt = r.fixed(1) != 0;
    (void)defaultIsStmt;
    int lineBase = int8_t(r.fixed(1));
    unsigned lineRange = unsigned(r.fixed(1));
    unsigned opcodeBase = unsigned(r.fixed(1));
    std::vector<unsigned> opcodeLengths;
    for (unsigned i = 1; i < opcodeBase; ++i)
      opcodeLengths.push_back(unsigned(r.fixed(1)));
    std::vector<std::string> dirs;
    for (std::string d = r.cstring(); !d.empty() && !r.failed();
         d = r.cstring())
      dirs.push_back(d);
    std::vector<std::string> files;
    for (std::string f = r.cstring(); !f.empty() && !r.failed();
         f = r.cstring()) {
      uint64_t dir = r.uleb();
      r.uleb(); // modification time
      r.uleb(); // length
      files.push_back(dir >= 1 && dir <= dirs.size() ? dirs[dir - 1] + "/" + f
                                                     : f);
    }
    if (r.failed() || lineRange == 0 || opcodeBase == 0) {
      error = "corrupt line table header at .debug_line+" +
              std::to_string(unitStart);
      return false;
    }
    r.seek(programStart);

    // The state machine of DWARF 2-4, section 6.2.
    uint64_t address = 0;
    uint64_t file = 1;
    int64_t line = 1;
    Placement placement;
    auto emit = [&] {
      if (placement.function.empty())
        return;
      LineRow row;
      row.address = uint32_t(address - placement.functionStart);
      row.where.file = file >= 1 && file <= files.size() ? files[file - 1] : "";
      row.where.line = line > 0 ? unsigned(line) : 0;
      out_[placement.function].push_back(row);
    };
    auto reset = [&] {
      address = 0;
      file = 1;
      line = 1;
      placement = {};
    };
    while (r.offset() < end && !r.failed()) {
      unsigned op = unsigned(r.fixed(1));
      if (op >= opcodeBase) {
        unsigned adjusted = op - opcodeBase;
        address += uint64_t(adjusted / lineRange) * minInst;
        line += lineBase + int(adjusted % lineRange);
        emit();
        continue;
      }
      switch (op) {
      case 0: { // extended
        uint64_t len = r.uleb();
        size_t next = r.offset() + len;
        if (len == 0 || next > end) {
          error = "corrupt extended opcode at .debug_line+" +
                  std::to_string(r.offset());
          return false;
        }
        unsigned sub = unsigned(r.fixed(1));
        if (sub == 1) { // DW_LNE_end_sequence
          reset();
        } else if (sub == 2) { // DW_LNE_set_address
          size_t operandAt = r.offset();
          uint64_t stored = r.fixed(std::min<size_t>(len - 1, 8));
          placement = place(operandAt, stored);
          address = placement.sectionOffset;
        }
        r.seek(next);
        break;
      }
      case 1: // DW_LNS_copy
        emit();
        break;
      case 2: // DW_LNS_advance_pc
        address += r.uleb() * minInst;
        break;
      case 3: // DW_LNS_advance_line
        line += r.sleb();
        break;
      case 4: // DW_LNS_set_file
        file = r.uleb();
        break;
      case 8: // DW_LNS_const_add_pc
        address += uint64_t((255 - opcodeBase) / lineRange) * minInst;
        break;
      case 9: // DW_LNS_fixed_advance_pc
        address += r.fixed(2);
        break;
      default: // column, stmt, basic block, prologue, isa, unknown: skip
        for (unsigned i = 0; i < opcodeLengths[op - 1]; ++i)
          r.uleb();
      }
    }
    if (r.failed()) {
      error =
          "truncated line program at .debug_line+" + std::to_string(unitStart);
      return false;
    }
    r.seek(end);
    return true;
  }

  const Elf &elf_;
  const Section &section_;
  std::map<std::string, std::vector<LineRow>> &out_;
  std::map<uint64_t, Relocation> relocations_;
};

} // namespace

std::optional<CubinLineTable> CubinLineTable::parse(std::string_view cubin,
                                                    std::string *error) {
  std::string why;
  std::optional<Elf> elf = readElf(cubin, why);
  if (!elf) {
    if (error)
      *error = why;
    return std::nullopt;
  }
  CubinLineTable table;
  for (const Section &s : elf->sections) {
    if (s.name != ".debug_line")
      continue;
    LineProgramReader reader(*elf, s, table.rows_);
    if (!reader.readAll(why)) {
      if (error)
        *error = why;
      return std::nullopt;
    }
  }
  return table;
}

std::vector<SourceLine> CubinLineTable::linesAt(const std::string &function,
                                                uint32_t pcOffset) const {
  std::vector<SourceLine> lines;
  auto it = rows_.find(function);
  if (it == rows_.end())
    return lines;
  // The rows at the PC, else those at the nearest address before it: an
  // instruction inherits every row of the address it follows.
  std::optional<uint32_t> at;
  for (const LineRow &row : it->second)
    if (row.address <= pcOffset && (!at || row.address > *at))
      at = row.address;
  if (!at)
    return lines;
  for (const LineRow &row : it->second)
    if (row.address == *at &&
        std::find(lines.begin(), lines.end(), row.where) == lines.end())
      lines.push_back(row.where);
  return lines;
}

} // namespace kcheck::runtime
