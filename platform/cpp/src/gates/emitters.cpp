// Python twin: rocke/gates/emitters.py (emit_python)
#include "rocke/gates/emitters.hpp"

#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

Emission emit_config(const families::Family& family, const families::ConfigLine& config,
                     const std::vector<std::string>& flavors) {
  Emission out;
  try {
    ir::KernelDef kernel = families::build_family(family, config.kv, config.arch);
    std::vector<std::pair<std::string, std::string>> ll;
    for (const std::string& flavor : flavors) ll.emplace_back(flavor, lower::lower(kernel, config.arch, flavor));
    out.ir = ir::print_kernel(kernel);
    out.ll = std::move(ll);
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
