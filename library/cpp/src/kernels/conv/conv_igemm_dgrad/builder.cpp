// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/builder.py
#include "rocke_library/kernels/conv/conv_igemm_dgrad/builder.hpp"

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
#include "rocke_library/kernels/conv/conv_igemm_dgrad/plan.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"
#include "rocke_library/kernels/conv/pixels.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

namespace {

using helpers::add_i32;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

// The kernel's parameters, in signature order.
struct Params {
  Value* dy = nullptr;
  Value* weight = nullptr;
  Value* dx = nullptr;
  Value* n = nullptr;
  Value* h = nullptr;
  Value* w = nullptr;
  Value* c = nullptr;
  Value* k = nullptr;
  Value* g = nullptr;
};

// (output index, ok) along one spatial dimension: padded - tap_offset = out * stride exactly,
// 0 <= out < out_size (unsigned compares reject a negative difference).
std::pair<Value*, Value*> source(Builder& b, Value* padded, Value* tap_offset, std::int64_t stride, Value* out_size) {
  Value* diff = b.sub(padded, tap_offset);
  if (stride == 1) return {diff, b.cmpi("ult", diff, out_size)};
  Value* out = helpers::divu_i32(b, diff, stride);
  Value* inside = b.cmpi("ult", out, out_size);
  Value* rem = helpers::remu_i32(b, diff, stride);
  Value* exact = b.cmpi("eq", rem, helpers::const_i32(b, 0));
  return {out, b.and_(inside, exact)};
}

// The A generator: input pixel (outer) x reduction index kk = tap * kg + ko (k), over NHWK dy.
// setup: the pixel's (ok, image, padded row, padded column) and the access's first kk; address: the
// dy element of the K tile's kk, valid (vec) when the tap reaches an output pixel, the input pixel
// exists and kk < Kdim, else 0.
class GradTapOperand : public helpers::OperandAddress {
 public:
  GradTapOperand(const ConvIgemmDgradSpec& spec, Value* rsrc, Value* origin, Value* pixels,
                 const std::array<Value*, 5>& dims, Value* out0, Value* kg, Value* kdim, std::int64_t vec)
      : spec_(spec),
        rsrc_(rsrc),
        origin_(origin),
        pixels_(pixels),
        dims_(dims),
        out0_(out0),
        kg_(kg),
        kdim_(kdim),
        vec_(vec) {}

  Value* rsrc() const override { return rsrc_; }

  Values setup(Builder& b, Value* outer, Value* k) const override {
    Value* h = dims_[2];
    Value* w = dims_[3];
    Value* m = b.add(origin_, outer, "m");
    Value* ok = b.cmpi("slt", m, pixels_, "pix_ok");
    Value* iw = b.remu(m, w, "iw");
    Value* rest = b.divu(m, w);
    Value* ih = b.remu(rest, h, "ih");
    Value* img = b.divu(rest, h, "img");
    Value* row = add_i32(b, ih, spec_.pad_h, "prow");
    Value* col = add_i32(b, iw, spec_.pad_w, "pcol");
    return {ok, img, row, col, k};
  }

  std::pair<Value*, Value*> address(Builder& b, const Values& state, Value* k0) const override {
    Value* ok = state[0];
    Value* img = state[1];
    Value* row = state[2];
    Value* col = state[3];
    Value* first = state[4];
    Value* ho = dims_[0];
    Value* wo = dims_[1];
    Value* k = dims_[4];
    Value* kk = k0 == nullptr ? first : b.add(first, k0, "kk");
    Value* tap = b.divu(kk, kg_, "tap");
    Value* ko = b.remu(kk, kg_, "ko");
    Value* ky = helpers::divu_i32(b, tap, spec_.filter_x, "ky");
    Value* kx = helpers::remu_i32(b, tap, spec_.filter_x, "kx");
    Value* row_offset = mul_i32(b, ky, spec_.dil_h);
    auto [oh, row_ok] = source(b, row, row_offset, spec_.stride_h, ho);
    Value* col_offset = mul_i32(b, kx, spec_.dil_w);
    auto [ow, col_ok] = source(b, col, col_offset, spec_.stride_w, wo);
    Value* both = b.and_(row_ok, col_ok);
    Value* seen = b.and_(ok, both, "tap_ok");
    Value* in_k = b.cmpi("slt", kk, kdim_);
    Value* live = b.and_(seen, in_k, "a_ok");
    Value* line = b.add(b.mul(img, ho), oh);
    Value* spot = b.add(b.mul(line, wo), ow);
    Value* at = b.add(b.mul(spot, k), out0_);
    Value* index = b.add(at, ko, "a_index");
    Value* valid = helpers::valid_if(b, live, helpers::const_i32(b, vec_));
    return {index, valid};
  }

