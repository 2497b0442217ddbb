#include "simulator/engine/DeviceMemory.h"

#include "simulator/engine/MallocHeap.h"

#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace kcheck::sim {

namespace {

// Calls f(word, bits) for each 64-bit word of a per-byte bitmap that bytes
// [off, off + n) touch, `bits` selecting those bytes in the word.
template <class F> inline void forBitWords(uint64_t off, uint64_t n, F f) {
  for (uint64_t end = off + n; off < end;) {
    uint64_t word = off / 64, lo = off % 64,
             span = std::min(end - off, 64 - lo);
    f(word, (span == 64 ? ~0ull : ((1ull << span) - 1)) << lo);
    off += span;
  }
}

} // namespace

struct DeviceMemory::Page {
  uint8_t data[kPageBytes] = {};
  uint64_t written[kPageBytes / 64] = {}; // one bit per byte
  uint64_t tainted[kPageBytes / 64] = {};
  // One of the shared all-zero pages (zeroPage()): read-only, never freed;
  // a store to it backs a copy first.
  bool shared = false;
};

void DeviceMemory::PageDeleter::operator()(Page *p) const {
  if (!p->shared)
    delete p;
}

// A page of zeros, every byte written, input-derived or not: what a launch
// that writes a buffer with zeros (computed, or from data kcheck did not see)
// leaves behind. compact() points such pages here.
DeviceMemory::Page *DeviceMemory::zeroPage(bool tainted) {
  auto make = [](bool t) {
    auto *p = new Page;
    std::fill(std::begin(p->written), std::end(p->written), ~0ull);
    std::fill(std::begin(p->tainted), std::end(p->tainted), t ? ~0ull : 0);
    p->shared = true;
    return p;
  };
  static Page *const pages[2] = {make(false), make(true)};
  return pages[tainted ? 1 : 0];
}

DeviceMemory::Page *DeviceMemory::ownCopy(PagePtr &slot) {
  auto *page = new Page(*slot);
  page->shared = false;
  slot.reset(page);
  ++pagesEpoch_;
  backedBytes_ += kPageBytes;
  return page;
}

// Pages of one allocation in two levels, the second made on first touch:
// a huge allocation costs nothing until it is used.
struct DeviceMemory::Backing {
  static constexpr uint64_t kChunkPages = 512;
  using Chunk = std::array<PagePtr, kChunkPages>;
  std::vector<std::unique_ptr<Chunk>> chunks;
  // A module variable's pages not yet backed hold its zero initializer
  // (written, not input-derived), so a large zero array costs nothing.
  bool unbackedIsWrittenZero = false;
  // The access log: kRead/kWritten since beginAccessLog(). Loads may run on
  // several threads, hence atomic; set only when not yet set (no contention).
  static constexpr uint8_t kRead = 1, kWritten = 2;
  std::atomic<uint8_t> accessed{0};
  uint64_t lastChange = 0; // DeviceMemory::changeClock_ then
  // A host-backed allocation's bytes (no pages), or null.
  uint8_t *host = nullptr;

  void note(uint8_t bit) {
    if (!(accessed.load(std::memory_order_relaxed) & bit))
      accessed.fetch_or(bit, std::memory_order_relaxed);
  }

  Page *get(uint64_t page) const {
    const auto &chunk = chunks[page / kChunkPages];
    return chunk ? (*chunk)[page % kChunkPages].get() : nullptr;
  }
  PagePtr &slot(uint64_t page) {
    auto &chunk = chunks[page / kChunkPages];
    if (!chunk)
      chunk = std::make_unique<Chunk>();
    return (*chunk)[page % kChunkPages];
  }
};

DeviceMemory::DeviceMemory() : next_(kGlobalHeapBase) {}
DeviceMemory::~DeviceMemory() = default;

void DeviceMemory::addAllocation(Allocation a,
                                 std::unique_ptr<Backing> backing) {
  backing->lastChange = ++changeClock_;
  auto at = std::upper_bound(
      byBase_.begin(), byBase_.end(), a.base,
      [&](uint64_t base, int i) { return base < allocs_[size_t(i)].base; });
  byBase_.insert(at, int(allocs_.size()));
  ++pagesEpoch_;
  allocs_.push_back(std::move(a));
  backing_.push_back(std::move(backing));
}

