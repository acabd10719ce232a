// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/builder.py
#include "rocke_library/kernels/conv/conv_igemm_fwd/builder.hpp"

#include <array>
#include <map>
#include <memory>
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
#include "rocke_library/kernels/conv/conv_igemm_fwd/plan.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"
#include "rocke_library/kernels/conv/pixels.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

namespace {

using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

// The kernel's parameters, in signature order (bias is nullptr without spec.bias).
struct Params {
  Value* input = nullptr;
  Value* weight = nullptr;
  Value* bias = nullptr;
  Value* output = nullptr;
  Value* n = nullptr;
  Value* h = nullptr;
  Value* w = nullptr;
  Value* c = nullptr;
  Value* k = nullptr;
  Value* g = nullptr;
};

// The A generator: output pixel (outer) x reduction index kk = tap * cg + ci (k), over NHWC x.
// setup: the pixel's (ok, window row, window column, NHWC base) and the access's first kk; address:
// the element of the K tile's kk, valid (vec) inside the image, the pixels and Kdim, else 0.
class TapOperand : public helpers::OperandAddress {
 public:
  TapOperand(const ConvIgemmFwdSpec& spec, Value* rsrc, Value* origin, Value* pixels,
             const std::array<Value*, 5>& dims, Value* channel0, Value* cg, Value* kdim, std::int64_t vec)
      : spec_(spec),
        rsrc_(rsrc),
        origin_(origin),
        pixels_(pixels),
        dims_(dims),
        channel0_(channel0),
        cg_(cg),
        kdim_(kdim),
        vec_(vec) {}

  Value* rsrc() const override { return rsrc_; }

  Values setup(Builder& b, Value* outer, Value* k) const override {
    Value* m = b.add(origin_, outer, "m");
    Pixel pix = pixel(b, spec_, m, pixels_, dims_, channel0_);
    return {pix.ok, pix.row, pix.col, pix.base, k};
  }

  std::pair<Value*, Value*> address(Builder& b, const Values& state, Value* k0) const override {
    Value* ok = state[0];
    Value* row = state[1];
    Value* col = state[2];
    Value* base = state[3];
    Value* first = state[4];
    Value* h = dims_[2];
    Value* w = dims_[3];
    Value* c = dims_[4];
    Value* kk = k0 == nullptr ? first : b.add(first, k0, "kk");
    Value* tap = b.divu(kk, cg_, "tap");
    Value* ci = b.remu(kk, cg_, "ci");
    Value* ky = helpers::divu_i32(b, tap, spec_.filter_x, "ky");
    Value* kx = helpers::remu_i32(b, tap, spec_.filter_x, "kx");
    Value* dy = mul_i32(b, ky, spec_.dil_h);
    Value* dx = mul_i32(b, kx, spec_.dil_w);
    Value* hi = b.add(row, dy);
    Value* wi = b.add(col, dx);
    Pixel pix{ok, row, col, base};
    Value* seen = inside(b, pix, hi, wi, h, w);
    Value* live = b.and_(seen, b.cmpi("slt", kk, kdim_), "a_ok");
    Value* spot = b.add(b.mul(dy, w), dx);
    Value* at = b.add(base, b.mul(spot, c));
    Value* index = b.add(at, ci, "a_index");
    Value* valid = helpers::valid_if(b, live, helpers::const_i32(b, vec_));
    return {index, valid};
  }

