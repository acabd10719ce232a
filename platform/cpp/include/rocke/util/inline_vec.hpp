// rocKE C++ engine: a vector of trivially copyable items whose first N live inside the object, so
// that a short list costs no heap block. An Op's operand and result lists are such lists: a kernel
// has thousands of ops with one to three of each, and two heap blocks per op were a large part of
// building and freeing a kernel.
// Python twin: none (a Python list).
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace rocke::util {

template <class T, std::size_t N>
class InlineVec {
  static_assert(std::is_trivially_copyable_v<T> && N > 0, "InlineVec holds trivially copyable items");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  InlineVec() noexcept = default;
  InlineVec(std::initializer_list<T> items) { assign(items.begin(), items.size()); }
  InlineVec(const std::vector<T>& items) { assign(items.data(), items.size()); }  // NOLINT: implicit by design
  InlineVec(const InlineVec& other) { assign(other.data_, other.size_); }
  InlineVec(InlineVec&& other) noexcept { take(other); }
  InlineVec& operator=(const InlineVec& other) {
    if (this != &other) {
      size_ = 0;
      assign(other.data_, other.size_);
    }
    return *this;
  }
  InlineVec& operator=(InlineVec&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~InlineVec() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& front() noexcept { return data_[0]; }
  const T& front() const noexcept { return data_[0]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }

  void reserve(std::size_t capacity) {
    if (capacity > capacity_) grow(capacity);
  }
  void push_back(const T& item) {
    if (size_ == capacity_) grow(capacity_ * 2);
    data_[size_++] = item;
  }
  void pop_back() noexcept { --size_; }
  void clear() noexcept { size_ = 0; }

  operator std::span<const T>() const noexcept { return {data_, size_}; }         // NOLINT
  std::vector<T> vec() const { return std::vector<T>(data_, data_ + size_); }

  friend bool operator==(const InlineVec& a, const InlineVec& b) {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0);
  }

 private:
  bool on_heap() const noexcept { return data_ != inline_; }

  void assign(const T* items, std::size_t count) {
    reserve(count);
    copy(data_, items, count);
    size_ = count;
  }

  // Up to N items by a loop of constant length, which the compiler unrolls: lists are a few items
  // long, and a library call (what a loop of variable length becomes) costs more than the copy.
  static void copy(T* to, const T* from, std::size_t count) noexcept {
    if (count > N) {
      std::memcpy(to, from, count * sizeof(T));
      return;
    }
    for (std::size_t i = 0; i < N; ++i) {
      if (i < count) to[i] = from[i];
    }
  }

  void grow(std::size_t capacity) {
    T* fresh = static_cast<T*>(::operator new(capacity * sizeof(T)));
    copy(fresh, data_, size_);
    release();
    data_ = fresh;
    capacity_ = capacity;
  }

  void release() noexcept {
    if (on_heap()) ::operator delete(static_cast<void*>(data_));
    data_ = inline_;
    capacity_ = N;
  }

  // Takes other's items; other is left empty (its inline buffer again).
  void take(InlineVec& other) noexcept {
    if (other.on_heap()) {
      data_ = other.data_;
      capacity_ = other.capacity_;
    } else {
      data_ = inline_;
      capacity_ = N;
      std::memcpy(inline_, other.inline_, sizeof inline_);  // constant size: a few moves
    }
    size_ = other.size_;
    other.data_ = other.inline_;
    other.capacity_ = N;
    other.size_ = 0;
  }

  T* data_ = inline_;
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
  T inline_[N];
};

}  // namespace rocke::util
