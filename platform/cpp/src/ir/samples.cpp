// Python twin: rocke/ir/samples.py
//
// C++ leaves the evaluation order of function arguments unspecified, so wherever Python builds
// two ops in one argument list (evaluated left to right), the twin below names them in separate
// statements in the same order. Braced lists (Values{...}) are evaluated left to right.
#include "rocke/ir/samples.hpp"

#include <functional>

#include "rocke/ir/builder.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir::samples {

namespace {

Value* gid_of(Builder& b) {
  Value* bid = b.block_id_x("bid");
  Value* bdim = b.block_dim_x("bdim");
  Value* base = b.mul(bid, bdim);
  Value* tid = b.thread_id_x("tid");
  return b.add(base, tid, "gid");
}

Type global(Type pointee) { return ptr(pointee, "global"); }

}  // namespace

// y[i] = a * x[i] + y[i] for i < n (f32).
KernelDef axpy() {
  Builder b("axpy", {.max_workgroup_size = 256});
  Value* x = b.param("x", global(f32), {.align = 16, .noalias = true, .readonly = true});
  Value* y = b.param("y", global(f32), {.align = 16, .noalias = true});
  Value* a = b.param("a", f32);
  Value* n = b.param("n", i32);
  Value* gid = gid_of(b);

  auto then = [&] {
    Value* xv = b.load(x, gid, {.name = "xv"});
    Value* yv = b.load(y, gid, {.name = "yv"});
    b.store(y, gid, b.fma(a, xv, yv, "r"));
  };

  b.if_(b.cmpi("slt", gid, n, "in_range"), then);
  return b.finish();
}

// For each group g < groups of 4 halves: w = reverse(truncf(extf(x[4g:4g+4]) * scale));
// y[4g:4g+4] = w; bits[2g:2g+2] = w as two i32; fbits[g] = scale's bits as i32.
KernelDef vec_ops() {
  Builder b("vec_ops", {.max_workgroup_size = 128});
  Value* x = b.param("x", global(f16), {.align = 8, .noalias = true, .readonly = true});
  Value* y = b.param("y", global(f16), {.align = 8, .noalias = true});
  Value* bits = b.param("bits", global(i32), {.align = 8, .noalias = true});
  Value* fbits = b.param("fbits", global(i32), {.noalias = true});
  Value* scale = b.param("scale", f32);
  Value* groups = b.param("groups", i32);
  Value* gid = gid_of(b);

  auto then = [&] {
    Value* base = b.mul(gid, b.const_(4, i32), "base");
    Value* halves = b.load(x, base, {.lanes = 4, .align = 8, .name = "halves"});
    Value* wide = b.extf(halves, vec(f32, 4), "wide");
    Value* scaled = b.mul(wide, b.splat(scale, 4, "scale4"), "scaled");
    Value* narrow = b.truncf(scaled, vec(f16, 4), "narrow");
    Value* rev = b.splat(b.const_(0.0, f16), 4, "rev");
    for (int lane = 0; lane < 4; ++lane) {  // host-time loop: unrolled into 4 extract/insert pairs
      rev = b.insert(rev, b.extract(narrow, lane), 3 - lane, util::cat("rev", std::to_string(lane)));
    }
    b.store(y, base, rev, {.align = 8});
    Value* pair_index = b.mul(gid, b.const_(2, i32));
    b.store(bits, pair_index, b.bitcast(rev, vec(i32, 2), "words"), {.align = 8});
    b.store(fbits, gid, b.bitcast(scale, i32, "scale_bits"));
  };

  b.if_(b.cmpi("slt", gid, groups), then);
  return b.finish();
}

