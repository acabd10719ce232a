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

using ir::Builder;
using ir::Type;
using ir::Value;

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
  Type out_t = helpers::ir_type(spec.c_dtype);
  std::int64_t out_size = helpers::elem_bytes(spec.c_dtype);
  Value* m = params.m;
  Value* n = params.n;
  Value* alpha = params.alpha;
  Value* scale = alpha;
  Value* scale_v = b.splat(scale, acc.plan->op->c.length, "alpha_v");
  Value* c_rsrc = helpers::buffer_rsrc(b, params.c, b.mul(m, n), out_size, "c_rsrc");
  auto [rows, cols] = acc.coords(b);
  std::map<helpers::ColumnKey, Value*> bias;
  if (spec.bias) {
    Value* bias_rsrc = helpers::buffer_rsrc(b, params.bias, n, out_size, "bias_rsrc");
    bias = acc.column_values(b, cols, [&](Value* col) {
      Value* raw = helpers::load_guarded(b, bias_rsrc, col, b.sub(n, col), out_t, 1, "bias");
      return helpers::to_f32(b, raw, out_t, 1);
    });
  }
  auto store = [&](const helpers::AccElement& e) {
    Value* value = e.value;
    if (spec.bias) value = b.add(value, bias.at(e.col_key));
    Value* ok = e.inside(b, m, n);
    Value* offset = helpers::masked_offset(b, ok, b.add(b.mul(e.row, n), e.col), out_size);
    b.buffer_store(c_rsrc, offset, helpers::from_f32(b, value, out_t, 1, "c_value"));
  };
  acc.each_element(b, rows, cols, store, [&](Value* value_v) { return b.mul(value_v, scale_v, "scaled"); });
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
  auto [row0, col0] = loop.place_grid(b, spec.bm, spec.bn);
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
