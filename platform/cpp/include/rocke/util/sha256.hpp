// rocKE C++ engine: SHA-256 (FIPS 180-4) of a byte string, as lowercase hex.
// Python twin: hashlib.sha256(data).hexdigest()
#pragma once

#include <string>
#include <string_view>

namespace rocke::util {

// The 64 lowercase hex digits of the SHA-256 digest of data.
std::string sha256_hex(std::string_view data);

}  // namespace rocke::util
