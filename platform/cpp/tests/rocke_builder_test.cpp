// ctest: the C++ Builder (result types, hints, constants, errors) and one verifier failure per rule.
// Python twins: platform/tests/test_ir_builder.py, platform/tests/test_ir_verifier.py (same
// kernels, same messages).
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/ir/typecheck.hpp"
#include "rocke/ir/verifier.hpp"

using namespace rocke::ir;  // NOLINT: test brevity
using rocke_test::check;
using rocke_test::check_eq;
using rocke_test::check_throws;

namespace {

struct Fixture {
  Builder b{"k"};
  Value* x = b.param("x", ptr(f32, "global"), {.noalias = true});
  Value* n = b.param("n", i32);
};

void result_types() {
  Fixture f;
  Builder& b = f.b;
  Value* h = b.const_(1.5, f16);
  check(b.add(h, h)->type == f16, "add keeps the operand type");
  check(b.cmpf("olt", h, h)->type == i1, "cmpf gives i1");
  check(b.extf(h, f32)->type == f32, "extf result");
  check(b.load(f.x, f.n)->type == f32, "scalar load");
  check(b.load(f.x, f.n, {.lanes = 4})->type == vec(f32, 4), "vector load");
  check(b.splat(h, 8)->type == vec(f16, 8), "splat");
  check(b.extract(b.splat(h, 8), 7)->type == f16, "extract");
  check(b.make_rsrc(f.x, f.n)->type == rsrc, "make_rsrc");
  check(b.lds_alloc(vec(f16, 4), 64)->type == ptr(vec(f16, 4), "lds"), "lds_alloc");
  Value* zero = b.const_(0.0, f32);
  check(b.mma("any_id", b.splat(h, 4), b.splat(h, 4), b.splat(zero, 4))->type == vec(f32, 4), "mma");
  Value* tid = b.thread_id_x("tid");
  check(tid->name == Hint("tid"), "name hint kept");
  check_throws<rocke::ValueError>([&] { b.add(tid, f.n, "a b"); },
                                  "invalid name hint 'a b': use letters, digits, '_' and '.' (not first a digit)",
                                  "bad hint");
}

void constants() {
  Builder b("c");
  b.const_(true, i1);
  b.const_(-1, i1);
  b.const_(0.1, f16);
  b.const_(1e9, f16);
  b.const_(0.1, bf16);
  b.const_(3, f32);
  b.const_(0xFFFFFFFFu, i32);
  b.const_(0xFFFFFFFFFFFFFFFFull, i64);
  KernelDef k = b.finish();
  std::string text = rocke::ir::print_kernel(k);
  for (const char* want :
       {"{value = 1 : i1}", "{value = 0x3FB9980000000000 : f16}", "{value = 0x7FF0000000000000 : f16}",
        "{value = 0x3FB9A00000000000 : bf16}", "{value = 0x4008000000000000 : f32}", "{value = -1 : i32}",
        "{value = -1 : i64}"}) {
    check(text.find(want) != std::string::npos, std::string("constant ") + want);
  }
  Builder d("d");
  check_throws<rocke::ValueError>([&] { d.const_(256, i8); }, "arith.constant: value 256 does not fit in i8",
                                  "const range");
  check_throws<rocke::TypeError>([&] { d.const_(1.5, i32); },
                                 "arith.constant: i32 constant needs an int value, got float", "const float for int");
  check_throws<rocke::TypeError>([&] { d.const_(1, vec(i32, 2)); },
                                 "arith.constant: type must be an int or float scalar type, got vec<i32x2>",
                                 "const vector type");
}

void helper_errors() {
  using Emit = std::function<void(Fixture&)>;
  struct Case {
    Emit emit;
    bool type_error;
    std::string message;
  };
  const Case cases[] = {
      {[](Fixture& f) { f.b.add(f.n, f.b.const_(1.0, f32)); }, true,
       "arith.add: operand #1 'rhs' has type f32, expected i32 (the type of operand #0 'lhs')"},
      {[](Fixture& f) { f.b.divf(f.n, f.n); }, true,
       "arith.divf: operand #0 'lhs' has type i32, expected float|vec_float"},
      {[](Fixture& f) { f.b.load(f.b.lds_alloc(f32, 4), f.n); }, true,
       "mem.load: operand #0 'ptr' has type ptr<f32, lds>, expected ptr_global|ptr_constant"},
      {[](Fixture& f) { f.b.store(f.x, f.n, f.b.const_(1, i32)); }, true,
       "mem.store: operand #2 'value' has type i32, expected the pointee f32 of operand #0 or a vector of it"},
      {[](Fixture& f) { f.b.extf(f.b.const_(1.0, f32), f16); }, true,
       "arith.extf: cannot cast f32 to f16: the result element must be wider (type rule cast_wider)"},
      {[](Fixture& f) { f.b.bitcast(f.n, f16); }, true,
       "vec.bitcast: result type f16 has 16 bits but operand type i32 has 32 (type rule cast_same_bits)"},
      {[](Fixture& f) { f.b.cmpi("lt", f.n, f.n); }, false,
       "arith.cmpi: attribute 'pred' = 'lt' is not one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge"},
      {[](Fixture& f) { f.b.load(f.x, f.n, {.lanes = 100}); }, false,
       "mem.load: attribute 'lanes' = 100 is out of range 1..64"},
      {[](Fixture& f) { f.b.extract(f.b.splat(f.n, 4), 4); }, false,
       "vec.extract: attribute 'index' = 4 is out of range for vec<i32x4>"},
      {[](Fixture& f) { f.b.add(f.n, nullptr); }, true, "arith.add: operand #1 must be a Value, got NoneType"},
      {[](Fixture& f) { f.b.emit("scf.yield", {f.n}); }, false,
       "scf.yield: use for_ / if_ (regions and their yields come from callbacks)"},
      {[](Fixture& f) { f.b.emit("arith.add", {f.n, f.n}, {{"bogus", AttrValue::integer(1)}}); }, false,
       "arith.add: unknown attribute 'bogus'"},
      {[](Fixture& f) { f.b.emit("arith.nope", {f.n}); }, false, "unknown op 'arith.nope'"},
      {[](Fixture& f) { f.b.emit("arith.add", {f.n}); }, true, "arith.add: takes 2 operands, got 1"},
      {[](Fixture& f) { f.b.for_(f.n, f.b.const_(0, i64), f.n, {}, [](Value*) {}); }, true,
       "scf.for: operand #1 'ub' has type i64, expected i32 (the type of operand #0 'lb')"},
      {[](Fixture& f) {
         Value* zero = f.b.const_(0, i32);
         f.b.for_(zero, f.n, f.n, {f.b.const_(0.0, f32)}, [](Value* i, Value*) { return i; });
       },
       true, "scf.for: body yields (i32) but the iter values have types (f32)"},
      {[](Fixture& f) {
         f.b.if_(f.b.cmpi("eq", f.n, f.n), [&] { return f.b.const_(1.0, f32); });
       },
       true, "scf.if: then yields (f32) but else yields ()"},
      {[](Fixture& f) { f.b.if_(f.n, [] {}); }, true,
       "scf.if: operand #0 'cond' has type i32, expected i1"},
  };
  for (const Case& c : cases) {
    Fixture f;
    if (c.type_error) {
      check_throws<rocke::TypeError>([&] { c.emit(f); }, c.message, c.message);
    } else {
      check_throws<rocke::ValueError>([&] { c.emit(f); }, c.message, c.message);
    }
  }
  {
    Fixture f;  // params must come first: an op has been built
    f.b.thread_id_x();
    check_throws<rocke::ValueError>([&] { f.b.param("late", i32); },
                                    "param 'late': params must be declared before the first op", "late param");
  }
  Builder p("p");
  check_throws<rocke::TypeError>(
      [&] { p.param("flag", i1); },
      "param 'flag': type i1 is not allowed; allowed: i8|i16|i32|i64|f16|bf16|f32|ptr_global|ptr_constant",
      "param type");
  check_throws<rocke::ValueError>([&] { p.param("n", i32, {.noalias = true}); },
                                  "param 'n': attribute 'noalias' applies only to pointer params",
                                  "scalar param attrs");
  check_throws<rocke::ValueError>([&] { p.param("q", ptr(f32, "global"), {.align = 12}); },
                                  "param 'q': attribute 'align' = 12 must be 0 or a power of two", "param align");
  check_throws<rocke::ValueError>([] { Builder bad("a.b"); },
                                  "invalid kernel name 'a.b': use letters, digits and '_' (not first a digit)",
                                  "kernel name");
  check_throws<rocke::ValueError>([] { Builder big("k", {.max_workgroup_size = 2048}); },
                                  "kernel @k: attribute 'max_workgroup_size' = 2048 is out of range 1..1024",
                                  "kernel attr");
  Fixture g;
  check_throws<rocke::ValueError>(
      [&] { g.b.if_(g.b.cmpi("eq", g.n, g.n), [&] { g.b.lds_alloc(f32, 4); }); },
      "mem.lds_alloc: only allowed directly in the kernel body", "lds_alloc placement");
  Fixture d;
  Value* cond = d.b.cmpi("eq", d.n, d.n);
  std::function<void(int)> nest = [&](int level) {
    if (level > 0) d.b.if_(cond, [&] { nest(level - 1); });
  };
  check_throws<rocke::ValueError>([&] { nest(64); }, "scf.if: region nesting deeper than 64", "nesting depth");
  Fixture done;
  done.b.finish();
  check_throws<rocke::ValueError>([&] { done.b.thread_id_x(); }, "builder of kernel @k is finished", "finished");
}

void control_flow() {
  Fixture f;
  Builder& b = f.b;
  Value* zero = b.const_(0, i32);
  Value* one = b.const_(1, i32);
  Values out = b.for_(
      zero, f.n, one, {b.const_(0.0, f32), zero},
      [&](Value* i, Value* acc, Value* cnt) { return Values{b.add(acc, b.sitofp(i, f32)), b.add(cnt, one)}; },
      {.names = Names{"acc", "cnt"}, .iv_name = "i"});
  b.store(f.x, out[1], out[0]);
  std::string text = rocke::ir::print_kernel(b.finish());
  check(text.find("scf.for %2, %1, %3, %4, %2 body(%7 \"i\" : i32, %8 \"acc\" : f32, %9 \"cnt\" : i32) {") !=
            std::string::npos,
        "for header");
  check(text.find("%5 \"acc\" : f32, %6 \"cnt\" : i32 = scf.for") != std::string::npos, "for results");
  Fixture g;
  Values both = g.b.for_(g.b.const_(0, i64), g.b.const_(4, i64), g.b.const_(1, i64), {g.n},
                         [&](Value*, const Values& iters) { return iters; });
  check(both.size() == 1 && both[0]->type == i32, "generic body form");
}

// ------------------------------------------------------------------ verifier rules
struct FakeArch : ArchLike {
  FakeArch(std::string name_, std::vector<std::string> features_, std::map<std::string, std::array<Type, 3>> mma_)
      : name(std::move(name_)), features(std::move(features_)), mma(std::move(mma_)) {}
  std::string name;
  std::vector<std::string> features;
  std::map<std::string, std::array<Type, 3>> mma;
  const std::string& arch_name() const override { return name; }
  bool has_feature(std::string_view feature) const override {
    for (const auto& f : features) {
      if (f == feature) return true;
    }
    return false;
  }
  std::optional<std::array<Type, 3>> mma_signature(std::string_view op_id) const override {
    auto it = mma.find(std::string(op_id));
    if (it == mma.end()) return std::nullopt;
    return it->second;
  }
};

// x: ptr<f32, global>, n: i32; a thread id, an if with a result, a load and a store.
KernelDef small_kernel() {
  Builder b("k");
  Value* x = b.param("x", ptr(f32, "global"));
  Value* n = b.param("n", i32);
  Value* tid = b.thread_id_x("tid");
  Value* cond = b.cmpi("slt", tid, n);
  Value* v = b.if_(
      cond, [&] { return b.load(x, tid); }, [&] { return b.const_(0.0, f32); }, {.names = Names{"v"}})[0];
  b.store(x, tid, v);
  return b.finish();
}

void fails(const KernelDef& kernel, const std::string& message, const ArchLike* arch = nullptr) {
  check_throws<rocke::VerifyError>([&] { verify(kernel, arch); }, message, message);
}

void verifier_rules() {
  {
    KernelDef k = small_kernel();
    k.name = "has space";
    fails(k, "[kernel] kernel: invalid kernel name");
  }
  {
    KernelDef k = small_kernel();
    k.attrs["max_workgroup_size"] = AttrValue::integer(0);
    fails(k, "[attr] kernel @k: attribute 'max_workgroup_size' = 0 is out of range 1..1024");
  }
  {
    KernelDef k = small_kernel();
    k.params[0].attrs["restrict"] = AttrValue::boolean(true);
    fails(k, "[attr] param #0 %0: unknown attribute 'restrict'");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[2]->regions[0]->ops[0]->attrs["lanes"] = AttrValue::integer(0);
    fails(k, "[attr] mem.load %5 at body[2].then[0]: attribute 'lanes' = 0 is out of range 1..64");
  }
  {
    KernelDef k = small_kernel();
    k.params[0].attrs["readonly"] = AttrValue::boolean(true);
    k.params[0].attrs["writeonly"] = AttrValue::boolean(true);
    fails(k, "[param] param #0 %0: readonly and writeonly exclude each other");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[0]->results[0]->name = "bad name";
    fails(k, "[name] gpu.thread_id_x %2 at body[0]: result #0 %2 has an invalid name hint");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[0]->opcode = "gpu.thread_idx";
    fails(k, "[opcode] gpu.thread_idx %2 at body[0]: unknown op");
  }
  {
    KernelDef k = small_kernel();
    std::swap(k.body->ops[0], k.body->ops[1]);
    fails(k, "[dominance] arith.cmpi %3 at body[0]: operand #0 %2 is not defined before this op");
  }
  {
    KernelDef k = small_kernel();
    Value* inner = k.body->ops[2]->regions[0]->ops[0]->results[0];
    k.body->ops[3]->operands = {k.params[0].value, k.body->ops[0]->results[0], inner};
    fails(k, "[dominance] mem.store at body[3]: operand #2 %5 is not visible here");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[1]->results[0]->id = 2;
    fails(k, "[ssa] arith.cmpi %2 at body[1]: value id %2 is defined twice");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[1]->operands.pop_back();
    fails(k, "[arity] arith.cmpi %3 at body[1]: takes 2 operands, got 1");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[1]->results[0]->type = i32;
    fails(k, "[type] arith.cmpi %3 at body[1]: result #0 has type i32, expected i1 (type rule cmp_i1)");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[2]->regions.pop_back();
    fails(k, "[region] scf.if %4 at body[2]: has 1 regions, expected 2");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[2]->regions[1]->ops.pop_back();
    fails(k, "[region] scf.if %4 at body[2]: region 'else' must end with scf.yield");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops[2]->regions[1]->ops.back()->operands.clear();
    fails(k, "[yield] scf.if %4 at body[2]: region 'else' yields (), expected (f32)");
  }
  {
    KernelDef k = small_kernel();
    k.body->ops.insert(k.body->ops.begin() + 1, k.arena().op("scf.yield"));
    fails(k, "[placement] scf.yield at body[1]: must be the last op of a region it terminates");
  }
  KernelDef mfma = samples::gemm_mfma();
  FakeArch gfx942("gfx942", {}, {{samples::kMfmaOpId, {vec(f16, 4), vec(f16, 4), vec(f32, 4)}}});
  verify(mfma, &gfx942);
  FakeArch wrong("gfx942", {}, {{samples::kMfmaOpId, {vec(f16, 8), vec(f16, 8), vec(f32, 4)}}});
  fails(mfma,
        "[arch] mma.mma %23 at body[9].body[7]: op_id 'mfma_f32_16x16x16_f16' on gfx942 takes (a, b, c) = "
        "(vec<f16x8>, vec<f16x8>, vec<f32x4>), got (vec<f16x4>, vec<f16x4>, vec<f32x4>)",
        &wrong);
  fails(mfma, "[arch] mma.mma %23 at body[9].body[7]: op_id 'mfma_f32_16x16x16_f16' is not available on gfx1100",
        &rocke::arch::get_arch("gfx1100"));
  verify(mfma, &rocke::arch::get_arch("gfx950"));
  KernelDef reduce = samples::block_reduce();
  FakeArch no_atomics("gfx_test", {"ds_bpermute", "ds_swizzle"}, {});
  check_throws<rocke::VerifyError>(
      [&] { verify(reduce, &no_atomics); },
      "[arch] mem.atomic_add_f32 at body[29].then[8]: needs feature 'global_atomic_fadd_f32', which gfx_test does "
      "not have",
      "feature rule");
}

}  // namespace

