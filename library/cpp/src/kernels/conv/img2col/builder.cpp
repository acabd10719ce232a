// Python twin: rocke_library/kernels/conv/img2col/builder.py
#include "rocke_library/kernels/conv/img2col/builder.hpp"

#include "rocke/helpers.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::conv::img2col {

using ir::Builder;
using ir::KernelDef;
using ir::Type;
using ir::Value;
using namespace rocke::helpers;

void check_arch(const Img2colSpec& spec, const arch::ArchTarget& target) {
  families::check_wave_multiple(spec, "block", spec.block, target);
}

namespace {

// Copy one tap's vector: input (row + ty * dil_h, col + tx * dil_w) -> column block `slot`.
void copy_tap(Builder& b, const Img2colSpec& spec, const Pixel& pix, std::int64_t ty, std::int64_t tx,
              std::int64_t slot, const TapCopy& copy) {
  Value* hi = add_i32(b, pix.row, ty * spec.dil_h);
  Value* wi = add_i32(b, pix.col, tx * spec.dil_w);
  Value* ok = inside(b, pix, hi, wi, copy.h, copy.w);
  Value* index = pix.base;
  if (ty != 0) index = b.add(index, mul_i32(b, copy.row_step, ty));
  if (tx != 0) index = b.add(index, mul_i32(b, copy.col_step, tx));
  Value* value = b.buffer_load(copy.src, masked_offset(b, ok, index, copy.esize), copy.vtype, "vals");
  Value* dst = slot == 0 ? copy.dst0 : b.add(copy.dst0, mul_i32(b, copy.tap_bytes, slot));
  b.buffer_store(copy.dst, dst, value);
}

}  // namespace

KernelDef build(const Img2colSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  check_arch(spec, target);
  Type elem = ir_type(spec.dtype);
  std::int64_t esize = elem_bytes(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = spec.block});
  Value* source = b.param("input", ir::ptr(elem, "global"), {.noalias = true, .readonly = true});
  Value* col = b.param("col", ir::ptr(elem, "global"), {.noalias = true, .writeonly = true});
  Value* n = b.param("n", ir::i32);
  Value* h = b.param("h", ir::i32);
  Value* w = b.param("w", ir::i32);
  Value* c = b.param("c", ir::i32);
  Value* g = b.param("g", ir::i32);

  auto [ho, wo] = out_dims(b, spec, h, w);
  Value* rows = b.mul(b.mul(n, ho), wo, "pixels");  // M: column rows per group
  Value* cg = b.divu(c, g, "cg");
  Value* kdim = mul_i32(b, cg, spec.taps());  // columns per group
  Value* vecs = divu_i32(b, cg, spec.vec);    // channel vectors per pixel and group
  Value* gid = global_id_x(b, spec.block);
  Value* grp = b.block_id_y("grp");
  Value* m = b.divu(gid, vecs, "m");
  Value* first = mul_i32(b, b.remu(gid, vecs), spec.vec);  // first channel of the vector inside the group
  Value* channel0 = b.add(b.mul(grp, cg), first, "chan");
  Pixel pix = pixel(b, spec, m, rows, {ho, wo, h, w, c}, channel0);

  Value* image = b.mul(b.mul(b.mul(n, h), w), c, "in_elems");
  Value* in_rsrc = buffer_rsrc(b, source, image, esize, "in_rsrc");
  Value* col_rsrc = buffer_rsrc(b, col, b.mul(rows, b.mul(kdim, g)), esize, "col_rsrc");
  Value* line = b.add(b.mul(grp, rows), m);
  Value* dst0 = masked_offset(b, pix.ok, b.add(b.mul(line, kdim), first), esize);  // tap 0; dropped past M
  Value* tap_bytes = mul_i32(b, cg, esize);                                         // a tap's column block
  Value* row_step = mul_i32(b, b.mul(w, c), spec.dil_h);  // input elements between two filter rows
  Value* col_step = mul_i32(b, c, spec.dil_w);            // ... between two filter columns
  TapCopy copy{in_rsrc, col_rsrc, dst0, tap_bytes, h, w, row_step, col_step, vector_type(elem, spec.vec), esize};
  for (std::int64_t ty = 0; ty < spec.filter_y; ++ty) {
    for (std::int64_t tx = 0; tx < spec.filter_x; ++tx) {
      std::int64_t tap = ty * spec.filter_x + tx;
      copy_tap(b, spec, pix, ty, tx, tap, copy);
    }
  }
  KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

KernelDef build_kv(std::string_view kv, std::string_view arch) {
  Img2colSpec spec = Img2colSpec::from_kv(kv);
  return build(spec, arch);
}

}  // namespace rocke::library::kernels::conv::img2col
