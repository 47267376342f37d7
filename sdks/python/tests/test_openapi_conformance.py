"""The SDK against its contract, the OpenAPI document: every schema property is a field (and nothing
else is), every operator operation has a method taking exactly its parameters and answering its
schema, and the generated types are what the generator makes of the document today."""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib.util
import inspect
import keyword
import re
import typing
from decimal import Decimal
from typing import Any, Dict, List, Optional, Set

import pytest
from conftest import PROJECT, load_openapi

import casino_gaming
from casino_gaming import types
from casino_gaming._model import Model
from casino_gaming._pagination import CursorPage

OPERATOR_SKIPS = {"provider"}
# Conditional requests are not part of the SDK: a 304 carries nothing to return.
UNSUPPORTED_HEADERS = {("getOpenApiDescription", "If-None-Match")}


def resolve(document, pointer):
    node = document
    for token in pointer.lstrip("#/").split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def deref(document, schema):
    while "$ref" in schema:
        schema = resolve(document, schema["$ref"])
    return schema


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                yield path, method, operation


def operator_operations(document):
    return [
        (path, method, operation)
        for path, method, operation in operations(document)
        if not OPERATOR_SKIPS & set(operation.get("tags", []))
    ]


OPERATOR_IDS = sorted(operation["operationId"] for _p, _m, operation in operator_operations(load_openapi()))


def model_classes():
    return [
        value
        for value in vars(types).values()
        if isinstance(value, type) and issubclass(value, Model) and value is not Model
    ]


def strip_optional(annotation):
    if typing.get_origin(annotation) is typing.Union:
        present = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(present) == 1:
            return present[0], True
    return annotation, False


def is_decimal_schema(schema):
    pattern = schema.get("pattern")
    return isinstance(pattern, str) and r"\." in pattern and not re.search(r"[A-Za-z]", pattern)


def expected_kind(document, schema) -> str:
    """What a property should be in Python, worked out here independently of the generator."""
    if "$ref" in schema:
        target = resolve(document, schema["$ref"])
        if "properties" in target:
            return "model:" + schema["$ref"]
        return expected_kind(document, target)
    if "oneOf" in schema:
        present = [part for part in schema["oneOf"] if part.get("type") != "null"]
        return expected_kind(document, present[0]) if len(present) == 1 else "dict"
    kinds = schema.get("type")
    kinds = [k for k in (kinds if isinstance(kinds, list) else [kinds]) if k != "null"]
    kind = kinds[0] if kinds else None
    if kind == "string":
        if schema.get("format") == "date-time":
            return "datetime"
        if schema.get("format") == "date":
            return "date"
        return "decimal" if is_decimal_schema(schema) else "str"
    if kind == "object" and "properties" not in schema:
        return "dict"
    return {"integer": "int", "boolean": "bool", "array": "list", "object": "object"}.get(kind, "any")


def actual_kind(annotation) -> str:
    annotation, _ = strip_optional(annotation)
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "str" if all(isinstance(v, str) for v in typing.get_args(annotation)) else "literal"
    if origin in (list, List):
        return "list"
    if origin in (dict, Dict):
        return "dict"
    if isinstance(annotation, type) and issubclass(annotation, Model):
        return "model:" + annotation.__schema__
    return {
        Decimal: "decimal", dt.datetime: "datetime", dt.date: "date", str: "str", int: "int",
        bool: "bool", Any: "any",
    }.get(annotation, repr(annotation))


def nullable(document, schema) -> bool:
    schema_types = schema.get("type")
    if isinstance(schema_types, list) and "null" in schema_types:
        return True
    if any(part.get("type") == "null" for part in schema.get("oneOf", [])):
        return True
    return "$ref" in schema and nullable(document, resolve(document, schema["$ref"]))


def mentions(annotation, wanted) -> bool:
    if annotation is wanted:
        return True
    return any(mentions(arg, wanted) for arg in typing.get_args(annotation))


# -- the types --------------------------------------------------------------------------------