uint64_t DeviceMemory::allocate(uint64_t bytes, std::string label) {
  uint64_t base = next_;
  auto backing = std::make_unique<Backing>();
  uint64_t pages = (bytes + kPageBytes - 1) / kPageBytes;
  backing->chunks.resize((pages + Backing::kChunkPages - 1) /
                         Backing::kChunkPages);
  addAllocation({base, bytes, std::move(label)}, std::move(backing));
  // Leave an unmapped gap so small overruns land outside every allocation.
  next_ = (base + bytes + kGapBytes + kAlignment - 1) & ~(kAlignment - 1);
  return base;
}

bool DeviceMemory::setMallocHeapBytes(uint64_t bytes) {
  if (mallocHeap_)
    return false;
  mallocHeapBytes_ = bytes;
  return true;
}

MallocHeap &DeviceMemory::mallocHeap() {
  if (!mallocHeap_) {
    uint64_t base = allocate(mallocHeapBytes_, "device malloc heap");
    mallocHeap_ = std::make_unique<MallocHeap>(base, mallocHeapBytes_);
  }
  return *mallocHeap_;
}

uint64_t DeviceMemory::allocateHostBacked(void *host, uint64_t bytes,
                                          std::string label) {
  auto backing = std::make_unique<Backing>();
  backing->host = static_cast<uint8_t *>(host);
  uint64_t base = reinterpret_cast<uint64_t>(host);
  addAllocation({base, bytes, std::move(label)}, std::move(backing));
  return base;
}

uint64_t DeviceMemory::allocateSymbol(const std::string &name, uint64_t bytes,
                                      const std::vector<uint8_t> &init) {
  if (auto existing = symbolAddress(name))
    return *existing;
  uint64_t base = allocate(bytes ? bytes : 1, name);
  // Module variables are initialized (zero when no initializer), so they
  // count as written: reading them is not input-dependent.
  backing_.back()->unbackedIsWrittenZero = true;
  uint64_t initBytes = std::min<uint64_t>(init.size(), bytes);
  while (initBytes && init[initBytes - 1] == 0)
    --initBytes;
  if (initBytes)
    storeBytes(base, init.data(), initBytes, false, true);
  symbols_.emplace_back(name, base);
  return base;
}

bool DeviceMemory::releaseHostBacked(uint64_t base) {
  for (auto it = byBase_.begin(); it != byBase_.end(); ++it)
    if (allocs_[size_t(*it)].base == base && backing_[size_t(*it)]->host) {
      byBase_.erase(it);
      lastIndex_.store(-1, std::memory_order_relaxed);
      ++pagesEpoch_;
      return true;
    }
  return false;
}

bool DeviceMemory::hostBacked(uint64_t addr) const {
  const Allocation *a = find(addr, 1);
  return a && backing_[size_t(a - allocs_.data())]->host;
}

void DeviceMemory::bindSymbol(const std::string &name, uint64_t base) {
  symbols_.emplace_back(name, base);
}

std::optional<uint64_t>
DeviceMemory::symbolAddress(const std::string &name) const {
  for (const auto &[n, base] : symbols_)
    if (n == name)
      return base;
  return std::nullopt;
}

int DeviceMemory::indexOf(uint64_t addr) const {
  // Consecutive lanes and instructions mostly hit the allocation hit last.
  int last = lastIndex_.load(std::memory_order_relaxed);
  if (last >= 0 &&
      addr - allocs_[size_t(last)].base < allocs_[size_t(last)].size)
    return last;
  auto it = std::upper_bound(
      byBase_.begin(), byBase_.end(), addr,
      [&](uint64_t a, int i) { return a < allocs_[size_t(i)].base; });
  if (it == byBase_.begin())
    return -1;
  last = *--it;
  lastIndex_.store(last, std::memory_order_relaxed);
  return last;
}

const DeviceMemory::Allocation *DeviceMemory::find(uint64_t addr,
                                                   uint64_t n) const {
  int i = indexOf(addr);
  if (i < 0)
    return nullptr;
  const Allocation &a = allocs_[i];
  if (addr - a.base >= a.size || n > a.size - (addr - a.base))
    return nullptr;
  return &a;
}

bool DeviceMemory::withinHeap(uint64_t addr, uint64_t n) const {
  return addr >= kGlobalHeapBase && addr < next_ && n <= next_ - addr;
}

