"""Schema comparison: walk two JSON Schemas side by side and classify every difference.

Local `$ref`s are followed on both sides before comparing, so moving a subschema into `$defs` is no
change; each finding carries the pointer where the compared part really lives in each version. A
pair of locations already being compared higher up the walk is a recursion and counts as equal
(coinduction), so recursive schemas terminate. What no rule covers is reported as TG441 and needs
a major bump (fail closed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolgen.compat import keywords as kw
from toolgen.compat.canonical import COMBINATORS, kinds, normalize, within
from toolgen.compat.model import ABSENT, Assume, Bump, Change, Direction
from toolgen.compat.objects import compare_objects
from toolgen.compat.refs import STRUCTURE, lookup, merge
from toolgen.compat.table import DECISIONS
from toolgen.compat.wraps import compare_wrap
from toolgen.frozen import thaw
from toolgen.positions import escape, unescape
from toolgen.render.markdown import code

MAX_DEPTH = 64
"""Deeper than this the walk stops and reports TG442 (fail closed)."""

_HANDLED = kw.LEAF_KEYWORDS | STRUCTURE | {
    "default", "properties", "required", "additionalProperties", "items", "prefixItems", "contains",
    "anyOf", "oneOf", "allOf", "not",
}  # fmt: skip
_NAMES_ITS_PROPERTY = frozenset({"TG420", "TG421", "TG422", "TG423", "TG424"})
_NAMED = frozenset({"properties", "$defs", "definitions"})
_INDEXED = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SHAPES = {"items": "[]", "additionalProperties": "{}", "contains": "[?]", "not": "!"}


def _quote(name: str) -> str:
    """A property path as a code span that holds backticks too (findings are also Markdown)."""
    return code(name, in_table=False)


class SchemaDiff:
    """Compare one schema of a tool (its input or its output) between base and head."""

    def __init__(
        self,
        direction: Direction,
        base: Any,
        head: Any,
        base_at: str,
        head_at: str,
        *,
        assume: Assume = Assume.DECLARED,
    ) -> None:
        self.direction = direction
        self.roots = (base, head)
        self.prefixes = (base_at, head_at)
        self.assume = assume
        self.changes: list[Change] = []
        self._active: set[tuple[str, str, str, str]] = set()
        self._done: set[tuple[str, str, str, str]] = set()

    quote = staticmethod(_quote)

    def probe(self, direction: Direction, old: Any, new: Any, at: tuple[str, str], depth: int) -> list[Change]:
        """The changes between two parts of these schemas, found by a separate walk (nothing is recorded here)."""
        walk = SchemaDiff(direction, *self.roots, *self.prefixes, assume=self.assume)
        walk.compare(old, new, at[0], at[1], depth)
        return walk.changes

    def run(self) -> list[Change]:
        """Every change between the two schemas, in walk order."""
        self.compare(self.roots[0], self.roots[1], self.prefixes[0], self.prefixes[1], 0)
        return self.changes

    def add(self, code: str, at: tuple[str, str], old: Any, new: Any, message: str) -> None:
        """Record a finding of rule `code` at (base pointer, head pointer), naming the property it is in:
        the longer path of the two, preferring a side that is not inside `$defs` (whose path starts
        at a definition's name, not at a property callers know)."""
        sides = [(self.label(at[side], side), self._in_defs(at[side], side)) for side in (0, 1)]
        subject = max((label for label, in_defs in sides if not in_defs), default=sides[0][0], key=len)
        if subject and code not in _NAMES_ITS_PROPERTY:
            message = f"{_quote(subject)}: {message}"
        decision = DECISIONS[code]
        bump = decision.bump(self.direction)
        hint = decision.advice(self.direction)
        self.changes.append(Change(code, self.direction, bump, message, hint, at[0], at[1], old, new))

    def _in_defs(self, pointer: str, side: int) -> bool:
        return pointer[len(self.prefixes[side]) :].startswith(("/$defs/", "/definitions/"))

    def label(self, pointer: str, side: int) -> str:
        """A readable path of the property a pointer is in: `range.start`, `files[].path`."""
        tokens = [unescape(t) for t in pointer[len(self.prefixes[side]) :].split("/")[1:]]
        parts: list[str] = []
        index = 0
        while index < len(tokens):
            token, following = tokens[index], tokens[index + 1] if index + 1 < len(tokens) else None
            if token in _NAMED and following is not None:
                parts.append(("." if parts else "") + following)
                index += 1
            elif token in _INDEXED and following is not None:
                parts.append(("." if parts else "") + f"{token}[{following}]")
                index += 1
            elif token in _SHAPES:
                parts.append(_SHAPES[token])
            index += 1
        return "".join(parts)

    def _resolve(self, schema: Any, pointer: str, side: int) -> tuple[Any, str] | None:
        seen: set[str] = set()
        while isinstance(schema, Mapping) and "$ref" in schema:
            ref = schema["$ref"]
            if not isinstance(ref, str) or not ref.startswith("#") or ref in seen:
                return None
            seen.add(ref)
            found = lookup(self.roots[side], ref[1:])
            if found is None:
                return None
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            # With constraints beside it, the use is its own schema: it stays where the use is.
            own = any(not kw.is_annotation(k) and k not in STRUCTURE for k in siblings)
            schema, pointer = merge(found[0], siblings), pointer if own else self.prefixes[side] + found[1]
        return schema, pointer

    def content(self, schema: Any, side: int) -> Any:
        """What a schema stands for once its `$ref` is followed (itself when it cannot be)."""
        found = self._resolve(schema, "", side)
        return schema if found is None else found[0]

    def _canonical(self, old: Any, new: Any) -> tuple[Any, Any]:
        """Both sides in canonical form where their spellings differ: a combinator only one side uses."""
        for _ in range(4):
            keys = frozenset(k for k in COMBINATORS if isinstance(old, Mapping) and k in old) ^ frozenset(
                k for k in COMBINATORS if isinstance(new, Mapping) and k in new
            )
            if not keys:
                break
            before = (old, new)
            old, new = (
                normalize(old, lambda s: self.content(s, 0), keys),
                normalize(new, lambda s: self.content(s, 1), keys),
            )
            if (old, new) == before:
                break
        return old, new

    def compare(self, old: Any, new: Any, base_at: str, head_at: str, depth: int) -> None:
        """Compare two subschemas found at these pointers (following `$ref` first)."""
        resolved_old, resolved_new = self._resolve(old, base_at, 0), self._resolve(new, head_at, 1)
        if resolved_old is None or resolved_new is None:
            if kw.canonical(old) != kw.canonical(new):
                message = "a $ref could not be resolved, so this part cannot be compared"
                self.add("TG442", (base_at, head_at), thaw(old), thaw(new), message)
            return
        (old, base_at), (new, head_at) = resolved_old, resolved_new
        old, new = self._canonical(old, new)
        key = (base_at, head_at, kw.canonical(old), kw.canonical(new))
        if key in self._active or key in self._done:
            return
        if depth > MAX_DEPTH:
            self.add("TG442", (base_at, head_at), ABSENT, ABSENT, f"schemas nest deeper than {MAX_DEPTH} levels")
            return
        self._active.add(key)
        try:
            self._compare_resolved(old, new, (base_at, head_at), depth)
        finally:
            self._active.discard(key)
            self._done.add(key)

    def _compare_resolved(self, old: Any, new: Any, at: tuple[str, str], depth: int) -> None:
        old = {} if old is True or old is None else old
        new = {} if new is True or new is None else new
        if old is False or new is False:
            if old is not new:
                code = kw.TIGHTENED if new is False else kw.LOOSENED
                what = "now accepts no value" if new is False else "accepted no value, now accepts some"
                self.add(code, at, thaw(old), thaw(new), f"schema {what}")
            return
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            if kw.canonical(old) != kw.canonical(new):
                self.add("TG441", at, thaw(old), thaw(new), "schema is not an object or boolean")
            return
        if compare_wrap(self, old, new, at, depth):
            return
        old, new = kw.enumerated(old, new)
        finding, overlap = kw.compare_type(old, new)
        self._report(finding, old, new, at)
        if not overlap:
            return
        before, after = kinds(old), kinds(new)
        shared = after if before is None else before if after is None else before & after
        old, new = within(old, shared, _HANDLED), within(new, shared, _HANDLED)
        self._report(kw.compare_enum(old, new), old, new, at)
        for leaf in kw.compare_leaves(old, new):
            self._report(leaf, old, new, at)
        self.rest(old, new, at)
        compare_objects(self, old, new, at, depth)
        self._arrays(old, new, at, depth)
        self._combinators(old, new, at, depth)

    def _report(self, finding: kw.Finding | None, old: Mapping[str, Any], new: Mapping[str, Any], at: Any) -> None:
        if finding is not None:
            where = self.keyword_at(at, old, new, finding.keyword)
            self.add(finding.code, where, finding.old, finding.new, finding.message)

    @staticmethod
    def keyword_at(at: tuple[str, str], old: Mapping[str, Any], new: Mapping[str, Any], key: str) -> tuple[str, str]:
        base = f"{at[0]}/{escape(key)}" if key in old else at[0]
        head = f"{at[1]}/{escape(key)}" if key in new else at[1]
        return base, head

    def rest(self, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str]) -> None:
        """`default`, annotations, and every keyword no rule handles (fail closed)."""
        for key in sorted(set(old) | set(new)):
            if key in _HANDLED and key != "default":
                continue
            before = thaw(old[key]) if key in old else ABSENT
            after = thaw(new[key]) if key in new else ABSENT
            same = kw.canonical(None if before is ABSENT else before) == kw.canonical(
                None if after is ABSENT else after
            )
            if same and (before is ABSENT) == (after is ABSENT):
                continue
            where = self.keyword_at(at, old, new, key)
            if key == "default":
                self.add("TG439", where, before, after, "default changed")
            elif kw.is_annotation(key):
                self.add("TG440", where, before, after, f"{key} changed")
            else:
                self.add("TG441", where, before, after, f"{key} changed, and no rule proves the change safe")

    def _arrays(self, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str], depth: int) -> None:
        if "items" in old or "items" in new:
            where = self.keyword_at(at, old, new, "items")
            self.compare(old.get("items", True), new.get("items", True), where[0], where[1], depth + 1)
        before, after = old.get("prefixItems", ()), new.get("prefixItems", ())
        if len(before) == len(after):
            for index, (a, b) in enumerate(zip(before, after, strict=True)):
                self.compare(a, b, f"{at[0]}/prefixItems/{index}", f"{at[1]}/prefixItems/{index}", depth + 1)
        else:
            where = self.keyword_at(at, old, new, "prefixItems")
            self.add("TG441", where, thaw(before), thaw(after), "prefixItems changed length")
        if "contains" in old or "contains" in new:
            where = self.keyword_at(at, old, new, "contains")
            if "contains" not in old:
                self.add(kw.TIGHTENED, where, ABSENT, thaw(new["contains"]), "contains added")
            elif "contains" not in new:
                self.add(kw.LOOSENED, where, thaw(old["contains"]), ABSENT, "contains removed")
            else:
                self.compare(old["contains"], new["contains"], where[0], where[1], depth + 1)

    def _combinators(self, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str], depth: int) -> None:
        for key in ("anyOf", "oneOf", "allOf"):
            if key in old or key in new:
                self._combinator(key, old.get(key), new.get(key), self.keyword_at(at, old, new, key), depth)
        if "not" in old or "not" in new:
            before, after = thaw(old.get("not", ABSENT)), thaw(new.get("not", ABSENT))
            if before is ABSENT or after is ABSENT or kw.canonical(before) != kw.canonical(after):
                where = self.keyword_at(at, old, new, "not")
                self.add("TG438", where, before, after, "not changed")

    def _combinator(self, key: str, before: Any, after: Any, at: tuple[str, str], depth: int) -> None:
        if before is None or after is None:
            code, verb = ("TG437", "added") if before is None else ("TG436", "removed")
            self.add(code, at, thaw(before) if before else ABSENT, thaw(after) if after else ABSENT, f"{key} {verb}")
            return
        if len(before) == len(after):
            mark = len(self.changes)
            for i, j in _pair_branches(before, after):
                self.compare(before[i], after[j], f"{at[0]}/{i}", f"{at[1]}/{j}", depth + 1)
            if key == "oneOf" and any(c.bump > Bump.PATCH for c in self.changes[mark:]):
                message = "a oneOf branch changed: a value may now match two branches or none"
                self.add("TG438", at, thaw(before), thaw(after), message)
            return
        old_set, new_set = {kw.canonical(b) for b in before}, {kw.canonical(b) for b in after}
        added, removed = bool(new_set - old_set), bool(old_set - new_set)
        if not added and not removed:
            return
        widening = {"anyOf": (True, False), "allOf": (False, True)}.get(key)
        if widening is None or (added and removed):
            code = "TG438"
        elif (added, removed) == widening:
            code = "TG436"
        else:
            code = "TG437"
        self.add(code, at, thaw(before), thaw(after), f"{key} branches {'added' if added else 'removed'}")


