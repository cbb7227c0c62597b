# The compiled tree walk (_cwalk.pyx): its entry points, for mypy.
from collections.abc import Callable
from typing import Any

def walk_tree(
    body: Any,
    main_roots: set[Any] | None,
    collector: Any,
    python_check: Callable[[str, Any, bool], bool],
) -> int: ...

def head_parts(root: Any) -> list[Any]: ...
def main_by_role(body: Any) -> Any: ...
