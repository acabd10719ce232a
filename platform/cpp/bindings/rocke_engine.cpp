// rocke_engine: the Python bridge to the C++ engine (librocke_core.a).
// Python twins: rocke.ir (parse_kernel, print_kernel, canonicalize, verify), rocke.arch
// (get_arch, MMA_OPS, eval_layout_expr), rocke.lower (lower), the family builders (build_family)
// and the data files both engines read.
//
// Only text crosses this boundary (IR, .ll, spec strings), never live C++ objects. Exceptions
// become their Python twins through the translator both rocKE modules share
// (rocke/bindings/exceptions.hpp): ParseError, VerifyError, LowerError, SpecError, the arch
// errors, the rest the matching built-in exception.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "rocke/arch/errors.hpp"
#include "rocke/arch/flavors.hpp"
#include "rocke/arch/layout_expr.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/bindings/exceptions.hpp"
#include "rocke/engine/bindings.hpp"
#include "rocke/engine/emit_family.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/families/launch.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/ir/canonical.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/lower/dispatch.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke/util/strings.hpp"
#include "rocke/version.hpp"

namespace py = pybind11;

namespace {

using rocke::engine::arch_arg;
using rocke::engine::py_text;
using rocke::engine::set_error;
using rocke::engine::str_arg;

// ------------------------------------------------------------------ text in
// IR text as bytes: str is encoded as UTF-8 (lone surrogates kept), so every non-ASCII
// character starts with a byte >= 0x80 at the position the character has in the str, which is
// where both engines refuse it. bytes pass through, as Python's parser reads them as latin-1.
// An ASCII str (whose characters are its UTF-8 bytes) and a bytes object are viewed in place,
// not copied: both are immutable, and the caller's argument keeps them alive for the whole call
// (the view is read with the GIL released). Subclasses and other inputs take the copying path.
class TextBytes {
 public:
  TextBytes(const py::object& text, const char* who) {
    PyObject* obj = text.ptr();
    if (PyBytes_CheckExact(obj)) {
      view_ = std::string_view(PyBytes_AS_STRING(obj), static_cast<std::size_t>(PyBytes_GET_SIZE(obj)));
      return;
    }
    if (PyUnicode_CheckExact(obj) && PyUnicode_IS_READY(obj) && PyUnicode_IS_COMPACT_ASCII(obj)) {
      view_ = std::string_view(static_cast<const char*>(PyUnicode_DATA(obj)),
                               static_cast<std::size_t>(PyUnicode_GET_LENGTH(obj)));
      return;
    }
    if (py::isinstance<py::bytes>(text)) {
      owned_ = text.cast<std::string>();
    } else if (PyByteArray_Check(obj)) {
      owned_ = py::bytes(text).cast<std::string>();
    } else if (py::isinstance<py::str>(text)) {
      owned_ = text.attr("encode")("utf-8", "surrogatepass").cast<std::string>();
    } else {
      throw rocke::TypeError(std::string(who) + ": expected str or bytes, got " +
                             py::str(py::type::of(text).attr("__name__")).cast<std::string>());
    }
    view_ = owned_;
  }
  TextBytes(const TextBytes&) = delete;
  TextBytes& operator=(const TextBytes&) = delete;

  std::string_view view() const { return view_; }

