"""Protocol v1 frames (docs/protocol.md §3.3, §3.4) on the client side: `DisplayList` holds the flat
list of nodes with absolute frames and applies full frames and deltas to it, refusing (with
`WireError`, changing nothing) any frame that does not fit the picture it holds."""

from __future__ import annotations

import copy
from typing import Any

from ..errors import WireError
from .delta import check_base

Node = dict[str, Any]
Frame = dict[str, Any]


def check_node(node: Any, where: str) -> None:
    """A new node must have an integer id, a kind, a frame of four numbers and no null field."""
    if not isinstance(node, dict) or not isinstance(node.get("id"), int):
        raise WireError(f"{where}: a node without an integer id: {str(node)[:200]}")
    if node.get("kind") not in ("rect", "text", "icon"):
        raise WireError(f"{where}: new node {node['id']} has kind {node.get('kind')!r}")
    frame = node.get("frame")
    if not (isinstance(frame, list) and len(frame) == 4 and all(isinstance(v, (int, float)) for v in frame)):
        raise WireError(f"{where}: new node {node['id']} has frame {frame!r}")
    if any(value is None for value in node.values()):
        raise WireError(f"{where}: new node {node['id']} has null fields: {node}")


class DisplayList:
    """The v1 display list: nodes by id and their paint order, back to front."""

    def __init__(self, keep_snapshots: bool = False) -> None:
        self.nodes: dict[int, Node] = {}     # id -> node
        self.order: list[int] = []           # paint order
        self.seq: int | None = None          # seq of the last frame applied
        self.time: float | None = None       # its time (ms)
        self.keep_snapshots = keep_snapshots
        """Keep the display list after every frame in `snapshots` (by seq)."""
        self.snapshots: dict[int, list[Node]] = {}
        # A seq from `assume` or a welcome: a full frame may then restart the seqs (a new session).
        self.assumed = False
        # Fields a delta sent although they did not change (the spec sends only changed fields):
        # counted, not fatal, for checking a server.
        self.unchanged_fields = 0
        self.unchanged_example: str | None = None

    def apply(self, frame: Frame) -> None:
        """Applies a full frame or a delta; raises WireError, changing nothing, when it does not fit."""
        seq = frame.get("seq")
        if not isinstance(seq, int):
            raise WireError(f"frame without an integer seq: {str(frame)[:200]}")
        time_ms = frame.get("time")
        if not isinstance(time_ms, (int, float)):
            raise WireError(f"frame {seq} without a numeric time")
        if self.time is not None and time_ms < self.time and not frame.get("full"):
            raise WireError(f"frame {seq} has time {time_ms}, before the previous frame's {self.time}")
        if self.seq is not None and seq <= self.seq and not (self.assumed and frame.get("full")):
            raise WireError(f"frame seq {seq} after seq {self.seq}")
        unchanged: list[str] = []
        if frame.get("full"):
            nodes, order = self._full(frame, seq)
        else:
            nodes, order = self._patched(frame, seq, unchanged)
        self.nodes, self.order = nodes, order
        self.seq, self.time = seq, time_ms
        self.assumed = False
        for text in unchanged:
            self.unchanged_fields += 1
            if self.unchanged_example is None:
                self.unchanged_example = text
        if self.keep_snapshots:
            self.snapshots[seq] = self.display_list()

    def _full(self, frame: Frame, seq: int) -> tuple[dict[int, Node], list[int]]:
        listed = frame.get("nodes")
        if not isinstance(listed, list):
            raise WireError("full frame without nodes")
        nodes: dict[int, Node] = {}
        order: list[int] = []
        for node in listed:
            check_node(node, f"full frame {seq}")
            if node["id"] in nodes:
                raise WireError(f"full frame {seq}: id {node['id']} twice")
            nodes[node["id"]] = dict(node)
            order.append(node["id"])
        return nodes, order

    def _patched(self, frame: Frame, seq: int, unchanged: list[str]) -> tuple[dict[int, Node], list[int]]:
        check_base(frame, seq, self.seq)
        nodes = dict(self.nodes)                # node dicts copied on write
        added: list[int] = []
        for patch in frame.get("set", []):
            node_id = patch.get("id") if isinstance(patch, dict) else None
            if node_id in nodes:
                node = dict(nodes[node_id])
                if len(patch) < 2:
                    unchanged.append(f"delta {seq}: a patch for node {node_id} with no field")
                for key, value in patch.items():
                    if key == "id":
                        continue
                    if value is None:
                        if key not in node:
                            unchanged.append(f"delta {seq}: node {node_id} deletes {key}, which it does not have")
                        node.pop(key, None)
                    else:
                        if node.get(key) == value:
                            unchanged.append(f"delta {seq}: node {node_id} sends {key} = {value!r} unchanged")
                        node[key] = value
                nodes[node_id] = node
            else:
                check_node(patch, f"delta {seq}")
                nodes[patch["id"]] = dict(patch)
                added.append(patch["id"])
        for node_id in frame.get("remove", []):
            if node_id not in nodes:
                raise WireError(f"delta {seq} removes id {node_id}, which is not in the list")
            del nodes[node_id]
        if "order" in frame:
            order = frame["order"]
            if len(order) != len(set(order)) or set(order) != set(nodes):
                raise WireError(f"delta {seq}: order {order} does not match the nodes {sorted(nodes)}")
            if order == self.order:
                raise WireError(f"delta {seq} sends order although it did not change")
            return nodes, list(order)
        # No `order`: the old order minus removed ids, then the new ids in `set` order (§3.4).
        new = set(added)
        kept = [i for i in self.order if i in nodes and i not in new]
        return nodes, kept + [i for i in added if i in nodes]

    def assume(self, nodes: list[Node], seq: int) -> None:
        """Starts from `nodes` as frame `seq` (what a client resuming with `lastSeq` holds)."""
        self.nodes = {n["id"]: copy.deepcopy(n) for n in nodes}
        self.order = [n["id"] for n in nodes]
        self.seq = seq
        self.assumed = True

    def display_list(self) -> list[Node]:
        """The display list, back to front (copies)."""
        return [copy.deepcopy(self.nodes[i]) for i in self.order]

    def flatten(self) -> list[Node]:
        """The display list, back to front (the same as `display_list`; named as the tree's)."""
        return self.display_list()

    def find(self, role: str | None = None, name: str | None = None) -> list[Node]:
        """The nodes with that role and/or name, back to front (the held dicts, not copies)."""
        return [n for n in (self.nodes[i] for i in self.order)
                if (role is None or n.get("role") == role) and (name is None or n.get("name") == name)]

    def pages(self) -> list[Node]:
        """The `page` nodes, back to front."""
        return self.find(role="page")