 private:
  const ConvIgemmFwdSpec& spec_;
  Value* rsrc_;
  Value* origin_;
  Value* pixels_;
  std::array<Value*, 5> dims_;
  Value* channel0_;
  Value* cg_;
  Value* kdim_;
  std::int64_t vec_;
};

// y[m][out0 + col] = act(acc (+ bias)) for every accumulator element inside pixels x kg.
void epilogue(Builder& b, const ConvIgemmFwdSpec& spec, const helpers::TileAccumulators& acc, const Params& params,
              Value* pixels, Value* kg, Value* out0) {
  Type out_t = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* y_rsrc = helpers::buffer_rsrc(b, params.output, b.mul(pixels, params.k), esize, "y_rsrc");
  auto [rows, cols] = acc.coords(b);
  std::map<helpers::ColumnKey, Value*> bias;
  if (spec.bias) {
    Value* bias_rsrc = helpers::buffer_rsrc(b, params.bias, params.k, esize, "bias_rsrc");
    bias = acc.column_values(b, cols, [&](Value* col) {
      Value* at = b.add(out0, col);
      Value* valid = b.sub(kg, col);
      Value* raw = helpers::load_guarded(b, bias_rsrc, at, valid, out_t, 1, "bias");
      return helpers::to_f32(b, raw, out_t, 1);
    });
  }
  auto store = [&](const helpers::AccElement& e) {
    Value* value = e.value;
    if (spec.bias) value = b.add(value, bias.at(e.col_key));
    if (spec.relu) value = helpers::relu(b, value, 1);
    Value* ok = e.inside(b, pixels, kg);
    Value* line = b.mul(e.row, params.k);
    Value* channel = b.add(out0, e.col);
    Value* offset = helpers::masked_offset(b, ok, b.add(line, channel), esize);
    b.buffer_store(y_rsrc, offset, helpers::from_f32(b, value, out_t, 1, "y_value"));
  };
  acc.each_element(b, rows, cols, store);
}

}  // namespace

ir::KernelDef build(const ConvIgemmFwdSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  helpers::TileGemmPlan plan = plan_conv(spec, target);
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Type buffer_type = ir::ptr(elem, "global");
  Params params;
  params.input = b.param("input", buffer_type, {.noalias = true, .readonly = true});
  params.weight = b.param("weight", buffer_type, {.noalias = true, .readonly = true});
  if (spec.bias) params.bias = b.param("bias", buffer_type, {.noalias = true, .readonly = true});
  params.output = b.param("output", buffer_type, {.noalias = true, .writeonly = true});
  params.n = b.param("n", ir::i32);
  params.h = b.param("h", ir::i32);
  params.w = b.param("w", ir::i32);
  params.c = b.param("c", ir::i32);
  params.k = b.param("k", ir::i32);
  params.g = b.param("g", ir::i32);
  IgemmPrologue start = igemm_prologue(b, spec, plan, elem, params);
  Value* pixels = b.mul(b.mul(params.n, start.ho), start.wo, "pixels");
  Value* kdim = mul_i32(b, start.cg, spec.taps(), "kdim");
  Value* x_rsrc = nhwc_rsrc(b, params.input, {params.n, params.h, params.w, params.c}, esize, "x_rsrc");
  Value* w_rsrc = helpers::buffer_rsrc(b, params.weight, b.mul(params.k, kdim), esize, "w_rsrc");
  Value* channel0 = b.mul(start.group, start.cg, "channel0");
  Value* out0 = b.mul(start.group, start.kg, "out0");
  std::unique_ptr<helpers::OperandAddress> a_gen;
  if (spec.pointwise()) {
    a_gen = std::make_unique<helpers::MatrixOperand>("a", x_rsrc, true, start.row0, pixels, start.cg, params.c,
                                                     channel0);
  } else {
    std::array<Value*, 5> dims = {start.ho, start.wo, params.h, params.w, params.c};
    a_gen = std::make_unique<TapOperand>(spec, x_rsrc, start.row0, pixels, dims, channel0, start.cg, kdim,
                                         plan.a.split.vec);
  }
  Value* w_base = b.mul(out0, kdim, "w_base");
  const helpers::MatrixOperand b_gen("b", w_rsrc, true, start.col0, start.kg, kdim, nullptr, w_base);
  start.loop.run(b, *a_gen, b_gen, kdim,
           [&](const helpers::TileAccumulators& acc) { epilogue(b, spec, acc, params, pixels, start.kg, out0); });
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(ConvIgemmFwdSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