 private:
  std::string owned_;
  std::string_view view_;
};

// ------------------------------------------------------------------ tables out
py::dict attr_def_dict(const rocke::ir::AttrDef& adef) {
  py::dict d;
  d["name"] = adef.name;
  d["type"] = adef.kind;
  if (adef.default_value.has_value()) {
    const rocke::ir::AttrValue& v = *adef.default_value;
    if (v.is_bool()) d["default"] = v.b;
    else if (v.is_int()) d["default"] = v.i;
    else if (v.is_float()) d["default"] = v.f;
    else d["default"] = v.s;
  }
  if (adef.min.has_value()) d["min"] = *adef.min;
  if (adef.max.has_value()) d["max"] = *adef.max;
  if (adef.zero_or_pow2) d["zero_or_pow2"] = true;
  if (adef.enum_values.has_value()) d["enum"] = py::cast(*adef.enum_values);
  return d;
}

py::list slot_list(const std::vector<rocke::ir::OperandDef>& slots) {
  py::list out;
  for (const auto& slot : slots) {
    py::dict d;
    d["name"] = slot.name;
    d["type"] = slot.constraint.text();
    if (slot.variadic) d["variadic"] = true;
    out.append(d);
  }
  return out;
}

// Each op as the row ops.toml holds (optional keys only when they carry information).
py::list op_table() {
  py::list out;
  for (const rocke::ir::OpDef& op : rocke::ir::ops()) {
    py::dict d;
    d["name"] = op.name;
    d["builder"] = op.builder;
    d["summary"] = op.summary;
    d["operands"] = slot_list(op.operands);
    d["results"] = slot_list(op.results);
    py::list attrs;
    for (const auto& adef : op.attrs) attrs.append(attr_def_dict(adef));
    d["attrs"] = attrs;
    d["type_rule"] = op.type_rule;
    d["pure"] = op.pure;
    d["convergent"] = op.convergent;
    d["feature"] = op.feature;
    d["arch_rule"] = op.arch_rule;
    d["checks"] = py::cast(op.checks);
    d["placement"] = op.placement;
    py::list regions;
    for (const auto& reg : op.regions) {
      py::dict r;
      r["name"] = reg.name;
      r["args"] = reg.args;
      r["terminator"] = reg.terminator;
      regions.append(r);
    }
    d["regions"] = regions;
    out.append(d);
  }
  return out;
}

// One arch's facts in [[fact]] order, with Python's value types (tuples for lists).
py::dict arch_facts(const py::object& name) {
  const rocke::arch::ArchTarget& a = rocke::arch::get_arch(arch_arg(name));
  py::dict d;
  for (const auto& [fact, source] : rocke::arch::fact_sources()) {
    if (fact == "name") d[fact.c_str()] = a.name;
    else if (fact == "generation") d[fact.c_str()] = a.generation;
    else if (fact == "llvm_cpu") d[fact.c_str()] = a.llvm_cpu;
    else if (fact == "target") d[fact.c_str()] = a.target;
    else if (fact == "wave_size") d[fact.c_str()] = a.wave_size;
    else if (fact == "max_workgroup_size") d[fact.c_str()] = a.max_workgroup_size;
    else if (fact == "lds_bytes") d[fact.c_str()] = a.lds_bytes;
    else if (fact == "lds_bytes_per_cu") d[fact.c_str()] = a.lds_bytes_per_cu;
    else if (fact == "lds_reserved_bytes") d[fact.c_str()] = a.lds_reserved_bytes;
    else if (fact == "compute_unit") d[fact.c_str()] = a.compute_unit;
    else if (fact == "simds_per_cu") d[fact.c_str()] = a.simds_per_cu;
    else if (fact == "max_waves_per_simd") d[fact.c_str()] = a.max_waves_per_simd;
    else if (fact == "max_workgroups_per_cu") d[fact.c_str()] = a.max_workgroups_per_cu;
    else if (fact == "cu_count") d[fact.c_str()] = a.cu_count;
    else if (fact == "arch_vgprs_per_wave") d[fact.c_str()] = a.arch_vgprs_per_wave;
    else if (fact == "agprs_per_wave") d[fact.c_str()] = a.agprs_per_wave;
    else if (fact == "unified_vgpr_file") d[fact.c_str()] = a.unified_vgpr_file;
    else if (fact == "accum_offset_granule") d[fact.c_str()] = a.accum_offset_granule;
    else if (fact == "vgpr_file_per_simd") d[fact.c_str()] = a.vgpr_file_per_simd;
    else if (fact == "vgpr_alloc_granule") d[fact.c_str()] = a.vgpr_alloc_granule;
    else if (fact == "sgprs_per_wave") d[fact.c_str()] = a.sgprs_per_wave;
    else if (fact == "sgpr_count_max") d[fact.c_str()] = a.sgpr_count_max;
    else if (fact == "sgpr_occupancy") {
      py::list steps;
      for (const auto& [max_sgprs, waves] : a.sgpr_occupancy) steps.append(py::make_tuple(max_sgprs, waves));
      d[fact.c_str()] = py::tuple(steps);
    } else if (fact == "mma_kind") d[fact.c_str()] = a.mma_kind;
    else if (fact == "buffer_rsrc_word3") d[fact.c_str()] = a.buffer_rsrc_word3;
    else if (fact == "waitcnt_model") d[fact.c_str()] = a.waitcnt_model;
    else if (fact == "waitcnt_counters") {
      py::list counters;
      for (const auto& [counter, max] : a.waitcnt_counters) counters.append(py::make_tuple(counter, max));
      d[fact.c_str()] = py::tuple(counters);
    } else if (fact == "features") d[fact.c_str()] = py::tuple(py::cast(a.features));
  }
  return d;
}

py::dict operand_dict(const rocke::arch::MmaOperand& o) {
  py::dict d;
  d["name"] = o.name;
  d["dtype"] = o.dtype;
  d["length"] = o.length;
  d["llvm_elem"] = o.llvm_elem;
  d["replication"] = o.replication;
  d["row"] = o.row;
  d["col"] = o.col;
  d["rows"] = o.rows;
  d["cols"] = o.cols;
  d["ir_type_text"] = o.ir_type_text();
  d["llvm_type"] = o.llvm_type();
  return d;
}

// Every MMA op in catalog order, with MmaOp's fields.
py::list mma_catalog() {
  py::list out;
  for (const rocke::arch::MmaOp& op : rocke::arch::mma_catalog()) {
    py::dict d;
    d["id"] = op.id;
    d["kind"] = op.kind;
    d["archs"] = py::tuple(py::cast(op.archs));
    d["wave_size"] = op.wave_size;
    d["m"] = op.m;
    d["n"] = op.n;
    d["k"] = op.k;
    d["intrinsic"] = op.intrinsic;
    d["mnemonic"] = op.mnemonic;
    py::list imms;
    for (const auto& imm : op.imm_operands) imms.append(py::make_tuple(imm.name, imm.type, imm.value));
    d["imm_operands"] = py::tuple(imms);
    d["source"] = op.source;
    d["layout_source"] = op.layout_source;
    d["a"] = operand_dict(op.a);
    d["b"] = operand_dict(op.b);
    d["c"] = operand_dict(op.c);
    auto [ret, args] = op.llvm_call_types();
    d["llvm_call_types"] = py::make_tuple(ret, py::tuple(py::cast(args)));
    out.append(d);
  }
  return out;
}

// A lane or slot for the layout evaluator. Python accepts exactly int (not bool) within 32 bits;
// anything else becomes an out-of-range value, which the evaluator refuses, after parsing the
// formula, with the message Python gives.
std::int64_t layout_int(const py::handle& value) {
  if (Py_TYPE(value.ptr()) != &PyLong_Type) return std::numeric_limits<std::int64_t>::max();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow > 0) return std::numeric_limits<std::int64_t>::max();
  if (overflow < 0) return std::numeric_limits<std::int64_t>::min();
  return v;
}

