"""Protocol v2 for the end-to-end tests: the decoder and the tree model are the `stackcast`
package's (`stackcast.wire`, written from docs/protocol.md §3.5 and §3.6 with the constants of
docs/wire/binary-v2.json, independent of the server's Swift code and of the web viewer's
JavaScript), re-exported here; `compare_pictures`
compares two v1-shaped display lists.

- `decode_frame(data, strings, held)`: one binary frame, for a client holding the frame whose
  (seq, time) is `held`, -> `(frame, table, info)`: the dict the same
  frame parses to as JSON v2 (a patch's frame components it does not carry are None), the string
  table after it, and `first`, `count`, `size`.
- `LayerTree`: the client's copy of the tree (`apply`, `flatten`, `canonical`, `unchanged`,
  `deviations`).
- `TreeDisplay`: a `LayerTree` plus, for binary, the string table: what a v2 viewer holds.
- `patches_of(set, where)`: a delta's `set` (JSON v2 lists it by field) as one patch per layer.
"""

from stackcast.wire import LayerTree, TreeDisplay, WireError, decode_frame, varint_encode, zigzag_encode  # noqa: F401
from stackcast.wire.tree import patches_of  # noqa: F401


# MARK: - comparing pictures


def compare_pictures(v1_nodes, v2_nodes, frame_tol=0.02, alpha_tol=0.002, edge_tol=None, viewport=None):
    """Differences between two v1-shaped display lists: ids and their order, frames (and clips)
    within `frame_tol`, alpha within `alpha_tol`, corner radii within `frame_tol`, scale within
    0.0001, every other field equal (radius and clipRadius 0 = absent, scale 1 = absent).
    With `edge_tol`, a node present in only one list is forgiven when its frame touches its clip's
    edge (its `clip`, else the `viewport` (W, H)) within `edge_tol`: rounding each level's frame
    (v2) instead of the absolute one (v1) can tip a touching edge either way. Returns a list of
    strings, empty when the pictures agree."""
    problems = []
    a = {n["id"]: n for n in v1_nodes}
    b = {n["id"]: n for n in v2_nodes}
    only_a = [i for i in a if i not in b]
    only_b = [i for i in b if i not in a]
    if edge_tol is not None:
        only_a = [i for i in only_a if not _touches_edge(a[i], edge_tol, viewport)]
        only_b = [i for i in only_b if not _touches_edge(b[i], edge_tol, viewport)]
    if only_a:
        problems.append(f"only in the first: {[(i, a[i].get('role'), a[i].get('name'), a[i]['frame']) for i in only_a]}")
    if only_b:
        problems.append(f"only in the second: {[(i, b[i].get('role'), b[i].get('name'), b[i]['frame']) for i in only_b]}")
    common = set(a) & set(b)
    order_a = [n["id"] for n in v1_nodes if n["id"] in common]
    order_b = [n["id"] for n in v2_nodes if n["id"] in common]
    if order_a != order_b:
        problems.append(f"order differs: {order_a} vs {order_b}")
    for node_id in order_a:
        x, y = a[node_id], b[node_id]
        for key in sorted(set(x) | set(y)):
            p, q = x.get(key), y.get(key)
            if key in ("radius", "clipRadius"):
                p, q = p or 0, q or 0
            if key == "scale":
                p, q = p or 1, q or 1
            if key in ("radius", "clipRadius", "scale") and abs(p - q) <= (frame_tol if key != "scale" else 0.0001):
                continue
            if key in ("frame", "clip") and p is not None and q is not None:
                if len(p) != 4 or len(q) != 4 or any(abs(u - v) > frame_tol for u, v in zip(p, q)):
                    problems.append(f"node {node_id} {key}: {p} vs {q}")
            elif key == "alpha" and p is not None and q is not None:
                if abs(p - q) > alpha_tol:
                    problems.append(f"node {node_id} alpha: {p} vs {q}")
            elif p != q:
                problems.append(f"node {node_id} {key}: {p!r} vs {q!r}")
    return problems


def _touches_edge(node, tol, viewport):
    x, y, w, h = node["frame"]
    cx, cy, cw, ch = node.get("clip") or [0, 0, *viewport]
    gaps = [x + w - cx, cx + cw - x, y + h - cy, cy + ch - y]
    return min(gaps) <= tol
