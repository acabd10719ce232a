// Python twin: rocke/families/gemm/builder.py
#include "rocke/families/gemm/builder.hpp"

#include <map>
#include <utility>

#include "rocke/arch/target.hpp"
#include "rocke/families/gemm/plan.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/types.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::gemm {

namespace {

using helpers::add_i32;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

// The kernel's parameters, in signature order (bias is nullptr without spec.bias).
struct Params {
  Value* a = nullptr;
  Value* b = nullptr;
  Value* c = nullptr;
  Value* bias = nullptr;
  Value* m = nullptr;
  Value* n = nullptr;
  Value* k = nullptr;
  Value* alpha = nullptr;
};

// C = alpha * acc (+ bias[col]) for every accumulator element inside M x N.
void epilogue(Builder& b, const GemmSpec& spec, const helpers::TileAccumulators& acc, const Params& params) {
  const GemmPlan& plan = *acc.plan;
  const Values& accs = acc.accs;
  const arch::MmaOp& op = *plan.op;
  Type out_t = helpers::ir_type(spec.c_dtype);
  std::int64_t out_size = helpers::elem_bytes(spec.c_dtype);
  Value* m = params.m;
  Value* n = params.n;
  Value* alpha = params.alpha;
  Value* scale = alpha;
  Value* scale_v = b.splat(scale, op.c.length, "alpha_v");
  Value* c_rsrc = helpers::buffer_rsrc(b, params.c, b.mul(m, n), out_size, "c_rsrc");
  auto [rows, cols] = acc.coords(b);
  std::map<std::pair<std::int64_t, std::int64_t>, Value*> bias;
  if (spec.bias) {
    Value* bias_rsrc = helpers::buffer_rsrc(b, params.bias, n, out_size, "bias_rsrc");
    for (std::int64_t rn = 0; rn < plan.rep_n; ++rn) {
      for (std::int64_t offset : plan.c_col.slot_offsets) {
        if (!bias.contains({rn, offset})) {
          Value* col = add_i32(b, cols[static_cast<std::size_t>(rn)], offset);
          Value* raw = helpers::load_guarded(b, bias_rsrc, col, b.sub(n, col), out_t, 1, "bias");
          bias[{rn, offset}] = helpers::to_f32(b, raw, out_t, 1);
        }
      }
    }
  }
  for (std::int64_t rm = 0; rm < plan.rep_m; ++rm) {
    for (std::int64_t rn = 0; rn < plan.rep_n; ++rn) {
      Value* scaled = b.mul(accs[static_cast<std::size_t>(rm * plan.rep_n + rn)], scale_v, "scaled");
      for (std::int64_t s = 0; s < op.c.length; ++s) {
        std::int64_t row_offset = plan.c_row.slot_offsets[static_cast<std::size_t>(s)];
        std::int64_t col_offset = plan.c_col.slot_offsets[static_cast<std::size_t>(s)];
        Value* row = add_i32(b, rows[static_cast<std::size_t>(rm)], row_offset);
        Value* col = add_i32(b, cols[static_cast<std::size_t>(rn)], col_offset);
        Value* value = b.extract(scaled, s);
        if (spec.bias) value = b.add(value, bias.at({rn, col_offset}));
        Value* ok = b.cmpi("slt", row, m);
        ok = b.and_(ok, b.cmpi("slt", col, n));
        Value* offset = helpers::masked_offset(b, ok, b.add(b.mul(row, n), col), out_size);
        b.buffer_store(c_rsrc, offset, helpers::from_f32(b, value, out_t, 1, "c_value"));
      }
    }
  }
}

}  // namespace

ir::KernelDef build(const GemmSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  GemmPlan plan = plan_gemm(spec, target);
  Type elem = helpers::ir_type(spec.a_dtype);
  std::int64_t esize = helpers::elem_bytes(spec.a_dtype);
  Type out_t = helpers::ir_type(spec.c_dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Params params{
      .a = b.param("a", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}),
      .b = b.param("b", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}),
      .c = b.param("c", ir::ptr(out_t, "global"), {.noalias = true, .writeonly = true}),
      .bias = spec.bias ? b.param("bias", ir::ptr(out_t, "global"), {.noalias = true, .readonly = true}) : nullptr,
      .m = b.param("m", ir::i32),
      .n = b.param("n", ir::i32),
      .k = b.param("k", ir::i32),
      .alpha = b.param("alpha", ir::f32),
  };
  Value* m = params.m;
  Value* n = params.n;
  Value* k = params.k;
  helpers::TileGemm loop(b, plan, elem);
  Value* row0 = mul_i32(b, b.block_id_y(), spec.bm, "row0");
  Value* col0 = mul_i32(b, b.block_id_x(), spec.bn, "col0");
  loop.place(b, row0, col0);
  Value* a_rsrc = helpers::buffer_rsrc(b, params.a, b.mul(m, k), esize, "a_rsrc");
  Value* b_rsrc = helpers::buffer_rsrc(b, params.b, b.mul(k, n), esize, "b_rsrc");
  const helpers::MatrixOperand a_gen("a", a_rsrc, plan.a.k_contiguous, row0, m, k);
  const helpers::MatrixOperand b_gen("b", b_rsrc, plan.b.k_contiguous, col0, n, k);
  loop.run(b, a_gen, b_gen, k, [&](const helpers::TileAccumulators& acc) { epilogue(b, spec, acc, params); });
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) { return build(GemmSpec::from_kv(kv), arch); }

}  // namespace rocke::families::gemm
