#!/usr/bin/env python3
"""Writes src/casino_gaming/types.py from the OpenAPI document, the API's contract.

    python3 scripts/generate_types.py            # rewrite types.py
    python3 scripts/generate_types.py --check    # exit 1 when types.py is stale

A class is made for every object schema an operator call answers with (and the problem body, the
webhook event and the seamless wallet call), with exactly the schema's properties. Money (a string
schema whose pattern is a decimal number) becomes Decimal, date-times become datetime, enums
Literal. Lists answered a page at a time become the SDK's CursorPage, so no class is made for them.
Standard library only, so it runs wherever the SDK's tests run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT.parent.parent / "supabase" / "functions" / "v3" / "openapi.json"
OUTPUT = ROOT / "src" / "casino_gaming" / "types.py"

# Inline object schemas need a name of their own: the pointer of each, and the class it becomes.
INLINE_NAMES = {
    "#/components/schemas/PlayerRestrictions/properties/loss_limits/additionalProperties": "LossLimits",
    "#/components/schemas/WalletCheckReport/properties/scenarios/items": "WalletCheckScenario",
    "#/components/schemas/SandboxReset/properties/removed": "SandboxResetRemoved",
    "#/components/schemas/FreeRoundCampaign/properties/grants": "FreeRoundGrantCounts",
    "#/components/schemas/Statement/properties/totals/items": "StatementTotal",
    "#/webhooks/walletCall/post/requestBody/content/application~1json/schema": "WalletCall",
}

# Operations a game provider calls, and the public discovery documents: not the operator's
# resources (the discovery calls answer plain JSON).
SKIPPED_TAGS = {"provider", "discovery"}

PAGE_MEMBERS = {"data", "next_cursor", "has_more"}


def escape_pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def resolve(document: Dict[str, Any], pointer: str) -> Any:
    node: Any = document
    for token in pointer.lstrip("#/").split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def is_decimal(schema: Dict[str, Any]) -> bool:
    """A decimal number written as a string: its pattern has a decimal point and no letters."""
    pattern = schema.get("pattern")
    return (
        isinstance(pattern, str)
        and r"\." in pattern
        and not re.search(r"[A-Za-z]", pattern)
    )


def is_page(schema: Dict[str, Any]) -> bool:
    return set(schema.get("properties", {})) == PAGE_MEMBERS


def is_data_list(schema: Dict[str, Any]) -> bool:
    properties = schema.get("properties", {})
    return set(properties) == {"data"} and properties["data"].get("type") == "array"


def json_schema_of(response: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    content = response.get("content", {}).get("application/json")
    return content.get("schema") if content else None


class Generator:
    def __init__(self, document: Dict[str, Any]):
        self.document = document
        self.classes: Dict[str, str] = {}  # class name -> schema pointer
        self.aliases: Dict[str, str] = {}  # alias name -> schema pointer

    # -- what to make -------------------------------------------------------------------------

    def roots(self) -> List[str]:
        pointers = []
        for path, item in self.document["paths"].items():
            for method, operation in item.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue
                if SKIPPED_TAGS & set(operation.get("tags", [])):
                    continue
                for status, response in operation["responses"].items():
                    if not status.startswith("2"):
                        continue
                    base = f"#/paths/{escape_pointer(path)}/{method}/responses/{status}"
                    if "$ref" in response:
                        base = response["$ref"]
                        response = resolve(self.document, base)
                    if json_schema_of(response) is not None:
                        pointers.append(f"{base}/content/application~1json/schema")
        pointers.append("#/components/schemas/Problem")
        for name, item in self.document.get("webhooks", {}).items():
            pointers.append(f"#/webhooks/{name}/post/requestBody/content/application~1json/schema")
        return pointers

    def visit(self, pointer: str, seen: Set[str]) -> None:
        if pointer in seen:
            return
        seen.add(pointer)
        schema = resolve(self.document, pointer)
        if "$ref" in schema:
            self.visit(schema["$ref"], seen)
            return
        for keyword in ("allOf", "oneOf", "anyOf"):
            for index, _part in enumerate(schema.get(keyword, [])):
                if keyword == "oneOf" and not self.nullable_one_of(schema):
                    continue
                self.visit(f"{pointer}/{keyword}/{index}", seen)
        named = re.fullmatch(r"#/components/schemas/([A-Za-z0-9]+)", pointer)
        if named and schema.get("type") == "string" and "enum" in schema:
            self.aliases[named.group(1)] = pointer
        if "properties" in schema:
            if is_page(schema) or is_data_list(schema):
                self.visit(f"{pointer}/properties/data/items", seen)
                return
            self.classes[self.class_name(pointer)] = pointer
            for name in schema["properties"]:
                self.visit(f"{pointer}/properties/{escape_pointer(name)}", seen)
        if "items" in schema:
            self.visit(f"{pointer}/items", seen)
        if isinstance(schema.get("additionalProperties"), dict):
            self.visit(f"{pointer}/additionalProperties", seen)

    def nullable_one_of(self, schema: Dict[str, Any]) -> bool:
        parts = schema.get("oneOf", [])
        return len(parts) == 2 and any(part.get("type") == "null" for part in parts)

    def class_name(self, pointer: str) -> str:
        if pointer in INLINE_NAMES:
            return INLINE_NAMES[pointer]
        match = re.fullmatch(r"#/components/schemas/([A-Za-z0-9]+)", pointer)
        if not match:
            raise SystemExit(f"an inline object schema needs a name in INLINE_NAMES: {pointer}")
        return match.group(1)

    # -- how to write it ----------------------------------------------------------------------

    def python_type(self, pointer: str) -> str:
        schema = resolve(self.document, pointer)
        if "$ref" in schema:
            target = schema["$ref"]
            name = target.rsplit("/", 1)[1]
            if name in self.aliases or name in self.classes:
                return name
            return self.python_type(target)
        if "allOf" in schema and len(schema["allOf"]) == 1:
            return self.python_type(f"{pointer}/allOf/0")
        if "oneOf" in schema:
            if self.nullable_one_of(schema):
                index = next(i for i, part in enumerate(schema["oneOf"]) if part.get("type") != "null")
                return f"Optional[{self.python_type(f'{pointer}/oneOf/{index}')}]"
            return "Dict[str, Any]"
        types = schema.get("type")
        types = types if isinstance(types, list) else [types]
        nullable = "null" in types
        present = [kind for kind in types if kind != "null"]
        kind = present[0] if len(present) == 1 else None
        if "enum" in schema:
            values = [value for value in schema["enum"] if value is not None]
            rendered = f"Literal[{', '.join(json.dumps(value) for value in values)}]"
        elif "const" in schema and kind == "string":
            rendered = f"Literal[{json.dumps(schema['const'])}]"
        elif kind == "string":
            if schema.get("format") == "date-time":
                rendered = "_dt.datetime"
            elif schema.get("format") == "date":
                rendered = "_dt.date"
            elif is_decimal(schema):
                rendered = "Decimal"
            else:
                rendered = "str"
        elif kind == "integer":
            rendered = "int"
        elif kind == "number":
            rendered = "Decimal"
        elif kind == "boolean":
            rendered = "bool"
        elif kind == "array":
            rendered = f"List[{self.python_type(f'{pointer}/items')}]"
        elif kind == "object" or "properties" in schema:
            if "properties" in schema:
                rendered = self.class_name(pointer)
            elif isinstance(schema.get("additionalProperties"), dict):
                rendered = f"Dict[str, {self.python_type(f'{pointer}/additionalProperties')}]"
            else:
                rendered = "Dict[str, Any]"
        else:
            rendered = "Any"
        return f"Optional[{rendered}]" if nullable and not rendered.startswith("Optional[") else rendered

    def render_alias(self, name: str) -> str:
        values = resolve(self.document, self.aliases[name])["enum"]
        lines = [f"{name} = Literal["]
        lines += [f"    {json.dumps(value)}," for value in values]
        lines.append("]")
        return "\n".join(lines)

    def render_class(self, name: str) -> str:
        pointer = self.classes[name]
        schema = resolve(self.document, pointer)
        required = set(schema.get("required", []))
        mandatory, optional = [], []
        for member in schema["properties"]:
            annotation = self.python_type(f"{pointer}/properties/{escape_pointer(member)}")
            if member in required:
                mandatory.append(f"    {member}: {annotation}")
            else:
                if not annotation.startswith("Optional["):
                    annotation = f"Optional[{annotation}]"
                optional.append(f"    {member}: {annotation} = None")
        where = pointer.replace("~1", "/")
        lines = [
            "@dataclass(frozen=True)",
            f"class {name}(Model):",
            f'    """The object the OpenAPI document describes at ``{where}``."""',
            "",
            f"    __schema__ = {json.dumps(pointer)}",
            "",
        ]
        return "\n".join(lines + mandatory + optional)

    def render(self) -> str:
        seen: Set[str] = set()
        for root in self.roots():
            self.visit(root, seen)
        names = sorted(self.aliases) + sorted(self.classes)
        parts = [
            '"""The API\'s objects, one class per schema of the OpenAPI document.',
            "",
            "Generated by scripts/generate_types.py from supabase/functions/v3/openapi.json: do not edit,",
            "run the script again (a test fails while this file is stale).",
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "import datetime as _dt",
            "from dataclasses import dataclass",
            "from decimal import Decimal",
            "from typing import Any, Dict, List, Literal, Optional",
            "",
            "from ._model import Model",
            "",
            "__all__ = [",
            *[f"    {json.dumps(name)}," for name in names],
            "]",
        ]
        for name in sorted(self.aliases):
            parts += ["", "", self.render_alias(name)]
        for name in sorted(self.classes):
            parts += ["", "", self.render_class(name)]
        return "\n".join(parts) + "\n"


def render(document: Dict[str, Any]) -> str:
    return Generator(document).render()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--document", type=Path, default=DOCUMENT)
    parser.add_argument("--check", action="store_true", help="fail when types.py is stale")
    args = parser.parse_args(argv)
    text = render(json.loads(args.document.read_text(encoding="utf-8")))
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is stale: run scripts/generate_types.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