def _pair_branches(before: Sequence[Any], after: Sequence[Any]) -> list[tuple[int, int]]:
    """Index pairs to compare (same length): identical branches wherever they moved, then the rest in order.

    So a reorder is no change. Identical branches are still compared: their `$ref`s may resolve apart.
    """
    old_text, new_text = [kw.canonical(b) for b in before], [kw.canonical(b) for b in after]
    free = list(range(len(after)))
    pairs: list[tuple[int, int]] = []
    unmatched: list[int] = []
    for i, text in enumerate(old_text):
        j = next((j for j in free if new_text[j] == text), None)
        if j is None:
            unmatched.append(i)
        else:
            free.remove(j)
            pairs.append((i, j))
    return sorted(pairs + list(zip(unmatched, free, strict=True)))


def diff_schema(
    direction: Direction, base: Any, head: Any, base_at: str, head_at: str, *, assume: Assume = Assume.DECLARED
) -> list[Change]:
    """Every change between two versions of one schema; `base_at`/`head_at` prefix the pointers.

    `assume` is what callers and consumers are assumed to do (`Assume`, docs/compatibility.md).

    A schema too malformed to walk (a hand-edited base catalog) gives one TG441 finding: fail closed.
    """
    walker = SchemaDiff(direction, base, head, base_at, head_at, assume=assume)
    if base is not None and head is not None and kw.canonical(base) == kw.canonical(head):
        return []
    try:
        return walker.run()
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        walker.changes.clear()
        message = f"schema is malformed and cannot be compared ({type(exc).__name__})"
        walker.add("TG441", (base_at, head_at), thaw(base), thaw(head), message)
        return walker.changes