DeviceMemory::Page *DeviceMemory::pageFor(uint64_t addr, bool fromHost) {
  int i = indexOf(addr);
  auto &slot = backing_[i]->slot((addr - allocs_[i].base) / kPageBytes);
  if (slot && !slot->shared)
    return slot.get();
  // Past the limit, once compact() cannot make room, a kernel's stores land
  // in one spill page (the launch is stopped by its driver, which checks
  // overLimit()); the host's copies are the program's own data and always
  // kept.
  if (!fromHost && backedBytes_ + kPageBytes > limitBytes_ && !compact()) {
    overLimit_ = true;
    if (!spill_)
      spill_ = std::make_unique<Page>();
    return spill_.get();
  }
  if (slot)
    return ownCopy(slot);
  slot.reset(new Page);
  ++pagesEpoch_;
  if (backing_[i]->unbackedIsWrittenZero)
    std::fill(std::begin(slot->written), std::end(slot->written), ~0ull);
  backedBytes_ += kPageBytes;
  return slot.get();
}

bool DeviceMemory::compact() {
  if (compactionFutile_)
    return false;
  auto allZero = [](const uint64_t *w) {
    return std::all_of(w, w + kPageBytes / 64, [](uint64_t x) { return !x; });
  };
  auto allOnes = [](const uint64_t *w) {
    return std::all_of(w, w + kPageBytes / 64,
                       [](uint64_t x) { return x == ~0ull; });
  };
  for (auto &backing : backing_)
    for (auto &chunk : backing->chunks) {
      if (!chunk)
        continue;
      for (PagePtr &page : *chunk) {
        if (!page || page->shared || !allOnes(page->written) ||
            std::any_of(std::begin(page->data), std::end(page->data),
                        [](uint8_t b) { return b != 0; }))
          continue;
        bool tainted = allOnes(page->tainted);
        if (!tainted && !allZero(page->tainted))
          continue;
        page.reset(zeroPage(tainted));
        backedBytes_ -= kPageBytes;
        ++pagesEpoch_;
      }
    }
  // A pass that leaves most of the limit in use would be repeated page after
  // page: give up on it for good and let the limit stop the launch.
  if (backedBytes_ > limitBytes_ / 4 * 3)
    compactionFutile_ = true;
  return backedBytes_ + kPageBytes <= limitBytes_;
}

bool DeviceMemory::load(uint64_t addr, void *dst, uint64_t n) const {
  // Page by page (pages start at the allocation's base), each through a
  // cursor that then covers it.
  auto *out = static_cast<uint8_t *>(dst);
  const uint64_t base = allocs_[size_t(indexOf(addr))].base;
  ReadCursor cursor;
  bool tainted = false;
  while (n) {
    uint64_t chunk = std::min(n, kPageBytes - (addr - base) % kPageBytes);
    tainted |= load(addr, out, chunk, cursor);
    addr += chunk, out += chunk, n -= chunk;
  }
  return tainted;
}

bool DeviceMemory::load(uint64_t addr, void *dst, uint64_t n,
                        ReadCursor &c) const {
  if (c.epoch != pagesEpoch_ || addr < c.lo || addr >= c.hi ||
      n > c.hi - addr) {
    // Note the page of addr (its allocation's bytes, for host-backed ones).
    const int i = indexOf(addr);
    const Allocation &a = allocs_[size_t(i)];
    Backing &backing = *backing_[size_t(i)];
    backing.note(Backing::kRead);
    c.epoch = pagesEpoch_;
    if (uint8_t *host = backing.host) {
      c.lo = a.base, c.hi = a.base + a.size;
      c.bytes = host, c.written = c.tainted = nullptr;
    } else {
      uint64_t page = (addr - a.base) / kPageBytes;
      c.lo = a.base + page * kPageBytes;
      c.hi = std::min(c.lo + kPageBytes, a.base + a.size);
      const Page *p = backing.get(page);
      c.bytes = p ? p->data : nullptr;
      c.written = p ? p->written : nullptr;
      c.tainted = p ? p->tainted : nullptr;
      c.unbackedTainted = !backing.unbackedIsWrittenZero;
    }
    if (n > c.hi - addr) { // across pages: the long way
      c.hi = 0;
      return load(addr, dst, n);
    }
  }
  const uint64_t off = addr - c.lo;
  if (!c.bytes) {
    std::memset(dst, 0, n);
    return c.unbackedTainted;
  }
  std::memcpy(dst, c.bytes + off, n);
  if (!c.written)
    return false; // host-backed: the program's own bytes
  bool tainted = false;
  forBitWords(off, n, [&](uint64_t word, uint64_t bits) {
    tainted |= ((~c.written[word] | c.tainted[word]) & bits) != 0;
  });
  return tainted;
}