// Every integer op on a[i], b[i] (i < n), folded with wrapping adds into out[i] (i32);
// out64[i] = sext(a) + zext(b); outf[i] = float(a) + float(unsigned b).
KernelDef int_ops() {
  Builder b("int_ops", {.max_workgroup_size = 64});
  Value* pa = b.param("a", global(i32), {.noalias = true, .readonly = true});
  Value* pb = b.param("b", global(i32), {.noalias = true, .readonly = true});
  Value* out = b.param("out", global(i32), {.noalias = true, .writeonly = true});
  Value* out64 = b.param("out64", global(i64), {.noalias = true, .writeonly = true});
  Value* outf = b.param("outf", global(f32), {.noalias = true, .writeonly = true});
  Value* n = b.param("n", i32);
  Value* gid = gid_of(b);

  auto then = [&] {
    Value* av = b.load(pa, gid, {.name = "av"});
    Value* bv = b.load(pb, gid, {.name = "bv"});
    Value* nz = b.or_(bv, b.const_(1, i32), "nonzero");  // odd, so never zero
    Value* amount = b.and_(bv, b.const_(31, i32), "amount");
    Values terms{
        b.divs(av, nz), b.divu(av, nz), b.rems(av, nz), b.remu(av, nz), b.shl(av, amount),
        b.shrs(av, amount), b.shru(av, amount), b.xor_(av, bv), b.sub(av, bv), b.mul(av, bv),
        b.mins(av, bv), b.maxs(av, bv), b.minu(av, bv), b.maxu(av, bv),
    };
    Value* below = b.cmpi("ult", av, bv);
    Value* minus7 = b.const_(-7, i32);
    Value* low_mask = b.const_(0xFFFF, i32);
    terms.push_back(b.select(below, minus7, low_mask));
    terms.push_back(b.exts(b.trunc(av, i16, "low16"), i32));
    Value* total = terms[0];
    for (std::size_t t = 1; t < terms.size(); ++t) total = b.add(total, terms[t]);
    Value* fa = b.sitofp(av, f32, "fa");
    Value* fb = b.uitofp(bv, f32, "fb");
    total = b.add(total, b.fptosi(b.mul(fa, b.const_(0.5, f32)), i32), "total");
    total = b.add(total, b.fptoui(b.mul(fb, b.const_(0.25, f32)), i32), "total");
    b.store(out, gid, total);
    Value* sa = b.exts(av, i64);
    Value* zb = b.extu(bv, i64);
    b.store(out64, gid, b.add(sa, zb, "wide"));
    b.store(outf, gid, b.add(fa, fb));
  };

  b.if_(b.cmpi("slt", gid, n), then);
  return b.finish();
}

// Every float op on x[i] (f32), h[i] (f16), g[i] (bf16), i < n. Writes y[i] = sum of the math
// terms, yh[i] = f16(min/max mix), yg[i] = bf16(x * 2 - h).
KernelDef float_math() {
  Builder b("float_math", {.max_workgroup_size = 128, .waves_per_eu = 2});
  Value* px = b.param("x", global(f32), {.align = 4, .noalias = true, .readonly = true});
  Value* ph = b.param("h", global(f16), {.align = 2, .noalias = true, .readonly = true});
  Value* pg = b.param("g", global(bf16), {.align = 2, .noalias = true, .readonly = true});
  Value* py = b.param("y", global(f32), {.noalias = true});
  Value* pyh = b.param("yh", global(f16), {.noalias = true});
  Value* pyg = b.param("yg", global(bf16), {.noalias = true});
  Value* n = b.param("n", i32);
  Value* gid = gid_of(b);

  auto then = [&] {
    Value* xv = b.load(px, gid, {.name = "xv"});
    Value* hv = b.extf(b.load(ph, gid), f32, "hv");
    Value* gv = b.extf(b.load(pg, gid), f32, "gv");
    Value* one = b.const_(1.0, f32);
    Value* mag = b.add(b.maxf(xv, b.negf(xv)), one, "mag");  // |x| + 1 > 0
    Values terms{
        b.exp2(b.minf(xv, b.const_(8.0, f32))), b.log2(mag), b.rcp(mag), b.sqrt(mag), b.rsqrt(mag),
        b.divf(hv, mag), b.remf(gv, mag),
    };
    Value* total = terms[0];
    for (std::size_t t = 1; t < terms.size(); ++t) total = b.add(total, terms[t]);
    Value* positive = b.cmpf("ogt", xv, b.const_(0.0, f32), "positive");
    total = b.select(positive, total, b.fma(total, b.const_(-0.5, f32), one), "total");
    b.store(py, gid, total);
    Value* low = b.minf(hv, gv);
    Value* diff = b.sub(xv, hv);
    b.store(pyh, gid, b.truncf(b.maxf(low, diff), f16));
    b.store(pyg, gid, b.truncf(b.sub(b.mul(xv, b.const_(2.0, f32)), hv), bf16));
  };

  b.if_(b.cmpi("slt", gid, n), then);
  return b.finish();
}