 private:
  const ConvIgemmDgradSpec& spec_;
  Value* rsrc_;
  Value* origin_;
  Value* pixels_;
  std::array<Value*, 5> dims_;
  Value* out0_;
  Value* kg_;
  Value* kdim_;
  std::int64_t vec_;
};

// The B generator: reduction index kk = tap * kg + ko (k) x input channel ci (outer), over KYXC w.
// setup: the access's (channel, channels left in the group, first kk); address: the w element of the
// K tile's kk, valid (up to the channels left) when kk < Kdim, else 0.
class FilterOperand : public helpers::OperandAddress {
 public:
  FilterOperand(const ConvIgemmDgradSpec& spec, Value* rsrc, Value* origin, Value* cg, Value* out0, Value* kg,
                Value* kdim)
      : spec_(spec), rsrc_(rsrc), origin_(origin), cg_(cg), out0_(out0), kg_(kg), kdim_(kdim) {}

  Value* rsrc() const override { return rsrc_; }

  Values setup(Builder& b, Value* outer, Value* k) const override {
    Value* ci = b.add(origin_, outer, "ci");
    Value* cap = b.sub(cg_, ci, "b_ocap");
    return {ci, cap, k};
  }

  std::pair<Value*, Value*> address(Builder& b, const Values& state, Value* k0) const override {
    Value* ci = state[0];
    Value* cap = state[1];
    Value* first = state[2];
    std::int64_t taps = spec_.taps();
    Value* kk = k0 == nullptr ? first : b.add(first, k0, "kk");
    Value* tap = b.divu(kk, kg_, "tap");
    Value* ko = b.remu(kk, kg_, "ko");
    Value* filt = b.add(out0_, ko);
    Value* row = b.add(mul_i32(b, filt, taps), tap);
    Value* index = b.add(b.mul(row, cg_), ci, "b_index");
    Value* valid = helpers::valid_if(b, b.cmpi("slt", kk, kdim_), cap);
    return {index, valid};
  }

 private:
  const ConvIgemmDgradSpec& spec_;
  Value* rsrc_;
  Value* origin_;
  Value* cg_;
  Value* out0_;
  Value* kg_;
  Value* kdim_;
};

// dx[m][in0 + col] = acc for every accumulator element inside pixels x cg.
void epilogue(Builder& b, const ConvIgemmDgradSpec& spec, const helpers::TileAccumulators& acc, const Params& params,
              Value* pixels, Value* cg, Value* in0) {
  Type out_t = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* dx_rsrc = helpers::buffer_rsrc(b, params.dx, b.mul(pixels, params.c), esize, "dx_rsrc");
  auto [rows, cols] = acc.coords(b);
  auto store = [&](const helpers::AccElement& e) {
    Value* ok = e.inside(b, pixels, cg);
    Value* line = b.mul(e.row, params.c);
    Value* channel = b.add(in0, e.col);
    Value* offset = helpers::masked_offset(b, ok, b.add(line, channel), esize);
    b.buffer_store(dx_rsrc, offset, helpers::from_f32(b, e.value, out_t, 1, "dx_value"));
  };
  acc.each_element(b, rows, cols, store);
}

}  // namespace

ir::KernelDef build(const ConvIgemmDgradSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  helpers::TileGemmPlan plan = plan_dgrad(spec, target);
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Type buffer_type = ir::ptr(elem, "global");
  Params params;
  params.dy = b.param("dy", buffer_type, {.noalias = true, .readonly = true});
  params.weight = b.param("weight", buffer_type, {.noalias = true, .readonly = true});
  params.dx = b.param("dx", buffer_type, {.noalias = true, .writeonly = true});
  params.n = b.param("n", ir::i32);
  params.h = b.param("h", ir::i32);
  params.w = b.param("w", ir::i32);
  params.c = b.param("c", ir::i32);
  params.k = b.param("k", ir::i32);
  params.g = b.param("g", ir::i32);
  IgemmPrologue start = igemm_prologue(b, spec, plan, elem, params);
  Value* pixels = b.mul(b.mul(params.n, params.h), params.w, "pixels");
  Value* kdim = mul_i32(b, start.kg, spec.taps(), "kdim");
  Value* dy_rsrc = nhwc_rsrc(b, params.dy, {params.n, start.ho, start.wo, params.k}, esize, "dy_rsrc");
  Value* row_elems = mul_i32(b, start.cg, spec.taps());
  Value* w_rsrc = helpers::buffer_rsrc(b, params.weight, b.mul(params.k, row_elems), esize, "w_rsrc");
  Value* in0 = b.mul(start.group, start.cg, "in0");
  Value* out0 = b.mul(start.group, start.kg, "out0");
  std::array<Value*, 5> dims = {start.ho, start.wo, params.h, params.w, params.k};
  const GradTapOperand a_gen(spec, dy_rsrc, start.row0, pixels, dims, out0, start.kg, kdim, plan.a.split.vec);
  const FilterOperand b_gen(spec, w_rsrc, start.col0, start.cg, out0, start.kg, kdim);
  start.loop.run(b, a_gen, b_gen, kdim,
           [&](const helpers::TileAccumulators& acc) { epilogue(b, spec, acc, params, pixels, start.cg, in0); });
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(ConvIgemmDgradSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
