"""moto's response serializer works out each attribute's possible names once, not for every value.

moto 5.2.5 serializes a response by walking the operation's output shape, and for every member of
every value it builds six alias providers (`moto.core.serialize.DEFAULT_ALIAS_PROVIDERS`) to list the
names the member might have on the Python object (`AttributePicker.get_possible_keys`). For a
DynamoDB Query of 1,000 items that is ~100,000 members and ~600,000 provider objects: about half the
CPU of reading a long run log. With the default providers the names depend only on the member's key,
its shape (and the shape's parent) and the object's class — unless the object declares
`Meta.serialization_aliases`, which only `ExplicitAlias` reads — so they are listed once per picker
class, object class, key, shape and parent, and kept; objects with a `Meta`, and pickers with
providers of their own, take moto's path unchanged.
The first name the object has still wins, and the response transformers still apply, as in moto.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from local.patches import replace_attribute


def install() -> None:
    """Patch moto's (private) `AttributePicker.__call__` to the memoized listing; idempotent. Pin moto."""
    from moto.core import serialize
    from moto.core.constants import MISSING
    from moto.core.utils import get_value

    default_providers = serialize.DEFAULT_ALIAS_PROVIDERS
    missing = MISSING
    listed: dict[tuple[type, type, str, Any, Any], tuple[str, ...]] = {}

    def memoized(original: Callable[..., Any]) -> Callable[..., Any]:
        def picked(self: Any, context: Any) -> Any:
            obj = context.obj
            if self.alias_providers is not default_providers or hasattr(obj, "Meta"):
                return original(self, context)
            # The shapes themselves are in the key (kept alive by it), never their ids: no reuse after a
            # collection; the parent too, which the prefix and shape-name aliases read.
            shape = context.shape
            key = (type(self), type(obj), context.key, shape, getattr(shape, "parent", None))
            names = listed.get(key)
            if names is None:
                names = listed[key] = tuple(self.get_possible_keys(context))
            for name in names:
                value = get_value(obj, name, missing)
                if value is not missing:
                    break
            else:
                value = None
            if self.response_transformers:
                key_path = f"{context.key_path}.{context.key}"
                for transform_path, transform in self.response_transformers.items():
                    if key_path.endswith(transform_path):
                        return transform(value)
            return value

        picked.__wrapped__ = original  # type: ignore[attr-defined]  # moto's own, for the tests' comparison
        return picked

    replace_attribute(serialize.AttributePicker, "__call__", memoized)
