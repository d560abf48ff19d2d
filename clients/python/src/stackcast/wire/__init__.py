"""Frame models: v1's flat display list (`DisplayList`), v2's layer tree (`LayerTree`,
`TreeDisplay`) and v2's binary decoder (`decode_frame`, in `binary`). Pure Python, no I/O: usable
on their own to apply frames recorded elsewhere."""

from ..errors import WireError
from .binary import decode_frame, resolve_patches, varint_encode, zigzag_encode
from .tree import LayerTree, Picture, TreeDisplay
from .v1 import DisplayList

__all__ = ["DisplayList", "LayerTree", "Picture", "TreeDisplay", "WireError", "decode_frame", "resolve_patches",
           "varint_encode", "zigzag_encode"]
