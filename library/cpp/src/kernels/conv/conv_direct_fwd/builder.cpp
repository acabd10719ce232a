// Python twin: rocke_library/kernels/conv/conv_direct_fwd/builder.py
#include "rocke_library/kernels/conv/conv_direct_fwd/builder.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "rocke/helpers.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::conv::conv_direct_fwd {

using ir::Builder;
using ir::KernelDef;
using ir::Type;
using ir::Value;
using ir::Values;
using namespace rocke::helpers;

void check_arch(const ConvDirectFwdSpec& spec, const arch::ArchTarget& target) {
  std::int64_t threads = spec.threads();
  families::check_wave_multiple(spec, "tile_p", threads, target,
                                util::cat("(tile_p / thread_p) * (tile_k / thread_k) = ", std::to_string(threads),
                                          " threads; "));
}

std::int64_t store_width(const ConvDirectFwdSpec& spec) {
  return std::min(spec.thread_k, kMaxStoreBytes / elem_bytes(spec.dtype));
}

namespace {

// (ty * dil_h, tx * dil_w) of a device tap index; nullptr for a filter dimension of size 1.
std::pair<Value*, Value*> tap_offsets(Builder& b, const ConvDirectFwdSpec& spec, Value* tap) {
  if (spec.filter_x == 1) return {mul_i32(b, tap, spec.dil_h), nullptr};
  if (spec.filter_y == 1) return {nullptr, mul_i32(b, tap, spec.dil_w)};
  Value* ty = divu_i32(b, tap, spec.filter_x);
  Value* tx = remu_i32(b, tap, spec.filter_x);
  Value* dy = mul_i32(b, ty, spec.dil_h);
  Value* dx = mul_i32(b, tx, spec.dil_w);
  return {dy, dx};
}

// Per pixel: the byte offset of its first vector under this tap (out of range in the padding).
Values input_offsets(Builder& b, const ConvDirectFwdSpec& spec, const Thread& th, const Sizes& sizes, Value* tap,
                     std::int64_t esize) {
  auto [dy, dx] = tap_offsets(b, spec, tap);
  Value* delta = nullptr;
  if (dy != nullptr) delta = b.mul(dy, sizes.wc);
  if (dx != nullptr) {
    Value* across = b.mul(dx, sizes.c);
    delta = delta == nullptr ? across : b.add(delta, across);
  }
  Values offsets;
  for (const Pixel& pix : th.pixels) {
    Value* hi = dy == nullptr ? pix.row : b.add(pix.row, dy);
    Value* wi = dx == nullptr ? pix.col : b.add(pix.col, dx);
    Value* ok = inside(b, pix, hi, wi, sizes.h, sizes.w);
    Value* index = delta == nullptr ? pix.base : b.add(pix.base, delta);
    offsets.push_back(masked_offset(b, ok, index, esize));
  }
  return offsets;
}

// The scalars of a vector (the value itself for one lane).
Values lanes_of(Builder& b, Value* value, std::int64_t lanes) {
  if (lanes == 1) return {value};
  Values out;
  for (std::int64_t lane = 0; lane < lanes; ++lane) out.push_back(b.extract(value, lane));
  return out;
}

// One vec-channel step: load every pixel's and every channel's vector, then the FMAs.
Values grouped_step(Builder& b, const ConvDirectFwdSpec& spec, Value* in_rsrc, Value* w_rsrc, const Values& x_offs,
                    const Values& w_offs, Value* c0, const Values& accs, Type elem, std::int64_t esize) {
  std::int64_t lanes = spec.vec;
  Type vtype = vector_type(elem, lanes);
  Value* step = mul_i32(b, c0, esize, "c_bytes");
  Values xs;
  for (Value* off : x_offs) {
    Value* raw = b.buffer_load(in_rsrc, b.add(off, step), vtype, "x_vals");
    xs.push_back(to_f32(b, raw, elem, lanes, "x_f32"));
  }
  Values ws;
  for (Value* off : w_offs) {
    Value* raw = b.buffer_load(w_rsrc, b.add(off, step), vtype, "w_vals");
    ws.push_back(to_f32(b, raw, elem, lanes, "w_f32"));
  }
  std::vector<Values> x_lanes;
  for (Value* x : xs) x_lanes.push_back(lanes_of(b, x, lanes));
  std::vector<Values> w_lanes;
  for (Value* wv : ws) w_lanes.push_back(lanes_of(b, wv, lanes));
  Values out = accs;
  for (std::int64_t i = 0; i < spec.thread_p; ++i) {
    for (std::int64_t j = 0; j < spec.thread_k; ++j) {
      Value* acc = out[i * spec.thread_k + j];
      for (std::int64_t lane = 0; lane < lanes; ++lane) acc = b.fma(x_lanes[i][lane], w_lanes[j][lane], acc, "acc");
      out[i * spec.thread_k + j] = acc;
    }
  }
  return out;
}

// One tap of the depthwise kernel: a weight per channel, thread_k / vec vectors per pixel.
Values depthwise_tap(Builder& b, const ConvDirectFwdSpec& spec, Value* in_rsrc, Value* w_rsrc, const Values& x_offs,
                     const Values& w_offs, const Values& accs, Type elem, std::int64_t esize) {
  std::int64_t lanes = spec.vec;
  Type vtype = vector_type(elem, lanes);
  Values ws;
  for (Value* off : w_offs) {
    Value* raw = b.buffer_load(w_rsrc, off, elem, "w_vals");
    ws.push_back(to_f32(b, raw, elem, 1, "w_f32"));
  }
  Values out = accs;
  for (std::size_t i = 0; i < x_offs.size(); ++i) {
    for (std::int64_t v = 0; v < spec.thread_k / lanes; ++v) {
      Value* raw = b.buffer_load(in_rsrc, add_i32(b, x_offs[i], v * lanes * esize), vtype, "x_vals");
      Values xv = lanes_of(b, to_f32(b, raw, elem, lanes, "x_f32"), lanes);
      for (std::int64_t lane = 0; lane < lanes; ++lane) {
        std::int64_t slot = static_cast<std::int64_t>(i) * spec.thread_k + v * lanes + lane;
        out[slot] = b.fma(xv[lane], ws[v * lanes + lane], out[slot], "acc");
      }
    }
  }
  return out;
}

// bias, relu, rounding and the guarded stores of every pixel's channels.
void epilogue(Builder& b, const ConvDirectFwdSpec& spec, const Thread& th, const Sizes& sizes,
              const Params& params, Value* out_rsrc, const Values& accs, Type elem,
              std::int64_t esize) {
  Values biases;
  if (spec.bias) {
    Value* bias_rsrc = buffer_rsrc(b, params.bias, sizes.kout, esize, "bias_rsrc");
    for (std::size_t j = 0; j < th.k_ok.size(); ++j) {
      Value* raw = b.buffer_load(bias_rsrc, masked_offset(b, th.k_ok[j], th.k_abs[j], esize), elem, "bias");
      biases.push_back(to_f32(b, raw, elem, 1, "bias_f32"));
    }
  }
  std::int64_t width = store_width(spec);
  Value* left = b.sub(sizes.kg, th.k_first, "k_left");  // channels of the group from the thread's first on
  for (std::size_t i = 0; i < th.pixels.size(); ++i) {
    Value* valid = valid_if(b, th.pixels[i].ok, left);
    for (std::int64_t s = 0; s < spec.thread_k; s += width) {
      Values values;
      for (std::int64_t j = s; j < s + width; ++j) {
        Value* value = accs[static_cast<std::int64_t>(i) * spec.thread_k + j];
        if (spec.bias) value = b.add(value, biases[j]);
        if (spec.relu) value = relu(b, value, 1);
        values.push_back(value);
      }
      Value* packed = values[0];
      if (width > 1) {
        packed = b.splat(values[0], width);
        for (std::int64_t lane = 1; lane < width; ++lane) packed = b.insert(packed, values[lane], lane);
      }
      Value* result = from_f32(b, packed, elem, width, "y_value");
      Value* index = add_i32(b, th.rows[i], s);
      Value* left_here = add_i32(b, valid, -s);
      store_guarded(b, out_rsrc, index, left_here, result, elem, width);
    }
  }
}

}  // namespace

