// Python twin: hashlib.sha256(data).hexdigest()
#include "rocke/util/sha256.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ROCKE_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace rocke::util {

namespace {

using State = std::array<std::uint32_t, 8>;

alignas(16) constexpr std::array<std::uint32_t, 64> K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr State kInitial = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress_portable(State& h, const unsigned char* block) {
  std::array<std::uint32_t, 64> w{};
  for (int i = 0; i < 16; ++i) {
    w[i] = (std::uint32_t{block[4 * i]} << 24) | (std::uint32_t{block[4 * i + 1]} << 16) |
           (std::uint32_t{block[4 * i + 2]} << 8) | std::uint32_t{block[4 * i + 3]};
  }
  for (int i = 16; i < 64; ++i) {
    std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}

#ifdef ROCKE_SHA_NI
// The same compression with the SHA extensions: the state is held as (a, b, e, f) and (c, d, g, h),
// each sha256rnds2 does two rounds, and sha256msg1/msg2 extend the message four words at a time.
__attribute__((target("sha,sse4.1"))) void compress_sha_ni(State& h, const unsigned char* block) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  // Lanes are named from the highest: cdab holds c, d, a, b in lanes 3..0.
  __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[0])), 0xB1);
  __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[4])), 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  const __m128i abef_in = abef;
  const __m128i cdgh_in = cdgh;
  __m128i w[4];
  for (int group = 0; group < 16; ++group) {
    __m128i& words = w[group % 4];
    if (group < 4) {
      words = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * group)), byte_swap);
    } else {
      // W[t..t+3] from W[t-16..t-13], W[t-15..t-12], W[t-7..t-4] and W[t-4..t-1].
      const __m128i& prev = w[(group + 3) % 4];
      __m128i sum = _mm_add_epi32(_mm_sha256msg1_epu32(words, w[(group + 1) % 4]),
                                  _mm_alignr_epi8(prev, w[(group + 2) % 4], 4));
      words = _mm_sha256msg2_epu32(sum, prev);
    }
    __m128i wk = _mm_add_epi32(words, _mm_load_si128(reinterpret_cast<const __m128i*>(&K[4 * group])));
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
  }
  abef = _mm_add_epi32(abef, abef_in);
  cdgh = _mm_add_epi32(cdgh, cdgh_in);
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[0]), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[4]), _mm_alignr_epi8(dchg, feba, 8));
}

bool cpu_has_sha_ni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
  const bool ssse3 = (c & (1u << 9)) != 0, sse41 = (c & (1u << 19)) != 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return false;
  return ssse3 && sse41 && (b & (1u << 29)) != 0;
}
#endif

using Compress = void (*)(State&, const unsigned char*);

Compress chosen_compress() {
#ifdef ROCKE_SHA_NI
  static const Compress chosen = cpu_has_sha_ni() ? &compress_sha_ni : &compress_portable;
  return chosen;
#else
  return &compress_portable;
#endif
}

std::string digest_hex(std::string_view data, Compress compress) {
  State h = kInitial;
  // Whole blocks straight from data; the tail, a 1 bit, zeros up to 56 mod 64 bytes and the bit
  // length big-endian in one or two blocks of a local buffer.
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t whole = data.size() / 64 * 64;
  for (std::size_t offset = 0; offset < whole; offset += 64) compress(h, bytes + offset);
  unsigned char tail[128] = {};
  const std::size_t rest = data.size() - whole;
  if (rest != 0) std::memcpy(tail, bytes + whole, rest);
  tail[rest] = 0x80;
  const std::size_t tail_size = rest < 56 ? 64 : 128;
  const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8u;
  for (int i = 0; i < 8; ++i) tail[tail_size - 1 - i] = static_cast<unsigned char>((bits >> (8 * i)) & 0xffu);
  for (std::size_t offset = 0; offset < tail_size; offset += 64) compress(h, tail + offset);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(64, '0');
  std::size_t at = 0;
  for (std::uint32_t word : h) {
    for (int shift = 28; shift >= 0; shift -= 4) out[at++] = kHex[(word >> shift) & 0xfu];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) { return digest_hex(data, chosen_compress()); }

std::string sha256_hex_portable(std::string_view data) { return digest_hex(data, &compress_portable); }

bool sha256_uses_cpu_instructions() { return chosen_compress() != &compress_portable; }

}  // namespace rocke::util