def test_the_generated_types_are_what_the_document_makes_today(openapi):
    spec = importlib.util.spec_from_file_location("generate_types", PROJECT / "scripts" / "generate_types.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    written = (PROJECT / "src" / "casino_gaming" / "types.py").read_text(encoding="utf-8")
    assert written == generator.render(openapi), "types.py is stale: run python3 scripts/generate_types.py"


@pytest.mark.parametrize("model", model_classes(), ids=lambda model: model.__name__)
def test_each_class_has_exactly_its_schemas_properties(openapi, model):
    schema = deref(openapi, resolve(openapi, model.__schema__))
    properties = schema["properties"]
    required = set(schema.get("required", []))
    fields = {field.name: field for field in dataclasses.fields(model)}
    hints = typing.get_type_hints(model)
    assert set(fields) == set(properties), f"{model.__name__} differs from {model.__schema__}"
    for name, property_schema in properties.items():
        field, hint = fields[name], hints[name]
        _, optional = strip_optional(hint)
        if name in required:
            assert field.default is dataclasses.MISSING, f"{model.__name__}.{name} is required"
            assert optional == nullable(openapi, property_schema), f"{model.__name__}.{name} nullability"
        else:
            assert field.default is None and optional, f"{model.__name__}.{name} may be absent"
        want = expected_kind(openapi, property_schema)
        got = actual_kind(hint)
        if want == "object":
            want = "model:" + model.__schema__ + "/properties/" + name
        assert got == want or (want.startswith("model:") and got.startswith("model:")), (
            f"{model.__name__}.{name}: {got}, the document says {want}"
        )
        if want.startswith("model:"):
            nested = actual_kind(hint)[len("model:"):]
            assert deref(openapi, resolve(openapi, nested)) is deref(openapi, resolve(openapi, want[len("model:"):]))


def test_money_is_decimal_in_every_class(openapi):
    # Every Amount the document declares, and every decimal string, is a Decimal member.
    found = 0
    for model in model_classes():
        schema = deref(openapi, resolve(openapi, model.__schema__))
        hints = typing.get_type_hints(model)
        for name, property_schema in schema["properties"].items():
            if expected_kind(openapi, property_schema) == "decimal":
                found += 1
                assert strip_optional(hints[name])[0] is Decimal, f"{model.__name__}.{name}"
            if float in typing.get_args(hints[name]) or hints[name] is float:
                pytest.fail(f"{model.__name__}.{name} is a float")
    assert found >= 10


def reachable(document, node, found=None) -> Set[str]:
    """Every component a part of the document leads to, through $ref."""
    found = set() if found is None else found
    if isinstance(node, dict):
        target = node.get("$ref")
        if isinstance(target, str) and target not in found:
            found.add(target)
            reachable(document, resolve(document, target), found)
        for value in node.values():
            reachable(document, value, found)
    elif isinstance(node, list):
        for value in node:
            reachable(document, value, found)
    return found


def test_every_object_schema_an_operator_call_uses_is_a_class_a_list_or_a_request(openapi):
    classes = {model.__schema__ for model in model_classes()}
    requests = set()
    used = set()
    for _path, _method, operation in operator_operations(openapi):
        if "discovery" in operation.get("tags", []):
            continue  # answered as plain JSON
        used |= reachable(openapi, operation)
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        if "$ref" in body.get("schema", {}):
            requests.add(body["schema"]["$ref"])
    checked = 0
    for pointer in sorted(used):
        if not pointer.startswith("#/components/schemas/"):
            continue
        schema = resolve(openapi, pointer)
        if "properties" not in schema:
            continue
        checked += 1
        members = set(schema["properties"])
        is_list = members in ({"data", "next_cursor", "has_more"}, {"data"})
        assert pointer in classes or pointer in requests or is_list, f"{pointer} has no class"
    assert checked >= 30


# -- the operations ---------------------------------------------------------------------------


def sdk_methods():
    client = casino_gaming.Client("cgs_live_conformance", base_url="http://127.0.0.1:9/functions/v1")
    found = {}
    for namespace_name, namespace in vars(client).items():
        if namespace_name.startswith("_") or not hasattr(namespace, "_client"):
            continue
        for attribute in dir(type(namespace)):
            method = getattr(namespace, attribute)
            operation_id = getattr(method, "__operation_id__", None)
            if operation_id:
                assert operation_id not in found, f"two methods call {operation_id}"
                found[operation_id] = (f"{namespace_name}.{attribute}", method)
    return found


def sdk_media_methods():
    """The methods asking an operation for another media type than JSON: (id, media) -> method."""
    client = casino_gaming.Client("cgs_live_conformance", base_url="http://127.0.0.1:9/functions/v1")
    return {
        getattr(method, "__media_operation__"): (f"{namespace_name}.{attribute}", method)
        for namespace_name, namespace in vars(client).items()
        if not namespace_name.startswith("_") and hasattr(namespace, "_client")
        for attribute in dir(type(namespace))
        for method in [getattr(namespace, attribute)]
        if hasattr(method, "__media_operation__")
    }


def test_each_media_method_asks_for_what_its_operation_answers_with_its_parameters_but_paging(openapi):
    found = sdk_media_methods()
    assert found, "reports.reconciliation_csv"
    for (operation_id, media), (label, method) in found.items():
        operation = next(o for _p, _m, o in operator_operations(openapi) if o["operationId"] == operation_id)
        answers = [deref(openapi, r) for status, r in operation["responses"].items() if status.startswith("2")]
        assert any(media in answer.get("content", {}) for answer in answers), f"{label}: {operation_id} answers no {media}"
        expected = set()
        for parameter in operation.get("parameters", []):
            name = deref(openapi, parameter)["name"]
            expected.add(name + "_" if keyword.iskeyword(name) else name)
        assert set(inspect.signature(method).parameters) == expected - {"limit", "cursor"}, label
        assert typing.get_type_hints(method)["return"] is bytes, label


def test_every_operator_operation_has_a_method_and_no_method_is_extra(openapi):
    wanted = {operation["operationId"] for _p, _m, operation in operator_operations(openapi)}
    assert len(wanted) >= 30
    assert set(sdk_methods()) == wanted


def test_no_method_calls_a_provider_operation(openapi):
    provider = {operation["operationId"] for _p, _m, operation in operations(openapi)} - {
        operation["operationId"] for _p, _m, operation in operator_operations(openapi)
    }
    assert provider and not provider & set(sdk_methods())


@pytest.mark.parametrize("operation_id", OPERATOR_IDS)
def test_each_method_takes_exactly_its_operations_parameters(openapi, operation_id):
    path, method_name, operation = next(
        (p, m, o) for p, m, o in operator_operations(openapi) if o["operationId"] == operation_id
    )
    label, method = sdk_methods()[operation_id]
    signature = inspect.signature(method)
    hints = typing.get_type_hints(method)
    expected: Dict[str, bool] = {}  # name -> required
    decimals: Set[str] = set()
    for parameter in operation.get("parameters", []):
        parameter = deref(openapi, parameter)
        if (operation_id, parameter["name"]) in UNSUPPORTED_HEADERS:
            continue
        name = parameter["name"].lower().replace("-", "_")
        # A Python keyword (`from`) is taken with a trailing underscore, as PEP 8 says.
        name = name + "_" if keyword.iskeyword(name) else name
        expected[name] = parameter["in"] == "path"
    body = operation.get("requestBody")
    if body:
        schema = deref(openapi, body["content"]["application/json"]["schema"])
        for name, property_schema in schema["properties"].items():
            expected[name] = name in schema.get("required", [])
            if expected_kind(openapi, property_schema) == "decimal" or (
                isinstance(property_schema.get("additionalProperties"), dict)
                and expected_kind(openapi, property_schema["additionalProperties"]) in ("decimal", "object")
            ):
                decimals.add(name)
    taken = {name: parameter for name, parameter in signature.parameters.items()}
    assert set(taken) == set(expected), f"{label} ({method_name.upper()} {path})"
    for name, required in expected.items():
        has_default = taken[name].default is not inspect.Parameter.empty
        assert has_default != required, f"{label}: {name} is {'required' if required else 'optional'}"
    for name in decimals:
        assert mentions(hints[name], Decimal), f"{label}: {name} is money and takes a Decimal"
        assert not mentions(hints[name], float), f"{label}: {name} must not take a float"


def returned_schema(openapi, operation) -> Optional[str]:
    for status, response in operation["responses"].items():
        if not status.startswith("2"):
            continue
        response = deref(openapi, response)
        schema = response["content"]["application/json"]["schema"]
        if "allOf" in schema and len(schema["allOf"]) == 1:
            schema = schema["allOf"][0]
        return schema.get("$ref")
    return None


@pytest.mark.parametrize("operation_id", OPERATOR_IDS)
def test_each_method_returns_its_operations_schema(openapi, operation_id):
    operation = next(o for _p, _m, o in operator_operations(openapi) if o["operationId"] == operation_id)
    label, method = sdk_methods()[operation_id]
    returned = typing.get_type_hints(method)["return"]
    pointer = returned_schema(openapi, operation)
    if "discovery" in operation.get("tags", []):
        assert typing.get_origin(returned) in (dict, Dict)
        return
    schema = resolve(openapi, pointer)
    members = set(schema.get("properties", {}))
    if members == {"data", "next_cursor", "has_more"}:
        assert typing.get_origin(returned) is CursorPage, label
        (item,) = typing.get_args(returned)
        assert item.__schema__ == schema["properties"]["data"]["items"]["$ref"], label
    elif members == {"data"}:
        assert typing.get_origin(returned) in (list, List), label
        (item,) = typing.get_args(returned)
        assert item.__schema__ == schema["properties"]["data"]["items"]["$ref"], label
    else:
        assert returned.__schema__ == pointer, f"{label} returns {returned.__name__}, the document {pointer}"


def test_the_problem_members_are_attributes_of_api_error(openapi):
    error = casino_gaming.ApiError(400, {"type": "t", "title": "t", "status": 400, "detail": "d",
                                          "code": "validation_failed", "retryable": False})
    for name in openapi["components"]["schemas"]["Problem"]["properties"]:
        assert hasattr(error, name), name


def test_every_problem_code_the_operator_api_answers_is_a_known_code(openapi):
    codes = set(openapi["components"]["schemas"]["ProblemCode"]["enum"])
    assert set(typing.get_args(types.ProblemCode)) == codes
    assert set(typing.get_args(types.EventType)) == set(openapi["components"]["schemas"]["EventType"]["enum"])