KernelDef build(const ConvDirectFwdSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  check_arch(spec, target);
  Type elem = ir_type(spec.dtype);
  std::int64_t esize = elem_bytes(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = spec.threads()});
  Params params{
      .input = b.param("input", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}),
      .weight = b.param("weight", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}),
      .bias = spec.bias ? b.param("bias", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}) : nullptr,
      .output = b.param("output", ir::ptr(elem, "global"), {.noalias = true, .writeonly = true}),
      .n = b.param("n", ir::i32),
      .h = b.param("h", ir::i32),
      .w = b.param("w", ir::i32),
      .c = b.param("c", ir::i32),
      .k = spec.depthwise ? nullptr : b.param("k", ir::i32),
      .g = spec.depthwise ? nullptr : b.param("g", ir::i32),
  };
  Value* n = params.n;
  Value* h = params.h;
  Value* w = params.w;
  Value* c = params.c;

  auto [ho, wo] = out_dims(b, spec, h, w);
  Value* total = b.mul(b.mul(n, ho), wo, "pixels");
  Value* wc = b.mul(w, c, "wc");
  Sizes sizes;
  Value* group_k = nullptr;
  Value* group_c = nullptr;
  if (spec.depthwise) {
    sizes = Sizes{h, w, c, c, nullptr, c, wc};
  } else {
    Value* grp = b.block_id_z("grp");
    Value* cg = b.divu(c, params.g, "cg");
    Value* kg = b.divu(params.k, params.g, "kg");
    sizes = Sizes{h, w, c, params.k, cg, kg, wc};
    group_k = b.mul(grp, kg, "grp_k");
    group_c = b.mul(grp, cg, "grp_c");
  }
  Value* tid = b.thread_id_x("tid");
  Value* k_idx = remu_i32(b, tid, spec.k_threads());
  Value* p_idx = divu_i32(b, tid, spec.k_threads());
  Value* k_tile = mul_i32(b, b.block_id_y(), spec.tile_k);
  Value* k_first = b.add(k_tile, mul_i32(b, k_idx, spec.thread_k), "k_first");
  Value* p_first = b.add(mul_i32(b, b.block_id_x(), spec.tile_p), p_idx, "p_first");
  Value* k_base = group_k == nullptr ? k_first : b.add(group_k, k_first);
  Value* channel0 = group_c == nullptr ? k_first : group_c;
  std::vector<Pixel> pixels;
  Values rows;
  for (std::int64_t i = 0; i < spec.thread_p; ++i) {
    Value* m = add_i32(b, p_first, i * spec.p_threads());
    pixels.push_back(pixel(b, spec, m, total, {ho, wo, h, w, c}, channel0));
    rows.push_back(b.add(b.mul(m, sizes.kout), k_base, "y_row"));
  }
  Values k_ok;
  Values k_abs;
  for (std::int64_t j = 0; j < spec.thread_k; ++j) {
    k_ok.push_back(b.cmpi("slt", add_i32(b, k_first, j), sizes.kg, "k_ok"));
    k_abs.push_back(add_i32(b, k_base, j));
  }
  Thread th{pixels, rows, k_first, k_ok, k_abs};

  Value* in_rsrc = buffer_rsrc(b, params.input, b.mul(b.mul(n, h), wc), esize, "in_rsrc");
  // weight rows: taps * cg elements per output channel (depthwise: taps)
  Value* row_len = sizes.cg == nullptr ? const_i32(b, spec.taps()) : mul_i32(b, sizes.cg, spec.taps());
  Value* w_rsrc = buffer_rsrc(b, params.weight, b.mul(sizes.kout, row_len), esize, "w_rsrc");
  Value* out_rsrc = buffer_rsrc(b, params.output, b.mul(total, sizes.kout), esize, "y_rsrc");
  Values w_rows;
  for (std::size_t j = 0; j < th.k_ok.size(); ++j) {
    w_rows.push_back(masked_offset(b, th.k_ok[j], b.mul(th.k_abs[j], row_len), esize));
  }
  Value* tap_bytes = sizes.cg == nullptr ? const_i32(b, esize) : mul_i32(b, sizes.cg, esize);
  Value* zero = f32_const(b, 0.0, 1, "acc");
  Values accs0(static_cast<std::size_t>(spec.thread_p * spec.thread_k), zero);
  ir::Names acc_names(accs0.size(), ir::Hint("acc"));
  std::int64_t taps = spec.taps();

  auto tap_body = [&](Value* tap, const Values& accs) -> Values {
    Values x_offs = input_offsets(b, spec, th, sizes, tap, esize);
    Value* w_tap = b.mul(tap, tap_bytes, "w_tap");
    Values w_offs;
    for (Value* row : w_rows) w_offs.push_back(b.add(row, w_tap));
    if (sizes.cg == nullptr) return depthwise_tap(b, spec, in_rsrc, w_rsrc, x_offs, w_offs, accs, elem, esize);

    auto channel_body = [&](Value* c0, const Values& inner) -> Values {
      return grouped_step(b, spec, in_rsrc, w_rsrc, x_offs, w_offs, c0, inner, elem, esize);
    };
    Value* c_start = const_i32(b, 0);
    Value* c_step = const_i32(b, spec.vec);
    return b.for_(c_start, sizes.cg, c_step, accs, channel_body, {.names = acc_names, .iv_name = "c0"});
  };

  Value* tap_start = const_i32(b, 0);
  Value* tap_end = const_i32(b, taps);
  Value* tap_step = const_i32(b, 1);
  Values accs = b.for_(tap_start, tap_end, tap_step, accs0, tap_body, {.names = acc_names, .iv_name = "tap"});
  epilogue(b, spec, th, sizes, params, out_rsrc, accs, elem, esize);
  KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

KernelDef build_kv(std::string_view kv, std::string_view arch) {
  ConvDirectFwdSpec spec = ConvDirectFwdSpec::from_kv(kv);
  return build(spec, arch);
}

}  // namespace rocke::library::kernels::conv::conv_direct_fwd
