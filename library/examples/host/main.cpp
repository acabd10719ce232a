// rocKE example host: build a kernel of a library family from its spec string for an arch, lower it
// for an LLVM flavor and write KERNEL.ll and KERNEL.launch.json (the launch template) into a
// directory, with the C++ engine only (no Python anywhere).
// Python twin: `rocke emit FAMILY --spec KV --arch ARCH --flavor FLAVOR --out DIR` (rocke/cli).
//
//     rocke_host_example FAMILY ARCH FLAVOR "SPEC KV" OUTDIR
//
// Exit 0 and one line per written file; 1 with the refusal text (a spec both engines refuse, an
// unknown family, arch or flavor); 2 for a bad command line.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "rocke/errors.hpp"
#include "rocke/families/launch.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke_library/families.hpp"

namespace {

// Write data to path through a temporary file and a rename, so a reader never sees half a file.
void write_atomically(const std::filesystem::path& path, const std::string& data) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << data;
    if (!out) throw rocke::Error("cannot write '" + tmp.string() + "'");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: rocke_host_example FAMILY ARCH FLAVOR \"SPEC KV\" OUTDIR\n";
    return 2;
  }
  const std::string family = argv[1];
  const std::string arch = argv[2];
  const std::string flavor = argv[3];
  const std::string kv = argv[4];
  const std::filesystem::path out_dir = argv[5];
  try {
    rocke::families::FamilyRegistry& registry = rocke::library::registry_with_library();
    rocke::ir::KernelDef kernel = registry.build(family, kv, arch);
    std::string ll = rocke::lower::lower(kernel, arch, flavor);
    std::string manifest = rocke::families::launch_template_json(kernel, family, kv, arch);
    std::filesystem::create_directories(out_dir);
    const std::filesystem::path ll_path = out_dir / (kernel.name + ".ll");
    const std::filesystem::path manifest_path = out_dir / (kernel.name + ".launch.json");
    write_atomically(ll_path, ll);
    write_atomically(manifest_path, manifest);
    std::cout << "wrote " << ll_path.string() << "\n" << "wrote " << manifest_path.string() << "\n";
    return 0;
  } catch (const std::exception& exc) {
    std::cerr << "rocke_host_example: " << exc.what() << "\n";
    return 1;
  }
}