// check_op remembers passed checks (typecheck.cpp's per-thread table): a check that differs from a
// passed one only in an attribute value, an attribute name, a given result type or an operand
// type must still be made, and fail as it would on its own.
void remembered_checks() {
  using Types = std::vector<Type>;
  const OpDef& cmpi = get_op("arith.cmpi");
  const OpDef& constant = get_op("arith.constant");
  const OpDef& add = get_op("arith.add");
  for (int round = 0; round < 2; ++round) {  // the second round finds every passed check remembered
    check(check_op(cmpi, {i32, i32}, {{"pred", AttrValue::string("slt")}}, std::nullopt) == Types{i1}, "cmpi passes");
    check_throws<OpCheckError>(
        [&] { check_op(cmpi, {i32, i32}, {{"pred", AttrValue::string("bogus")}}, std::nullopt); },
        "[attr] attribute 'pred' = 'bogus' is not one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge",
        "another attribute value");
    check(check_op(constant, {}, {{"value", AttrValue::integer(127)}}, Types{i8}) == Types{i8}, "127 fits in i8");
    // Every i8 value passes, then no value outside i8 may find a passed check's slot and pass.
    for (std::int64_t value = -128; value <= 127; ++value) {
      check(check_op(constant, {}, {{"value", AttrValue::integer(value)}}, Types{i8}) == Types{i8}, "fits in i8");
    }
    for (std::int64_t value : {std::int64_t{128}, std::int64_t{-129}}) {
      for (std::int64_t step = 0; step < 256; ++step) {
        std::int64_t bad = value < 0 ? value - step : value + step;
        check_throws<OpCheckError>(
            [&] { check_op(constant, {}, {{"value", AttrValue::integer(bad)}}, Types{i8}); },
            "[attr] attribute 'value' = " + std::to_string(bad) + " does not fit in i8 (range -128..127)",
            "a constant outside i8");
      }
    }
    check_throws<OpCheckError>([&] { check_op(constant, {}, {{"valu", AttrValue::integer(127)}}, Types{i8}); },
                               "[attr] missing attribute 'value'", "another attribute name");
    check(check_op(add, {i32, i32}, {}, Types{i32}) == Types{i32}, "add passes");
    check_throws<OpCheckError>([&] { check_op(add, {i32, i32}, {}, Types{f32}); },
                               "[type] result #0 has type f32, expected i32 (type rule same_as_operand0)",
                               "another given result type");
    check(check_op(add, {f16, f16}, {}, std::nullopt) == Types{f16}, "add of f16 passes");
    check_throws<OpCheckError>([&] { check_op(add, {f16, f32}, {}, std::nullopt); },
                               "[type] operand #1 'rhs' has type f32, expected f16 (the type of operand #0 'lhs')",
                               "another operand type");
  }
}

int main() {
  remembered_checks();
  result_types();
  constants();
  helper_errors();
  control_flow();
  verifier_rules();
  return rocke_test::finish("rocke_builder_test");
}
