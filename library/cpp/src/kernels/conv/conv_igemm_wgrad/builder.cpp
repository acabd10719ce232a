// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/builder.py
#include "rocke_library/kernels/conv/conv_igemm_wgrad/builder.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "rocke/arch/target.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/types.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/plan.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"
#include "rocke_library/kernels/conv/pixels.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

namespace {

using helpers::add_i32;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

// The main kernel's parameters, in signature order (out: dw, or the f32 workspace when atomic).
struct Params {
  Value* input = nullptr;
  Value* dy = nullptr;
  Value* out = nullptr;
  Value* n = nullptr;
  Value* h = nullptr;
  Value* w = nullptr;
  Value* c = nullptr;
  Value* k = nullptr;
  Value* g = nullptr;
};

// The B generator: output pixel p of the workgroup's K share (k) x column nd = tap * cg + ci (outer),
// over NHWC x. setup: the column's (ok, row offset, column offset, channel) and the access's first p;
// address: the x element of the K tile's p, valid (vec) inside the image, the share and the columns,
// else 0.
class TapInputOperand : public helpers::OperandAddress {
 public:
  TapInputOperand(const ConvIgemmWgradSpec& spec, Value* rsrc, Value* origin, Value* cols,
                  const std::array<Value*, 5>& dims, Value* in0, Value* cg, Value* k_begin, Value* k_len,
                  std::int64_t vec)
      : spec_(spec),
        rsrc_(rsrc),
        origin_(origin),
        cols_(cols),
        dims_(dims),
        in0_(in0),
        cg_(cg),
        k_begin_(k_begin),
        k_len_(k_len),
        vec_(vec) {}

  Value* rsrc() const override { return rsrc_; }

  Values setup(Builder& b, Value* outer, Value* k) const override {
    Value* nd = b.add(origin_, outer, "nd");
    Value* ok = b.cmpi("slt", nd, cols_, "col_ok");
    Value* tap = b.divu(nd, cg_, "tap");
    Value* ci = b.remu(nd, cg_, "ci");
    Value* ky = helpers::divu_i32(b, tap, spec_.filter_x, "ky");
    Value* kx = helpers::remu_i32(b, tap, spec_.filter_x, "kx");
    Value* dh = add_i32(b, mul_i32(b, ky, spec_.dil_h), -spec_.pad_h, "tap_row");
    Value* dw = add_i32(b, mul_i32(b, kx, spec_.dil_w), -spec_.pad_w, "tap_col");
    Value* channel = b.add(in0_, ci, "channel");
    return {ok, dh, dw, channel, k};
  }

  std::pair<Value*, Value*> address(Builder& b, const Values& state, Value* k0) const override {
    Value* ok = state[0];
    Value* dh = state[1];
    Value* dw = state[2];
    Value* channel = state[3];
    Value* first = state[4];
    Value* ho = dims_[0];
    Value* wo = dims_[1];
    Value* h = dims_[2];
    Value* w = dims_[3];
    Value* c = dims_[4];
    Value* pl = k0 == nullptr ? first : b.add(first, k0, "pl");
    Value* p = b.add(k_begin_, pl, "p");
    Value* ow = b.remu(p, wo, "ow");
    Value* rest = b.divu(p, wo);
    Value* oh = b.remu(rest, ho, "oh");
    Value* img = b.divu(rest, ho, "img");
    Value* ih = b.add(mul_i32(b, oh, spec_.stride_h), dh, "ih");
    Value* iw = b.add(mul_i32(b, ow, spec_.stride_w), dw, "iw");
    Value* rows = b.cmpi("ult", ih, h);
    Value* cols = b.cmpi("ult", iw, w);
    Value* both = b.and_(rows, cols);
    Value* seen = b.and_(ok, both, "tap_ok");
    Value* in_share = b.cmpi("slt", pl, k_len_);
    Value* live = b.and_(seen, in_share, "b_ok");
    Value* line = b.add(b.mul(img, h), ih);
    Value* spot = b.add(b.mul(line, w), iw);
    Value* index = b.add(b.mul(spot, c), channel, "b_index");
    Value* valid = helpers::valid_if(b, live, helpers::const_i32(b, vec_));
    return {index, valid};
  }

