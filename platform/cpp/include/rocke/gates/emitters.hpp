// rocKE C++ engine: one config (or one IR file) in, its emission out: the canonical IR and one
// .ll per flavor, or the refusal message.
// Python twin: rocke/gates/emitters.py (emit_python: build, print, lower per flavor; a refusal
// is the message of the ValueError that stopped it)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/families/configs.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/frames.hpp"

namespace rocke::gates {

struct Emission {
  std::string ir;                                       // print_kernel of the built kernel ("" in file mode)
  std::vector<std::pair<std::string, std::string>> ll;  // (flavor, .ll text), in the order asked
  std::optional<std::string> refusal;                   // set when the config is refused
};

// The canonical IR of family's kernel for spec kv on arch and its .ll per flavor, in one pass
// (the Python twin's build, print, lower per flavor): raises what that sequence raises, first
// error first (a ValueError is a refusal). The kernel is verified once, for arch, not in finish
// and again per flavor (and not again at all when the family's builder verified it for arch, an
// ir::VerifyOnce scope): verify(kernel) passes whenever verify(kernel, arch) does, and a kernel
// the arch check refuses is verified without the arch first, so the message is finish's when
// finish would have failed. Used by the native emitters and the bindings' emit_family.
struct Emitted {
  std::string ir;
  std::vector<std::pair<std::string, std::string>> ll;  // (flavor, .ll text), in the order asked
};
Emitted emit_family(const families::Family& family, std::string_view kv, std::string_view arch,
                    const std::vector<std::string>& flavors);

// Build config with family's builder and lower it for every flavor. Any rocke::ValueError (a spec
// refusal, a verifier or lowerer refusal) becomes the refusal; other exceptions propagate (a
// crash, which the caller reports).
Emission emit_config(const families::Family& family, const families::ConfigLine& config,
                     const std::vector<std::string>& flavors);

// Parse rocke.ir/1 text and lower it for arch under flavor; any rocke::ValueError (ParseError,
// VerifyError, LowerError, an unknown arch or flavor) becomes the refusal.
Emission emit_text(std::string_view text, std::string_view arch, std::string_view flavor);

// The records of one emission: "ir" then "ll:<flavor>" per flavor (file mode: only the .ll), or
// one "refusal".
void write_emission(FrameWriter& writer, std::int64_t index, const Emission& emission, bool with_ir);

}  // namespace rocke::gates