void DeviceMemory::store(uint64_t addr, const void *src, uint64_t n,
                         bool tainted) {
  storeBytes(addr, src, n, tainted, false);
}

void DeviceMemory::storeBytes(uint64_t addr, const void *src, uint64_t n,
                              bool tainted, bool fromHost) {
  auto *in = static_cast<const uint8_t *>(src);
  int index = indexOf(addr);
  uint64_t base = allocs_[index].base;
  if (!fromHost)
    backing_[index]->note(Backing::kWritten);
  if (uint8_t *host = backing_[index]->host) {
    std::memcpy(host + (addr - base), in, n);
    if (fromHost)
      backing_[index]->lastChange = ++changeClock_;
    return;
  }
  // A host copy of the bytes a page already holds, written and not
  // input-derived, changes nothing: the allocation keeps its change clock, so
  // a launch repeated after a program copies the same input again (a graph
  // whose first node uploads it) is still seen as one on unchanged input.
  bool changed = !fromHost;
  while (n) {
    uint64_t off = (addr - base) % kPageBytes;
    uint64_t chunk = std::min(n, kPageBytes - off);
    if (fromHost && !changed &&
        holdsWritten(backing_[index]->get((addr - base) / kPageBytes), off, in,
                     chunk)) {
      addr += chunk, in += chunk, n -= chunk;
      continue;
    }
    changed = true;
    Page *p = pageFor(addr, fromHost);
    std::memcpy(p->data + off, in, chunk);
    forBitWords(off, chunk, [&](uint64_t word, uint64_t bits) {
      p->written[word] |= bits;
      p->tainted[word] =
          tainted ? p->tainted[word] | bits : p->tainted[word] & ~bits;
    });
    addr += chunk, in += chunk, n -= chunk;
  }
  if (fromHost && changed)
    backing_[index]->lastChange = ++changeClock_;
}

bool DeviceMemory::holdsWritten(const Page *p, uint64_t off, const uint8_t *in,
                                uint64_t n) {
  if (!p || std::memcmp(p->data + off, in, n) != 0)
    return false;
  bool all = true;
  forBitWords(off, n, [&](uint64_t word, uint64_t bits) {
    all &= (p->written[word] & bits) == bits && !(p->tainted[word] & bits);
  });
  return all;
}

void DeviceMemory::markTainted(uint64_t addr, uint64_t n) {
  uint64_t end = addr + n < addr ? ~0ull : addr + n;
  for (size_t i = 0; i < allocs_.size(); ++i) {
    const Allocation &a = allocs_[i];
    uint64_t lo = std::max(addr, a.base), hi = std::min(end, a.base + a.size);
    if (lo < hi)
      backing_[i]->note(Backing::kWritten);
    if (backing_[i]->host)
      continue; // the program's own bytes: never input-derived
    for (uint64_t at = lo; at < hi;) {
      uint64_t page = (at - a.base) / kPageBytes;
      uint64_t pageEnd = std::min(hi, a.base + (page + 1) * kPageBytes);
      uint64_t from = at - a.base - page * kPageBytes,
               to = pageEnd - a.base - page * kPageBytes;
      Page *p = backing_[i]->get(page);
      if (p && p->shared && p != zeroPage(true)) {
        // The written-zero page: all of it becomes the input-derived one, a
        // part of it a page of its own.
        PagePtr &slot = backing_[i]->slot(page);
        if (from == 0 && to == kPageBytes) {
          slot.reset(zeroPage(true));
          ++pagesEpoch_;
          p = nullptr;
        } else {
          p = ownCopy(slot);
        }
      }
      if (p && !p->shared)
        for (uint64_t b = from; b < to; ++b)
          p->tainted[b / 64] |= p->written[b / 64] & (1ull << (b % 64));
      at = pageEnd;
    }
  }
}

bool DeviceMemory::write(uint64_t addr, const void *src, uint64_t n) {
  if (n == 0)
    return true;
  if (!find(addr, n))
    return false;
  storeBytes(addr, src, n, false, true);
  return true;
}

bool DeviceMemory::read(uint64_t addr, void *dst, uint64_t n) const {
  if (n == 0)
    return true;
  if (!find(addr, n))
    return false;
  load(addr, dst, n);
  return true;
}

void DeviceMemory::beginAccessLog() {
  ++pagesEpoch_; // readers note their reads again
  for (auto &b : backing_)
    b->accessed.store(0, std::memory_order_relaxed);
}

