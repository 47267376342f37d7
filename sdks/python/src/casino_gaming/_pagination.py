"""Lists come a page at a time (``{ data, next_cursor, has_more }``; the next page is asked for with
``cursor=next_cursor``). A CursorPage is one page, and iterating it walks every item from there on,
fetching each following page only when the previous one is used up."""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, List, Mapping, Optional, Type, TypeVar

from ._model import Model

__all__ = ["CursorPage"]

T = TypeVar("T", bound=Model)


class CursorPage(Generic[T]):
    """One page of a list. ``for item in page`` yields every item of this page and the pages after
    it; ``page.data`` is this page alone."""

    data: List[T]
    next_cursor: Optional[str]
    has_more: bool

    def __init__(
        self,
        data: List[T],
        next_cursor: Optional[str],
        has_more: bool,
        fetch: Callable[[str], "CursorPage[T]"],
    ) -> None:
        self.data = data
        self.next_cursor = next_cursor
        self.has_more = has_more
        self._fetch = fetch

    @classmethod
    def from_json(
        cls,
        body: Mapping[str, Any],
        model: Type[T],
        fetch: Callable[[str], "CursorPage[T]"],
    ) -> "CursorPage[T]":
        return cls(
            [model.from_dict(item) for item in body.get("data") or []],
            body.get("next_cursor"),
            bool(body.get("has_more")),
            fetch,
        )

    def has_next_page(self) -> bool:
        # Both must say so: a page without a cursor cannot be followed, whatever has_more says.
        return self.has_more and bool(self.next_cursor)

    def next_page(self) -> "CursorPage[T]":
        if not self.has_next_page():
            raise LookupError("this is the last page")
        return self._fetch(self.next_cursor)  # type: ignore[arg-type]

    def iter_pages(self) -> Iterator["CursorPage[T]"]:
        page: CursorPage[T] = self
        while True:
            yield page
            if not page.has_next_page():
                return
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data

    def __repr__(self) -> str:
        return (
            f"CursorPage(data=<{len(self.data)} items>, next_cursor={self.next_cursor!r}, "
            f"has_more={self.has_more!r})"
        )