// An arch or flavor argument as Python's rocke.lower.lower sees it: a str is its UTF-8 text; any
// other object is reported the way get_flavor / get_arch report a non-string.
std::optional<std::string> name_arg(const py::object& value) { return rocke::engine::str_text(value); }

// rocke.lower.lower(parse_kernel(text), arch=arch, flavor=flavor): flavor checked first, then the
// arch, then the verifier and the lowerer.
std::string lower_text(const py::object& text, const py::object& arch, const py::object& flavor) {
  TextBytes bytes(text, "parse_kernel");
  std::optional<std::string> flavor_name = name_arg(flavor);
  std::optional<std::string> arch_name = name_arg(arch);
  std::string flavor_type = py::str(py::type::of(flavor).attr("__name__")).cast<std::string>();
  py::gil_scoped_release release;
  rocke::ir::KernelDef kernel = rocke::ir::parse_kernel(bytes.view());
  if (!flavor_name.has_value()) {
    throw rocke::ValueError("unknown flavor '" + flavor_type + "'; known flavors: " +
                            rocke::util::join(rocke::arch::flavor_names(), ", "));
  }
  rocke::arch::get_flavor(*flavor_name);
  if (!arch_name.has_value()) {
    throw rocke::arch::UnknownArchError("unknown arch of a non-string name; known: " +
                                        rocke::util::join(rocke::arch::arch_names(), ", "));
  }
  return rocke::lower::lower(kernel, *arch_name, *flavor_name);
}

}  // namespace

