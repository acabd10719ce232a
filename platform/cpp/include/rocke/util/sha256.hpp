// rocKE C++ engine: SHA-256 (FIPS 180-4) of a byte string, as lowercase hex.
// Python twin: hashlib.sha256(data).hexdigest()
#pragma once

#include <string>
#include <string_view>

namespace rocke::util {

// The 64 lowercase hex digits of the SHA-256 digest of data: with the CPU's SHA instructions
// where it has them (x86-64 SHA-NI, checked once), else portable code; both give the same digest.
std::string sha256_hex(std::string_view data);

// The portable code alone, and whether sha256_hex uses the SHA instructions (for the tests that
// compare the two paths).
std::string sha256_hex_portable(std::string_view data);
bool sha256_uses_cpu_instructions();

}  // namespace rocke::util
