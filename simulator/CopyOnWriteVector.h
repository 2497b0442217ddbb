// A vector the copies of a value share until one of them changes it. A
// launch that repeats an earlier one (RepeatedLaunches.h) has that launch's
// per-instruction statistics: a benchmark that launches a kernel 30000 times
// keeps one copy of them, not 30000 (each is a few hundred bytes per
// instruction of the kernel).
//
// Reads through a const reference never copy; a non-const operator[] or
// resize() makes this value's own copy first when another shares it, so a
// reference it returns is valid until this value is copied.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace kcheck::sim {

template <class T> class CopyOnWriteVector {
public:
  size_t size() const { return items_ ? items_->size() : 0; }
  bool empty() const { return size() == 0; }
  const T &operator[](size_t i) const { return (*items_)[i]; }
  T &operator[](size_t i) { return own()[i]; }
  typename std::vector<T>::const_iterator begin() const {
    return items_ ? items_->cbegin() : none().cbegin();
  }
  typename std::vector<T>::const_iterator end() const {
    return items_ ? items_->cend() : none().cend();
  }
  void resize(size_t n) { own().resize(n); }
  /// Whether `other` shares this one's items (for tests).
  bool sharesWith(const CopyOnWriteVector &other) const {
    return items_ && items_ == other.items_;
  }

private:
  std::vector<T> &own() {
    if (!items_)
      items_ = std::make_shared<std::vector<T>>();
    else if (items_.use_count() > 1)
      items_ = std::make_shared<std::vector<T>>(*items_);
    return *items_;
  }
  static const std::vector<T> &none() {
    static const std::vector<T> empty;
    return empty;
  }
  std::shared_ptr<std::vector<T>> items_;
};

} // namespace kcheck::sim
