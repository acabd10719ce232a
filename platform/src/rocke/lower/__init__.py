"""rocke.lower: KernelDef -> AMDGPU LLVM IR text, per flavor (Python engine)."""
