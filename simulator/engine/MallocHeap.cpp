#include "simulator/engine/MallocHeap.h"

#include <iterator>

namespace kcheck::sim {

MallocHeap::MallocHeap(uint64_t base, uint64_t bytes)
    : base_(base), bytes_(bytes / kAlignment * kAlignment) {
  if (bytes_)
    free_[base_] = bytes_;
}

std::optional<uint64_t> MallocHeap::allocate(uint64_t bytes) {
  if (bytes == 0 || bytes > bytes_)
    return std::nullopt;
  uint64_t need =
      kHeaderBytes + (bytes + kAlignment - 1) / kAlignment * kAlignment;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need)
      continue;
    uint64_t addr = it->first, left = it->second - need;
    free_.erase(it);
    if (left)
      free_[addr + need] = left;
    used_[addr + kHeaderBytes] = need;
    return addr + kHeaderBytes;
  }
  return std::nullopt;
}

bool MallocHeap::release(uint64_t addr) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = used_.find(addr);
  if (it == used_.end())
    return false;
  uint64_t size = it->second;
  used_.erase(it);
  addr -= kHeaderBytes;
  // Coalesce with the free neighbours.
  auto next = free_.lower_bound(addr);
  if (next != free_.end() && addr + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == addr) {
      prev->second += size;
      return true;
    }
  }
  free_[addr] = size;
  return true;
}

uint64_t MallocHeap::usedBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t n = 0;
  for (const auto &[addr, size] : used_)
    n += size;
  return n;
}

} // namespace kcheck::sim