// One workgroup of block_dim_x threads; per thread t (lane l, wave w): out[4t+0] = x[t ^ 1
// within its 32-lane half] (ds_swizzle xor 1), out[4t+1] = x of lane l ^ 1 via ds_bpermute,
// out[4t+2] = x of the wave's first lane, out[4t+3] = x of lane l ^ 2 (shuffle_xor);
// ids[2t] = w * wave_size + l (== t), ids[2t+1] = wave_size.
KernelDef xlane_ops() {
  Builder b("xlane_ops", {.max_workgroup_size = 256});
  Value* px = b.param("x", global(f32), {.noalias = true, .readonly = true});
  Value* out = b.param("out", global(f32), {.noalias = true});
  Value* ids = b.param("ids", global(i32), {.noalias = true});
  Value* tid = b.thread_id_x("tid");
  Value* lane = b.lane_id("lane");
  Value* wave = b.wave_id("wave");
  Value* wsize = b.wave_size("wsize");
  Value* xv = b.load(px, tid, {.name = "xv"});
  Value* swz = b.ds_swizzle(xv, 0x041F, "swz");  // bitmask mode: and 0x1F, or 0, xor 1
  Value* flipped = b.xor_(lane, b.const_(1, i32));
  Value* addr = b.shl(flipped, b.const_(2, i32), "addr");
  Value* perm = b.ds_bpermute(addr, xv, "perm");
  Value* first = b.readfirstlane(xv, "first");
  Value* shuf = b.shuffle_xor(xv, 2, "shuf");
  Value* swap = b.lds_alloc(f32, 256, {.name = "swap"});
  b.lds_store(swap, tid, xv);
  b.wave_lds_fence();  // t ^ 1 is a lane of the same wave
  Value* near = b.lds_load(swap, b.xor_(tid, b.const_(1, i32)), {.name = "near"});
  Value* base = b.mul(tid, b.const_(5, i32), "base");
  Values lanes_out{swz, perm, first, shuf, near};
  for (std::size_t k = 0; k < lanes_out.size(); ++k) {
    b.store(out, b.add(base, b.const_(static_cast<int>(k), i32)), lanes_out[k]);
  }
  Value* two_t = b.mul(tid, b.const_(2, i32));
  b.store(ids, two_t, b.add(b.mul(wave, wsize), lane, "flat"));
  b.store(ids, b.add(two_t, b.const_(1, i32)), wsize);
  return b.finish();
}

// out[0] += sum(x[0:n]) (f32, atomic). Launch: block_dim_x a multiple of 32, up to 256. Each
// 32-lane group reduces with shuffle_xor, group sums meet in LDS, thread 0 adds them.
KernelDef block_reduce() {
  Builder b("block_reduce", {.max_workgroup_size = 256});
  Value* px = b.param("x", global(f32), {.noalias = true, .readonly = true});
  Value* out = b.param("out", global(f32));
  Value* n = b.param("n", i32);
  Value* partial = b.lds_alloc(f32, 8, {.align = 16, .name = "partial"});
  Value* tid = b.thread_id_x("tid");
  Value* gid = gid_of(b);
  Value* zero = b.const_(0.0, f32, "zero");
  Value* value = b.if_(
      b.cmpi("slt", gid, n), [&] { return Values{b.load(px, gid)}; }, [&] { return Values{zero}; },
      {.names = Names{"value"}})[0];
  for (int mask : {16, 8, 4, 2, 1}) value = b.add(value, b.shuffle_xor(value, mask), "value");
  Value* c32 = b.const_(32, i32);
  Value* group = b.divu(tid, c32, "group");

  auto leader = [&] { b.lds_store(partial, group, value); };

  Value* lane_in_group = b.remu(tid, c32);
  Value* zero_i = b.const_(0, i32);
  b.if_(b.cmpi("eq", lane_in_group, zero_i), leader);
  b.barrier();

  auto first_thread = [&] {
    Value* dim = b.block_dim_x();
    Value* rounded = b.add(dim, b.const_(31, i32));
    Value* groups = b.divu(rounded, c32, "groups");

    auto body = [&](Value* g, Value* acc) { return Values{b.add(acc, b.lds_load(partial, g), "acc")}; };

    Value* lb = b.const_(0, i32);
    Value* step = b.const_(1, i32);
    Value* total = b.for_(lb, groups, step, {zero}, body, {.names = Names{"acc"}, .iv_name = "g"})[0];
    b.atomic_add_f32(out, b.const_(0, i32), total);
  };

  b.if_(b.cmpi("eq", tid, b.const_(0, i32)), first_thread);
  return b.finish();
}