DeviceMemory::AccessLog DeviceMemory::endAccessLog() {
  AccessLog log;
  for (size_t i = 0; i < backing_.size(); ++i) {
    uint8_t a = backing_[i]->accessed.load(std::memory_order_relaxed);
    if (a & Backing::kRead)
      log.read.push_back(int(i));
    if (a & Backing::kWritten) {
      log.written.push_back(int(i));
      backing_[i]->lastChange = ++changeClock_;
    }
  }
  return log;
}

uint64_t DeviceMemory::lastChange(int index) const {
  // Host code writes host-backed bytes without telling: they may have
  // changed at any time.
  if (backing_[size_t(index)]->host)
    return ~0ull;
  return backing_[size_t(index)]->lastChange;
}

// An allocation's pages by index: a private copy of each backed page (the
// shared zero pages by pointer: they never change), none for one not backed.
class DeviceMemory::Image {
public:
  std::vector<std::pair<uint64_t, PagePtr>> pages; // by page index, ascending
};

namespace {

// A page's contents as loads see them: its bytes and bitmaps (not whether
// it is shared).
bool samePage(const uint8_t *aData, const uint64_t *aWritten,
              const uint64_t *aTainted, const uint8_t *bData,
              const uint64_t *bWritten, const uint64_t *bTainted,
              uint64_t pageBytes) {
  return std::memcmp(aData, bData, pageBytes) == 0 &&
         std::memcmp(aWritten, bWritten, pageBytes / 8) == 0 &&
         std::memcmp(aTainted, bTainted, pageBytes / 8) == 0;
}

} // namespace

std::shared_ptr<const DeviceMemory::Image>
DeviceMemory::image(int index) const {
  const Backing &b = *backing_[size_t(index)];
  if (b.host)
    return nullptr;
  auto image = std::make_shared<Image>();
  for (size_t c = 0; c < b.chunks.size(); ++c) {
    if (!b.chunks[c])
      continue;
    for (size_t i = 0; i < Backing::kChunkPages; ++i)
      if (const Page *p = (*b.chunks[c])[i].get())
        image->pages.emplace_back(
            c * Backing::kChunkPages + i,
            PagePtr(p->shared ? const_cast<Page *>(p) : new Page(*p)));
  }
  return image;
}

uint64_t DeviceMemory::imageBytes(const Image &image) {
  uint64_t bytes = 0;
  for (const auto &[index, page] : image.pages)
    bytes += page->shared ? 0 : kPageBytes;
  return bytes;
}

uint64_t DeviceMemory::backedBytesOf(int index) const {
  const Backing &b = *backing_[size_t(index)];
  uint64_t bytes = 0;
  for (const auto &chunk : b.chunks)
    if (chunk)
      for (const PagePtr &p : *chunk)
        bytes += p && !p->shared ? kPageBytes : 0;
  return bytes;
}

bool DeviceMemory::holds(int index, const Image &image) const {
  const Backing &b = *backing_[size_t(index)];
  if (b.host)
    return false;
  // A page not backed reads as zeros, written where a module variable's
  // initializer stands, never marked input-derived.
  static const Page unbacked[2] = {Page{}, [] {
                                     Page p;
                                     std::fill(std::begin(p.written),
                                               std::end(p.written), ~0ull);
                                     return p;
                                   }()};
  const Page &none = unbacked[b.unbackedIsWrittenZero ? 1 : 0];
  auto same = [](const Page &x, const Page &y) {
    return samePage(x.data, x.written, x.tainted, y.data, y.written, y.tainted,
                    kPageBytes);
  };
  auto next = image.pages.begin();
  uint64_t pages = uint64_t(b.chunks.size()) * Backing::kChunkPages;
  for (uint64_t page = 0; page < pages; ++page) {
    const Page *now = b.get(page);
    const Page *then = nullptr;
    if (next != image.pages.end() && next->first == page)
      then = (next++)->second.get();
    if (!now && !then)
      continue;
    if (!same(now ? *now : none, then ? *then : none))
      return false;
  }
  return true;
}

void DeviceMemory::restore(int index, const Image &image) {
  Backing &b = *backing_[size_t(index)];
  backedBytes_ -= backedBytesOf(index);
  for (auto &chunk : b.chunks)
    chunk.reset();
  for (const auto &[page, p] : image.pages)
    b.slot(page).reset(p->shared ? p.get() : new Page(*p));
  backedBytes_ += imageBytes(image);
  ++pagesEpoch_;
  b.lastChange = ++changeClock_;
}

} // namespace kcheck::sim
