"""Type constraints of ops.toml: "$NAME" (same type as an earlier operand) or "A|B|..." where each
alternative is a class (any, int, float, vec, vec_int, vec_float, ptr_<space>) or a concrete type
in text form (i32, rsrc, ptr<f32, global>).
"""

from __future__ import annotations

from .facts import IR_FACTS
from .types import ADDRESS_SPACES, Type, parse_type

# Class name -> the Type.category values it admits.
_CLASSES: dict[str, tuple[str, ...]] = {
    "int": ("int",),
    "float": ("float",),
    "vec": ("vec_int", "vec_float"),
    "vec_int": ("vec_int",),
    "vec_float": ("vec_float",),
    **{f"ptr_{space}": (f"ptr_{space}",) for space in ADDRESS_SPACES},
}


class Constraint:
    """A compiled constraint. same_as is the index of the referenced operand, or None."""

    __slots__ = ("accepts_any", "categories", "concrete", "pointer_spaces", "same_as", "same_as_name", "text")

    def __init__(self, text: str, earlier_operands: tuple[str, ...] = ()) -> None:
        self.text = text
        self.same_as: int | None = None
        self.same_as_name = ""
        self.accepts_any = False
        categories: set[str] = set()
        concrete: set[Type] = set()
        spaces: set[str] = set()
        if text.startswith("$"):
            name = text[1:]
            if name not in earlier_operands:
                raise ValueError(f"constraint '{text}' does not name an earlier operand")
            self.same_as = earlier_operands.index(name)
            self.same_as_name = name
        else:
            for atom in text.split("|"):
                if atom == "any":
                    self.accepts_any = True
                    spaces.update(ADDRESS_SPACES)
                elif atom in _CLASSES:
                    categories.update(_CLASSES[atom])
                    if atom.startswith("ptr_"):
                        spaces.add(atom[4:])
                else:
                    try:
                        ty = parse_type(atom)
                    except ValueError:
                        raise ValueError(f"unknown constraint alternative '{atom}' in '{text}'") from None
                    concrete.add(ty)
                    if ty.is_ptr:
                        spaces.add(ty.space)  # type: ignore[attr-defined]
        self.categories = frozenset(categories)
        self.concrete = frozenset(concrete)
        self.pointer_spaces = frozenset(spaces)

    def admits(self, ty: Type) -> bool:
        """Whether ty satisfies a class/concrete constraint (not meaningful for "$NAME")."""
        return self.accepts_any or ty.category in self.categories or ty in self.concrete

    def is_address_space_mismatch(self, ty: Type) -> bool:
        """ty is a pointer in a space this constraint never admits, while it admits other pointers."""
        return ty.is_ptr and bool(self.pointer_spaces) and ty.space not in self.pointer_spaces  # type: ignore[attr-defined]

    def single_type(self) -> Type | None:
        """The one concrete type this constraint names, if it is exactly one concrete type."""
        if self.same_as is None and not self.accepts_any and not self.categories and len(self.concrete) == 1:
            return next(iter(self.concrete))
        return None


# What a kernel parameter's type must satisfy (ir.toml [kernel] param_types).
PARAM_TYPES = Constraint(IR_FACTS["kernel"]["param_types"])