// dst[16 bytes at 16 * gid] = src[same] through raw buffers over nbytes bytes (out of range
// reads give zero, writes are dropped); scaled[gid] = lut[gid % 16 + 1] * 2 via a constant pointer.
KernelDef buffer_copy() {
  Builder b("buffer_copy", {.max_workgroup_size = 64});
  Value* src = b.param("src", global(i32), {.align = 16, .readonly = true});
  Value* dst = b.param("dst", global(i32), {.align = 16, .writeonly = true});
  Value* lut = b.param("lut", ptr(f32, "constant"), {.readonly = true});
  Value* scaled = b.param("scaled", global(f32));
  Value* nbytes = b.param("nbytes", i32);
  Value* gid = gid_of(b);
  Value* rsrc_in = b.make_rsrc(src, nbytes, "rsrc_in");
  Value* rsrc_out = b.make_rsrc(dst, nbytes, "rsrc_out");
  Value* offset = b.mul(gid, b.const_(16, i32), "offset");
  Value* data = b.buffer_load(rsrc_in, offset, vec(i32, 4), "data");
  b.waitcnt({.vmcnt = 0});
  b.buffer_store(rsrc_out, offset, data);
  Value* shifted = b.ptr_add(lut, b.const_(1, i32), "lut1");
  Value* entry = b.load(shifted, b.remu(gid, b.const_(16, i32)), {.name = "entry"});
  b.store(scaled, gid, b.mul(entry, b.const_(2.0, f32)));
  b.waitcnt({.vmcnt = -1, .lgkmcnt = 0});
  return b.finish();
}

// 3-D launch; flat = ((bz * dy + by) * dx + bx) over blocks and threads of all dims.
// out[flat] = sum over j < m of (j odd ? a[j] : 2 * a[j]) + (flat < m ? 1 : 0), summed with an
// i64 loop nested in an i32 loop (outer over 2 halves of j).
KernelDef nested_control() {
  Builder b("nested_control", {.max_workgroup_size = 512});
  Value* pa = b.param("a", global(f32), {.noalias = true, .readonly = true});
  Value* out = b.param("out", global(f32), {.noalias = true});
  Value* m = b.param("m", i32);
  Value* tx = b.thread_id_x();
  Value* ty = b.thread_id_y();
  Value* tz = b.thread_id_z();
  Value* bx = b.block_id_x();
  Value* by = b.block_id_y();
  Value* bz = b.block_id_z();
  Value* dx = b.block_dim_x();
  Value* dy = b.block_dim_y();
  Value* dz = b.block_dim_z();
  // global coordinates per dimension, then a row-major flat index over (z, y, x)
  Value* gx = b.add(b.mul(bx, dx), tx, "gx");
  Value* gy = b.add(b.mul(by, dy), ty, "gy");
  Value* gz = b.add(b.mul(bz, dz), tz, "gz");
  Value* width = b.mul(dx, b.const_(2, i32), "width");  // launches use 2 blocks in x and y
  Value* height = b.mul(dy, b.const_(2, i32), "height");
  Value* flat = b.add(b.mul(b.add(b.mul(gz, height), gy), width), gx, "flat");
  Value* half = b.divs(m, b.const_(2, i32), "half");
  Value* zero = b.const_(0.0, f32);

  auto outer = [&](Value* h, Value* acc) {
    Value* start = b.exts(b.mul(h, half), i64, "start");
    Value* last_half = b.cmpi("eq", h, b.const_(1, i32));
    Value* whole = b.exts(m, i64);
    Value* next = b.exts(b.add(b.mul(h, half), half), i64);
    Value* stop = b.select(last_half, whole, next);

    auto inner = [&](Value* j, Value* acc_in) {
      Value* row = b.ptr_add(pa, j, "row");
      Value* v = b.load(row, b.const_(0, i64), {.name = "v"});
      Value* low_bit = b.and_(j, b.const_(1, i64));
      Value* odd = b.cmpi("ne", low_bit, b.const_(0, i64), "odd");
      Value* term = b.if_(
          odd, [&] { return Values{v}; }, [&] { return Values{b.add(v, v)}; }, {.names = Names{"term"}})[0];
      return Values{b.add(acc_in, term)};
    };

    Value* acc_out = b.for_(start, stop, b.const_(1, i64), {acc}, inner, {.names = Names{"acc"}, .iv_name = "j"})[0];
    return Values{acc_out};
  };

  Value* lb = b.const_(0, i32);
  Value* ub = b.const_(2, i32);
  Value* step = b.const_(1, i32);
  Value* total = b.for_(lb, ub, step, {zero}, outer, {.names = Names{"acc"}, .iv_name = "h"})[0];
  Value* in_range = b.cmpi("slt", flat, m);
  Value* bonus = b.select(in_range, b.const_(1.0, f32), zero, "bonus");
  b.store(out, flat, b.add(total, bonus));
  return b.finish();
}

