// Python twin: rocke/gates/emitters.py (emit_python)
#include "rocke/gates/emitters.hpp"

#include <optional>

#include "rocke/arch/flavors.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

namespace {

// The kernel finish() would return, unverified, and whether the caller must verify it (finish
// deferred exactly one verification). An error raised after finish deferred a verification, or
// a builder that finished several kernels, builds again with finish verifying, so what is raised
// is what the plain build raises (builders are pure: the same kv and arch give the same kernel or
// error); an error raised before finish is the plain build's error already.
std::pair<ir::KernelDef, bool> build_deferred(const families::Family& family, std::string_view kv,
                                              std::string_view arch) {
  std::optional<ir::KernelDef> kernel;
  std::int64_t deferred = 0;
  {
    ir::DeferFinishVerify scope;
    try {
      kernel.emplace(families::build_family(family, kv, arch));
    } catch (const std::exception&) {
      if (scope.deferred() == 0) throw;
    }
    deferred = scope.deferred();
  }
  if (!kernel.has_value() || deferred > 1) return {families::build_family(family, kv, arch), false};
  return {std::move(*kernel), deferred == 1};
}

}  // namespace

Emitted emit_family(const families::Family& family, std::string_view kv, std::string_view arch,
                    const std::vector<std::string>& flavors) {
  ir::VerifyOnce once;  // the builder's own verify(kernel, arch) makes the one below free
  auto [kernel, unverified] = build_deferred(family, kv, arch);
  Emitted out;
  if (!flavors.empty()) {
    const arch::ArchTarget* target = nullptr;
    try {
      arch::get_flavor(flavors[0]);  // lower() checks the flavor before the arch
      target = &arch::get_arch(arch);
      ir::verify(kernel, target);
    } catch (const std::exception&) {
      if (unverified) ir::verify(kernel);  // finish's error comes first, when there is one
      throw;
    }
    for (const std::string& flavor : flavors) {
      out.ll.emplace_back(flavor, lower::lower_verified(kernel, *target, flavor));
    }
  } else if (unverified) {
    ir::verify(kernel);
  }
  out.ir = ir::print_kernel(kernel);
  return out;
}

Emission emit_config(const families::Family& family, const families::ConfigLine& config,
                     const std::vector<std::string>& flavors) {
  Emission out;
  try {
    Emitted emitted = emit_family(family, config.kv, config.arch, flavors);
    out.ir = std::move(emitted.ir);
    out.ll = std::move(emitted.ll);
  } catch (const ValueError& exc) {
    out = Emission{};
    out.refusal = exc.what();
  }
  return out;
}

Emission emit_text(std::string_view text, std::string_view arch, std::string_view flavor) {
  Emission out;
  try {
    ir::KernelDef kernel = ir::parse_kernel(text);
    out.ll.emplace_back(std::string(flavor), lower::lower(kernel, arch, flavor));
  } catch (const ValueError& exc) {
    out = Emission{};
    out.refusal = exc.what();
  }
  return out;
}

void write_emission(FrameWriter& writer, std::int64_t index, const Emission& emission, bool with_ir) {
  if (emission.refusal.has_value()) {
    writer.record(index, "refusal", *emission.refusal);
    return;
  }
  if (with_ir) writer.record(index, "ir", emission.ir);
  for (const auto& [flavor, text] : emission.ll) writer.record(index, util::cat("ll:", flavor), text);
}

}  // namespace rocke::gates