 private:
  const ConvIgemmWgradSpec& spec_;
  Value* rsrc_;
  Value* origin_;
  Value* cols_;
  std::array<Value*, 5> dims_;
  Value* in0_;
  Value* cg_;
  Value* k_begin_;
  Value* k_len_;
  std::int64_t vec_;
};

// out[(out0 + row) * cols + col] = acc (split_k = 1) or += acc (atomics) inside kg x cols.
void epilogue(Builder& b, const ConvIgemmWgradSpec& spec, const helpers::TileAccumulators& acc, const Params& params,
              Value* kg, Value* cols, Value* out0) {
  Type out_t = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* out_rsrc = nullptr;
  if (!spec.atomic()) out_rsrc = helpers::buffer_rsrc(b, params.out, b.mul(params.k, cols), esize, "dw_rsrc");
  auto [rows, columns] = acc.coords(b);
  auto store = [&](const helpers::AccElement& e) {
    Value* ok = e.inside(b, kg, cols);
    Value* line = b.mul(b.add(out0, e.row), cols);
    Value* index = b.add(line, e.col, "dw_index");
    if (out_rsrc != nullptr) {
      Value* offset = helpers::masked_offset(b, ok, index, esize);
      b.buffer_store(out_rsrc, offset, helpers::from_f32(b, e.value, out_t, 1, "dw_value"));
      return;
    }
    b.if_(ok, [&] { b.atomic_add_f32(params.out, index, e.value); });
  };
  acc.each_element(b, rows, columns, store);
}

ir::KernelDef build_main(const ConvIgemmWgradSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  helpers::TileGemmPlan plan = plan_wgrad(spec, target);
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Type buffer_type = ir::ptr(elem, "global");
  Params params;
  params.input = b.param("input", buffer_type, {.noalias = true, .readonly = true});
  params.dy = b.param("dy", buffer_type, {.noalias = true, .readonly = true});
  if (spec.atomic()) {
    params.out = b.param("workspace", ir::ptr(ir::f32, "global"), {.noalias = true});
  } else {
    params.out = b.param("dw", buffer_type, {.noalias = true, .writeonly = true});
  }
  params.n = b.param("n", ir::i32);
  params.h = b.param("h", ir::i32);
  params.w = b.param("w", ir::i32);
  params.c = b.param("c", ir::i32);
  params.k = b.param("k", ir::i32);
  params.g = b.param("g", ir::i32);
  IgemmPrologue start = igemm_prologue(b, spec, plan, elem, params, spec.split_k);
  Value* pixels = b.mul(b.mul(params.n, start.ho), start.wo, "pixels");
  Value* cols = mul_i32(b, start.cg, spec.taps(), "cols");
  Value* tiles = helpers::ceil_div_i32(b, pixels, spec.bk);
  Value* share = mul_i32(b, helpers::ceil_div_i32(b, tiles, spec.split_k), spec.bk, "share");
  Value* k_begin = b.mul(start.part, share, "k_begin");
  Value* left = b.sub(pixels, k_begin);
  Value* capped = b.mins(left, share);
  Value* k_len = b.maxs(capped, helpers::const_i32(b, 0), "k_len");
  Value* x_rsrc = nhwc_rsrc(b, params.input, {params.n, params.h, params.w, params.c}, esize, "x_rsrc");
  Value* dy_rsrc = helpers::buffer_rsrc(b, params.dy, b.mul(pixels, params.k), esize, "dy_rsrc");
  Value* in0 = b.mul(start.group, start.cg, "in0");
  Value* out0 = b.mul(start.group, start.kg, "out0");
  Value* dy_base = b.add(b.mul(k_begin, params.k), out0, "dy_base");
  const helpers::MatrixOperand a_gen("a", dy_rsrc, false, start.row0, start.kg, k_len, params.k, dy_base);
  std::array<Value*, 5> dims = {start.ho, start.wo, params.h, params.w, params.c};
  const TapInputOperand b_gen(spec, x_rsrc, start.col0, cols, dims, in0, start.cg, k_begin, k_len, plan.b.split.vec);
  start.loop.run(b, a_gen, b_gen, k_len,
           [&](const helpers::TileAccumulators& acc) { epilogue(b, spec, acc, params, start.kg, cols, out0); });
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_convert(const ConvIgemmWgradSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  std::int64_t threads = spec.threads();
  Type out_t = helpers::ir_type(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = threads});
  Value* workspace = b.param("workspace", ir::ptr(ir::f32, "global"), {.noalias = true, .readonly = true});
  Value* dw = b.param("dw", ir::ptr(out_t, "global"), {.noalias = true, .writeonly = true});
  Value* elements = b.param("elements", ir::i32);
  Value* first = mul_i32(b, helpers::global_id_x(b, threads), spec.vec, "first");
  Value* ws_rsrc = helpers::buffer_rsrc(b, workspace, elements, 4, "ws_rsrc");
  Value* dw_rsrc = helpers::buffer_rsrc(b, dw, elements, helpers::elem_bytes(spec.dtype), "dw_rsrc");
  std::int64_t lanes = std::min(spec.vec, kConvertLanes);
  for (std::int64_t part = 0; part < spec.vec; part += lanes) {
    Value* at = add_i32(b, first, part, "at");
    Value* valid = b.sub(elements, at, "valid");
    Value* value = helpers::load_guarded(b, ws_rsrc, at, valid, ir::f32, lanes, "sums");
    Value* rounded = helpers::from_f32(b, value, out_t, lanes, "dw_value");
    helpers::store_guarded(b, dw_rsrc, at, valid, rounded, out_t, lanes);
  }
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

}  // namespace

ir::KernelDef build(const ConvIgemmWgradSpec& spec, std::string_view arch) {
  if (spec.convert) {
    plan_wgrad(spec, arch::get_arch(arch));  // the pair shares the main kernel's arch rules
    return build_convert(spec, arch);
  }
  return build_main(spec, arch);
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(ConvIgemmWgradSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
