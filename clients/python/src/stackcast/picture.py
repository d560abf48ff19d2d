"""Draws a display list (docs/protocol.md §3.1) with Pillow: fills with alpha, rounded corners,
borders, blurred shadows, texts in their font size, weight and alignment, icons as simple marks,
each clipped to its `clip`. Enough to attach to a bug report, not a pixel match of the viewer."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw, ImageFilter, ImageFont

Box = tuple[int, int, int, int]


def rgba(colour: str, alpha: float = 1) -> tuple[int, int, int, int]:
    """`#RRGGBB` or `#RRGGBBAA`, times `alpha`."""
    digits = colour.lstrip("#")
    r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    a = int(digits[6:8], 16) if len(digits) == 8 else 255
    return r, g, b, round(a * max(0.0, min(1.0, alpha)))


@lru_cache(maxsize=64)
def font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans when the system has it, else Pillow's own font, at `size` pixels."""
    for name in (("DejaVuSans-Bold.ttf", "DejaVuSans.ttf") if bold else ("DejaVuSans.ttf",)):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def draw(nodes: Sequence[dict[str, Any]], width: float, height: float, scale: float = 2) -> Image.Image:
    """The picture of `nodes` (back to front) on a `width` × `height` point viewport."""
    image = Image.new("RGBA", (max(1, round(width * scale)), max(1, round(height * scale))), (255, 255, 255, 255))
    for node in nodes:
        _draw_node(image, node, scale)
    return image


def _box(rect: Sequence[float], scale: float) -> Box:
    x, y, w, h = rect
    return round(x * scale), round(y * scale), round((x + w) * scale), round((y + h) * scale)


def _intersect(a: Box, b: Box) -> Box | None:
    box = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return box if box[0] < box[2] and box[1] < box[3] else None


def _draw_node(image: Image.Image, node: dict[str, Any], scale: float) -> None:
    alpha = float(node.get("alpha", 1))
    box = _box(node["frame"], scale)
    shadow = node.get("shadow")
    margin = round((shadow["blur"] + abs(shadow["x"]) + abs(shadow["y"])) * scale) + 2 if shadow else 0
    # The area this node may paint: its box (and its shadow's), within its clip and the image.
    reach = (box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)
    limit = _box(node["clip"], scale) if node.get("clip") else (0, 0, image.width, image.height)
    area = _intersect(_intersect(reach, limit) or (0, 0, 0, 0), (0, 0, image.width, image.height))
    if area is None or alpha <= 0:
        return
    layer = Image.new("RGBA", (area[2] - area[0], area[3] - area[1]), (0, 0, 0, 0))
    local = (box[0] - area[0], box[1] - area[1], box[2] - area[0] - 1, box[3] - area[1] - 1)
    radius = round(float(node.get("radius", 0)) * scale)
    if shadow:
        _shadow(layer, local, radius, shadow, alpha, scale)
    pen = ImageDraw.Draw(layer)
    if node.get("fill") and local[2] >= local[0] and local[3] >= local[1]:
        pen.rounded_rectangle(local, radius, fill=rgba(node["fill"], alpha))
    border = node.get("border")
    if border and border.get("width", 0) > 0:
        pen.rounded_rectangle(local, radius, outline=rgba(border["color"], alpha),
                              width=max(1, round(border["width"] * scale)))
    if node.get("text"):
        _text(pen, local, node, alpha, scale)
    elif node.get("icon"):
        _icon(pen, local, node, alpha, scale)
    image.alpha_composite(layer, (area[0], area[1]))


def _shadow(layer: Image.Image, box: Box, radius: int, shadow: dict[str, Any], alpha: float, scale: float) -> None:
    blur = max(0.0, float(shadow.get("blur", 0)) * scale / 2)
    dx, dy = round(shadow.get("x", 0) * scale), round(shadow.get("y", 0) * scale)
    mark = Image.new("RGBA", layer.size, (0, 0, 0, 0))
    ImageDraw.Draw(mark).rounded_rectangle((box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy), radius,
                                           fill=rgba(shadow["color"], alpha))
    layer.alpha_composite(mark.filter(ImageFilter.GaussianBlur(blur)) if blur else mark)


def _text(pen: ImageDraw.ImageDraw, box: Box, node: dict[str, Any], alpha: float, scale: float) -> None:
    spec = node.get("font") or {"size": 17, "weight": 400}
    face = font(max(1, round(spec.get("size", 17) * scale)), spec.get("weight", 400) >= 600)
    colour = rgba(node.get("color", "#000000"), alpha)
    align = node.get("align", "left")
    anchor = {"left": "lm", "center": "mm", "right": "rm"}.get(align, "lm")
    x = {"left": box[0], "center": (box[0] + box[2]) / 2, "right": box[2]}.get(align, box[0])
    pen.text((x, (box[1] + box[3]) / 2), node["text"], font=face, fill=colour, anchor=anchor)


def _icon(pen: ImageDraw.ImageDraw, box: Box, node: dict[str, Any], alpha: float, scale: float) -> None:
    """A chevron for `back` and `chevron.right`, a ring for any other icon name."""
    colour = rgba(node.get("color", "#007AFF"), alpha)
    x0, y0, x1, y1 = box
    width = max(1, round(2 * scale))
    if node["icon"] in ("back", "chevron.right"):
        tip, tail = (x0, x1) if node["icon"] == "back" else (x1, x0)
        pen.line([(tail, y0), (tip, (y0 + y1) / 2), (tail, y1)], fill=colour, width=width)
    else:
        side = min(x1 - x0, y1 - y0)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        pen.ellipse((cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2), outline=colour, width=width)
