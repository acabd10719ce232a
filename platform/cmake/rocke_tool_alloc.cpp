// rocKE native tools' allocator: global operator new / delete for the short-lived emitter processes.
// Blocks up to kMaxSmall bytes come from per-thread free lists of kAlign-byte size classes, carved
// from kSlab-byte slabs that live until the process ends. Blocks up to kMaxMedium bytes (a kernel's
// texts and their growth) are rounded up to a power of two, taken from malloc once and then kept
// on per-thread free lists too; larger blocks go to malloc. A block's size class sits in a header
// before it, so unsized and sized deletes take the same path. A tool
// builds and frees thousands of small objects per kernel (operand vectors, strings, map nodes):
// this keeps each new/delete pair to a few instructions instead of glibc's bins and consolidation.
// Linked into the native tools only (never the SDK archive, the Python extensions or sanitized
// builds, whose runtimes must see every allocation).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
constexpr std::size_t kMaxSmall = 1024;
constexpr std::size_t kClasses = kMaxSmall / kAlign;
constexpr std::size_t kSlab = std::size_t{1} << 20;
// Medium classes: one per power of two from 2 * kMaxSmall to kMaxMedium, after the small ones.
constexpr int kFirstMediumShift = std::bit_width(kMaxSmall);  // 2 * kMaxSmall == 1 << this
constexpr int kLastMediumShift = 18;
constexpr std::size_t kMaxMedium = std::size_t{1} << kLastMediumShift;
constexpr std::size_t kAllClasses = kClasses + 1 + (kLastMediumShift - kFirstMediumShift + 1);

struct alignas(kAlign) Header {
  std::size_t size_class;  // 1..kClasses small, then the medium ones; 0: a large block from malloc
};

struct FreeBlock {
  FreeBlock* next;
};

struct Pools {
  FreeBlock* free[kAllClasses];
  char* next;
  char* end;
};

thread_local Pools pools{};  // zero-initialised: no constructor, no destructor, no guard

void* carve(Pools& p, std::size_t size_class) {
  const std::size_t total = sizeof(Header) + size_class * kAlign;
  if (static_cast<std::size_t>(p.end - p.next) < total) {
    char* slab = static_cast<char*>(std::malloc(kSlab));
    if (slab == nullptr) return nullptr;
    p.next = slab;
    p.end = slab + kSlab;
  }
  auto* header = reinterpret_cast<Header*>(p.next);
  p.next += total;
  header->size_class = size_class;
  return header + 1;
}

// A block of 2^shift bytes: from its free list, else from malloc, headed by its class.
void* take_medium(Pools& p, int shift) {
  const std::size_t size_class = kClasses + 1 + static_cast<std::size_t>(shift - kFirstMediumShift);
  if (FreeBlock* block = p.free[size_class]) {
    p.free[size_class] = block->next;
    return block;
  }
  auto* header = static_cast<Header*>(std::malloc(sizeof(Header) + (std::size_t{1} << shift)));
  if (header == nullptr) return nullptr;
  header->size_class = size_class;
  return header + 1;
}

void* allocate(std::size_t size) noexcept {
  if (size > kMaxSmall) {
    if (size <= kMaxMedium) return take_medium(pools, std::bit_width(size - 1));
    auto* header = static_cast<Header*>(std::malloc(sizeof(Header) + size));
    if (header == nullptr) return nullptr;
    header->size_class = 0;
    return header + 1;
  }
  const std::size_t size_class = size == 0 ? 1 : (size + kAlign - 1) / kAlign;
  Pools& p = pools;
  if (FreeBlock* block = p.free[size_class]) {
    p.free[size_class] = block->next;
    return block;
  }
  return carve(p, size_class);
}

void release(void* ptr) noexcept {
  if (ptr == nullptr) return;
  Header* header = static_cast<Header*>(ptr) - 1;
  if (header->size_class == 0) {
    std::free(header);
    return;
  }
  auto* block = static_cast<FreeBlock*>(ptr);
  Pools& p = pools;
  block->next = p.free[header->size_class];
  p.free[header->size_class] = block;
}

void* allocate_or_throw(std::size_t size) {
  void* ptr = allocate(size);
  if (ptr == nullptr) throw std::bad_alloc();
  return ptr;
}

}  // namespace

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void operator delete(void* ptr) noexcept { release(ptr); }
void operator delete[](void* ptr) noexcept { release(ptr); }
void operator delete(void* ptr, std::size_t) noexcept { release(ptr); }
void operator delete[](void* ptr, std::size_t) noexcept { release(ptr); }
void operator delete(void* ptr, const std::nothrow_t&) noexcept { release(ptr); }
void operator delete[](void* ptr, const std::nothrow_t&) noexcept { release(ptr); }
