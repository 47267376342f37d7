"""The API's JSON as typed values, and back.

Money is a decimal string on the wire and a ``decimal.Decimal`` here, never a float: a float cannot
hold most amounts exactly. Instants are timezone-aware ``datetime`` objects.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
import typing
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, ClassVar, Dict, List, Mapping, Tuple, Type, TypeVar, Union

__all__ = ["Model", "parse_decimal", "parse_datetime", "decimal_string", "to_json_value"]

M = TypeVar("M", bound="Model")

# RFC 3339 as the API writes it: a date, a time, an optional fraction and an offset (or Z).
_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$"
)


def parse_decimal(value: Any) -> Decimal:
    """A JSON decimal string (or an exact number) as a Decimal; floats are refused, being inexact."""
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"expected a decimal string, not {type(value).__name__}")
    elif isinstance(value, (int, str)):
        try:
            result = Decimal(value)
        except InvalidOperation:
            raise ValueError(f"not a decimal: {value!r}") from None
    else:
        raise TypeError(f"expected a decimal string, not {type(value).__name__}")
    if not result.is_finite():
        raise ValueError(f"not a finite decimal: {value!r}")
    return result


def decimal_string(value: Any) -> str:
    """Money as the API takes it: a plain decimal string (no exponent), from a Decimal, an int or a
    decimal string. A float is refused rather than rounded: it rarely holds the amount meant."""
    if isinstance(value, bool):
        raise TypeError("money must be a Decimal, an int or a decimal string, not a bool")
    if isinstance(value, float):
        raise TypeError("money must be a Decimal, an int or a decimal string, never a float")
    number = parse_decimal(value)
    if number.is_zero():
        number = abs(number)
    return format(number, "f")


def parse_datetime(value: Any) -> _dt.datetime:
    """An RFC 3339 instant as an aware datetime (fromisoformat takes neither Z nor any fraction
    length before Python 3.11)."""
    if isinstance(value, _dt.datetime):
        return value
    match = _RFC3339.match(value) if isinstance(value, str) else None
    if not match:
        raise ValueError(f"not an RFC 3339 date-time: {value!r}")
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    micros = int((fraction or "0")[:6].ljust(6, "0"))
    if offset in ("Z", "z"):
        zone = _dt.timezone.utc
    else:
        sign = -1 if offset[0] == "-" else 1
        zone = _dt.timezone(sign * _dt.timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6])))
    return _dt.datetime(
        int(year), int(month), int(day), int(hour), int(minute), int(second), micros, tzinfo=zone
    )


def format_datetime(value: Any) -> str:
    """An instant as the API takes it (RFC 3339 with its offset). A naive datetime is refused: the
    API cannot tell which zone it meant."""
    if isinstance(value, str):
        return value
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("a datetime sent to the API must be timezone-aware")
        return value.isoformat()
    raise TypeError(f"expected a datetime or an RFC 3339 string, not {type(value).__name__}")


def _parse_date(value: Any) -> _dt.date:
    return value if isinstance(value, _dt.date) else _dt.date.fromisoformat(value)


def _identity(value: Any) -> Any:
    return value


def _converter(hint: Any) -> Callable[[Any], Any]:
    """How a JSON value becomes the type a field is annotated with."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union:
        present = [arg for arg in args if arg is not type(None)]
        if len(present) != 1:
            return _identity
        inner = _converter(present[0])
        return lambda value: None if value is None else inner(value)
    if origin in (list, List):
        item = _converter(args[0]) if args else _identity
        return lambda value: [item(element) for element in value]
    if origin in (dict, Dict):
        member = _converter(args[1]) if len(args) == 2 else _identity
        return lambda value: {key: member(element) for key, element in value.items()}
    if hint is Decimal:
        return parse_decimal
    if hint is _dt.datetime:
        return parse_datetime
    if hint is _dt.date:
        return _parse_date
    if isinstance(hint, type) and issubclass(hint, Model):
        return hint.from_dict
    return _identity


def to_json_value(value: Any) -> Any:
    """A typed value as JSON-ready data: Decimals as decimal strings, instants as RFC 3339."""
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, Decimal):
        return decimal_string(value)
    if isinstance(value, _dt.datetime):
        return format_datetime(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {key: to_json_value(element) for key, element in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_value(element) for element in value]
    return value


class Model:
    """Base of the API's objects (frozen dataclasses): ``from_dict`` reads the API's JSON, keeping
    unknown members out so that a newer server does not break an older SDK; ``to_dict`` writes it
    back."""

    __schema__: ClassVar[str] = ""
    _converters: ClassVar[Dict[type, Tuple[Tuple[str, Callable[[Any], Any], bool], ...]]] = {}

    @classmethod
    def _fields(cls) -> Tuple[Tuple[str, Callable[[Any], Any], bool], ...]:
        known = Model._converters.get(cls)
        if known is None:
            hints = typing.get_type_hints(cls)
            known = tuple(
                (
                    field.name,
                    _converter(hints[field.name]),
                    field.default is dataclasses.MISSING,
                )
                for field in dataclasses.fields(cls)  # type: ignore[arg-type]
            )
            Model._converters[cls] = known
        return known

    @classmethod
    def from_dict(cls: Type[M], data: Mapping[str, Any]) -> M:
        if not isinstance(data, Mapping):
            raise TypeError(f"{cls.__name__} expects a JSON object, not {type(data).__name__}")
        values = {}
        for name, convert, _required in cls._fields():
            raw = data.get(name)
            values[name] = None if raw is None else convert(raw)
        return cls(**values)

    def to_dict(self) -> Dict[str, Any]:
        # An optional member that is None was absent: it is left out, as the API leaves it out.
        result: Dict[str, Any] = {}
        for name, _convert, required in type(self)._fields():
            value = getattr(self, name)
            if value is None and not required:
                continue
            result[name] = to_json_value(value)
        return result