PYBIND11_MODULE(rocke_engine, m) {
  m.doc() = "rocKE C++ engine";
  // Local: translators are process-global in pybind11, and the other rocKE extension module must not
  // intercept (and re-type) this module's exceptions.
  py::register_local_exception_translator(&rocke::bindings::translate_exception);

  m.def("version", &rocke::version, "Engine version (equals rocke.__version__).");
  m.def("build_id", &rocke::build_id, "Compiler and build type of the engine.");

  m.def("op_count", [] { return rocke::ir::ops().size(); }, "Number of ops in the generated op table.");
  m.def("op_table", &op_table, "Every op as the row of ops.toml it was generated from.");
  m.def("arch_facts", &arch_facts, py::arg("name"), "The facts of one arch, in [[fact]] order.");
  m.def("arch_names", [] { return py::tuple(py::cast(rocke::arch::arch_names())); }, "Arch names in file order.");
  m.def("mma_catalog", &mma_catalog, "Every MMA op of the catalog, in catalog order.");
  m.def(
      "has_feature",
      [](const py::object& arch, const py::object& feature) {
        const rocke::arch::ArchTarget& target = rocke::arch::get_arch(arch_arg(arch));
        return target.has_feature(rocke::engine::name_arg(feature));
      },
      py::arg("arch"), py::arg("feature"), "ArchTarget.has_feature of the named arch.");
  m.def(
      "mma_signature",
      [](const py::object& arch, const py::object& op_id) -> std::optional<py::tuple> {
        const rocke::arch::ArchTarget& target = rocke::arch::get_arch(arch_arg(arch));
        auto signature = target.mma_signature(rocke::engine::name_arg(op_id));
        if (!signature.has_value()) return std::nullopt;
        return py::make_tuple((*signature)[0].text(), (*signature)[1].text(), (*signature)[2].text());
      },
      py::arg("arch"), py::arg("op_id"), "ArchTarget.mma_signature of the named arch, as type texts.");
  m.def(
      "eval_layout_expr",
      [](const py::object& source, const py::object& lane, const py::object& slot) {
        if (!py::isinstance<py::str>(source)) throw rocke::arch::LayoutExprError("bad layout expression: not a string");
        return rocke::arch::eval_layout_expr(str_arg(source, "eval_layout_expr"), layout_int(lane), layout_int(slot));
      },
      py::arg("source"), py::arg("lane"), py::arg("slot"), "Parse and evaluate a layout formula.");

  m.def(
      "parse_type",
      [](const py::object& text) { return rocke::ir::parse_type(str_arg(text, "parse_type")).text(); },
      py::arg("text"),
      "Parse a type's text form and print it back.");
  m.def(
      "parse_print",
      [](const py::object& text) {
        TextBytes bytes(text, "parse_kernel");
        py::gil_scoped_release release;
        return rocke::ir::print_kernel(rocke::ir::parse_kernel(bytes.view()));
      },
      py::arg("text"), "Parse rocke.ir/1 text and print it (ParseError on bad text).");
  m.def(
      "canonicalize",
      [](const py::object& text) {
        TextBytes bytes(text, "parse_kernel");
        py::gil_scoped_release release;
        return rocke::ir::print_kernel(rocke::ir::canonicalize(rocke::ir::parse_kernel(bytes.view())));
      },
      py::arg("text"), "Parse rocke.ir/1 text and print it with canonical ids.");
  m.def(
      "verify",
      [](const py::object& text, const py::object& arch) {
        TextBytes bytes(text, "parse_kernel");
        std::optional<std::string> arch_name = rocke::engine::str_text(arch);
        if (!arch.is_none() && !arch_name.has_value()) {
          throw rocke::TypeError("verify: arch must be an arch name or an ArchTarget, got " +
                                 rocke::engine::type_name(arch));
        }
        py::gil_scoped_release release;
        const rocke::arch::ArchTarget* target = arch_name.has_value() ? &rocke::arch::get_arch(*arch_name) : nullptr;
        rocke::ir::verify(rocke::ir::parse_kernel(bytes.view()), target);
      },
      py::arg("text"), py::arg("arch") = py::none(),
      "Parse rocke.ir/1 text and verify it, for an arch when one is named (resolved first).");
  m.def(
      "sample_texts",
      [] {
        py::list out;
        for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
          out.append(py::make_tuple(name, rocke::ir::print_kernel(kernel)));
        }
        return out;
      },
      "(name, text) of every sample kernel built by the C++ Builder twins of rocke.ir.samples.");

  m.def("lower", &lower_text, py::arg("ir_text"), py::arg("arch"), py::arg("flavor"),
        "Parse rocke.ir/1 text, verify it for arch and lower it to the .ll text of flavor (rocke.lower.lower).");
  m.def(
      "_declare",
      [](const std::string& arch, const std::string& flavor, const std::string& intrinsic, const std::string& elem,
         std::int64_t lanes) {
        const std::unordered_map<std::int64_t, std::int64_t> no_lds;
        rocke::lower::FunctionEmitter em(rocke::arch::get_arch(arch), rocke::arch::get_flavor(flavor), no_lds,
                                            &rocke::lower::lower_op);
        return em.declare(rocke::arch::intrinsic_def(intrinsic), elem, lanes).text();
      },
      py::arg("arch"), py::arg("flavor"), py::arg("intrinsic"), py::arg("elem") = "", py::arg("lanes") = 0,
      "Test hook: FunctionEmitter.declare of a fresh emitter (the declaration text, or its LowerError).");
  m.def("flavor_names", [] { return py::tuple(py::cast(rocke::arch::flavor_names())); },
        "Flavor names in flavors.toml order.");
  m.def(
      "build_family",
      [](const py::object& name, const py::object& kv, const py::object& arch) {
        std::string name_text = rocke::engine::name_arg(name);
        std::optional<std::string> kv_text = rocke::engine::str_text(kv);
        if (!kv_text.has_value() && rocke::families::registry().find(name_text) != nullptr) {
          throw rocke::TypeError(name_text + ": from_kv: expected str, got " + rocke::engine::type_name(kv));
        }
        std::string arch_text = arch_arg(arch);
        py::gil_scoped_release release;
        return rocke::ir::print_kernel(rocke::families::registry().build(name_text, kv_text.value_or(""), arch_text));
      },
      py::arg("name"), py::arg("kv"), py::arg("arch"),
      "The rocke.ir/1 text of family name's C++ builder for spec kv on arch; ValueError with the refusal text, "
      "KeyError for an unknown family.");
  m.def(
      "emit_family",
      [](const py::object& name, const py::object& kv, const py::object& arch, const std::vector<std::string>& flavors) {
        return rocke::engine::emit_family(rocke::families::registry(), name, kv, arch, flavors);
      },
      py::arg("name"), py::arg("kv"), py::arg("arch"), py::arg("flavors"),
      "(ir, {flavor: ll}) of family name's C++ builder for spec kv on arch, built, verified and lowered in one "
      "call (no rocke.ir/1 text in between): what build_family then lower per flavor return, and the same errors.");
  m.def(
      "_profile_family",
      [](const std::string& name, const std::string& kv, const std::string& arch, const std::string& flavor,
         int repeat) { return rocke::engine::profile_family(rocke::families::registry(), name, kv, arch, flavor, repeat); },
      py::arg("name"), py::arg("kv"), py::arg("arch"), py::arg("flavor"), py::arg("repeat") = 5,
      "Bench hook: median thread-CPU seconds of build, verify, lower, print and parse of one config, and its op count.");
  m.def("_profile_text", &rocke::engine::profile_text, py::arg("text"), py::arg("arch"), py::arg("flavor"),
        py::arg("repeat") = 5,
        "Bench hook: median thread-CPU seconds of parse, verify and lower of rocke.ir/1 text, and its op count.");
  m.def(
      "launch_contract",
      [](const std::string& family, const std::string& kv, const std::map<std::string, std::int64_t>& problem) {
        rocke::families::ProblemSizes sizes(problem.begin(), problem.end());
        py::gil_scoped_release release;
        return rocke::families::platform_launch_contract(family, kv, sizes).to_json();
      },
      py::arg("family"), py::arg("kv"), py::arg("problem"),
      "A platform family's launch contract for spec kv and a problem (name -> int) as rocke.launch/1 JSON: "
      "SpecError, LaunchError as the Python contract raises them.");
  m.def("family_names", [] { return py::tuple(py::cast(rocke::families::registry().names())); },
        "Families with a C++ builder in this module, sorted.");
  m.def(
      "refusal_listing",
      [](const std::string& name) {
        const rocke::families::Family& family = rocke::families::registry().get(name);
        if (family.refusals == nullptr) return std::vector<std::array<std::string, 3>>{};
        return rocke::families::table_listing(*family.refusals);
      },
      py::arg("name"),
      "(arch, digest, refusal message) of every row of the family's compiled resource-refusal table.");
  m.def(
      "refusal_message",
      [](const std::string& family, const std::string& arch, const std::string& digest, const std::string& kv,
         const std::vector<std::tuple<std::string, std::string, std::vector<std::int64_t>>>& measured) {
        std::vector<rocke::families::Measured> parts;
        for (const auto& [flavor, reason, figures] : measured) {
          rocke::families::Measured m{flavor, reason, {}};
          if (figures.size() != m.figures.size()) throw rocke::ValueError("refusal_message: wrong figure count");
          std::copy(figures.begin(), figures.end(), m.figures.begin());
          parts.push_back(m);
        }
        return rocke::families::refusal_message(family, rocke::families::RefusalRow{arch, digest, kv, parts});
      },
      py::arg("family"), py::arg("arch"), py::arg("digest"), py::arg("kv"), py::arg("measured"),
      "Test hook: refusal_message of a row given as (flavor, reason, figures) parts.");
}