// One wave64 computes C (16x16, f32, row-major) = A (16xK f16, row-major) * B, B given as B^T
// (16xK f16, row-major), K a multiple of 16, with op mfma_f32_16x16x16_f16. Lane l holds
// A[l % 16][k0 + 4 (l / 16) + 0..3], B^T likewise, and C rows 4 (l / 16) + 0..3 of column l % 16.
KernelDef gemm_mfma() {
  Builder b("gemm_mfma", {.max_workgroup_size = 64});
  Value* pa = b.param("a", global(f16), {.align = 8, .noalias = true, .readonly = true});
  Value* pbt = b.param("bt", global(f16), {.align = 8, .noalias = true, .readonly = true});
  Value* pc = b.param("c", global(f32), {.noalias = true, .writeonly = true});
  Value* k = b.param("k", i32);
  Value* lane = b.lane_id("lane");
  Value* c16 = b.const_(16, i32);
  Value* row = b.remu(lane, c16, "row");
  Value* quad = b.divu(lane, c16, "quad");
  Value* kofs = b.mul(quad, b.const_(4, i32), "kofs");
  Value* acc0 = b.splat(b.const_(0.0, f32), 4, "acc");

  auto body = [&](Value* k0, Value* acc) {
    Value* col = b.add(k0, kofs, "col");
    Value* afrag = b.load(pa, b.add(b.mul(row, k), col), {.lanes = 4, .align = 8, .name = "afrag"});
    Value* bfrag = b.load(pbt, b.add(b.mul(row, k), col), {.lanes = 4, .align = 8, .name = "bfrag"});
    return Values{b.mma(kMfmaOpId, afrag, bfrag, acc, "acc")};
  };

  Value* acc = b.for_(b.const_(0, i32), k, c16, {acc0}, body, {.names = Names{"acc"}, .iv_name = "k0"})[0];
  for (int j = 0; j < 4; ++j) {
    Value* out_row = b.add(kofs, b.const_(j, i32));
    Value* index = b.add(b.mul(out_row, c16), row);
    b.store(pc, index, b.extract(acc, j, util::cat("d", std::to_string(j))));
  }
  return b.finish();
}

// One wave32 computes C (16x16 f32) = A (16x16 f16) * B, B given as B^T, with op
// wmma_f32_16x16x16_f16_gfx11. Lane l holds row l % 16 of A and of B^T (all 16 k; lanes 16-31
// repeat lanes 0-15) and C rows 2 j + l / 16 of column l % 16 in slot j.
KernelDef gemm_wmma() {
  Builder b("gemm_wmma", {.max_workgroup_size = 32});
  Value* pa = b.param("a", global(f16), {.align = 32, .noalias = true, .readonly = true});
  Value* pbt = b.param("bt", global(f16), {.align = 32, .noalias = true, .readonly = true});
  Value* pc = b.param("c", global(f32), {.noalias = true, .writeonly = true});
  Value* lane = b.lane_id("lane");
  Value* c16 = b.const_(16, i32);
  Value* row = b.remu(lane, c16, "row");
  Value* half = b.divu(lane, c16, "half");
  Value* start = b.mul(row, c16, "start");
  Value* afrag = b.load(pa, start, {.lanes = 16, .align = 32, .name = "afrag"});
  Value* bfrag = b.load(pbt, start, {.lanes = 16, .align = 32, .name = "bfrag"});
  Value* acc = b.mma(kWmmaOpId, afrag, bfrag, b.splat(b.const_(0.0, f32), 8), "acc");
  for (int j = 0; j < 8; ++j) {
    Value* out_row = b.add(b.const_(2 * j, i32), half);
    Value* index = b.add(b.mul(out_row, c16), row);
    b.store(pc, index, b.extract(acc, j, util::cat("d", std::to_string(j))));
  }
  return b.finish();
}

const std::vector<std::string>& sample_names() {
  static const std::vector<std::string> names{"axpy",         "vec_ops",     "int_ops",        "float_math",
                                              "xlane_ops",    "block_reduce", "buffer_copy", "nested_control",
                                              "gemm_mfma",    "gemm_wmma"};
  return names;
}

std::vector<std::pair<std::string, KernelDef>> sample_kernels() {
  static const std::vector<std::pair<std::string, KernelDef (*)()>> builders{
      {"axpy", axpy},           {"vec_ops", vec_ops},         {"int_ops", int_ops},
      {"float_math", float_math}, {"xlane_ops", xlane_ops},   {"block_reduce", block_reduce},
      {"buffer_copy", buffer_copy}, {"nested_control", nested_control}, {"gemm_mfma", gemm_mfma},
      {"gemm_wmma", gemm_wmma},
  };
  std::vector<std::pair<std::string, KernelDef>> out;
  for (const auto& [name, build] : builders) out.emplace_back(name, build());
  return out;
}

}  // namespace rocke::ir::samples
