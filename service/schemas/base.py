"""Building blocks of the API's schemas: numbers, cards and suits, short field makers, and named unions.

Response schemas here are never used to write a response (the routes write JSON themselves, fast);
they describe it, for openapi.yaml and for the tests that check every response against the spec. So
every field of a response schema is `required` (the key is always there; `nullable` says when its value
may be null) and every response object is closed (`additionalProperties: false`): a key the code adds
without adding it here fails those tests.

A `Union` is a named `oneOf` of schemas told apart by one property, the discriminator (`game` for a
view, `type` for an action or an event). apispec writes marshmallow schemas as objects; a union is
registered as a component of its own (`register`) and a field holding one (`OneOf`) refers to it, through
apispec's documented extension points (`Components.schema`, `add_attribute_function`).
"""

from __future__ import annotations

import inspect
import math
import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, ValidationError, fields, validate

CARD_PATTERN = r"^[AKQJT987][SHDC]$"
SUITS = ("S", "H", "D", "C")
MAX_VERSION = 10**12  # versions are stream ids: keep numbers Redis accepts (and far beyond any game)


ASCII_INTEGER = re.compile(r"-?[0-9]{1,20}")


class WholeNumber(fields.Integer):
    """An integer that JSON may write as 2 or 2.0, but never 2.5 (marshmallow's Integer truncates)."""

    def _validated(self, value):
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
            raise self.make_error("invalid", input=value)
        if isinstance(value, str) and not ASCII_INTEGER.fullmatch(value):  # int() takes "٥" and "5\n"
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class JsonWholeNumber(WholeNumber):
    """A WholeNumber in a JSON body: a JSON number, not a string of digits ("7" is a wrong type there)."""

    def _validated(self, value):
        if isinstance(value, str):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class JsonBoolean(fields.Boolean):
    """A boolean in a JSON body: true or false only (marshmallow's also takes 1, "yes", "on"...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


# -- field makers: every response field is required; `nullable` lets its value be null ------------------


def _meta(description: str | None, extra: dict | None = None) -> dict:
    meta = dict(extra or {})
    if description:
        meta["description"] = description
    return meta


def integer(
    description: str | None = None,
    *,
    nullable: bool = False,
    required: bool = True,
    minimum: int | None = None,
    maximum: int | None = None,
    rule_range: tuple[int, int] | None = None,
    **meta,
) -> fields.Integer:
    """A whole number. `rule_range`: a range the game's rules set, documented but checked by the engine
    (422 naming the rule) rather than refused here as a malformed request."""
    checks = [validate.Range(min=minimum, max=maximum)] if minimum is not None or maximum is not None else []
    if rule_range:
        meta.update(minimum=rule_range[0], maximum=rule_range[1])
    return WholeNumber(required=required, allow_none=nullable, validate=checks, metadata=_meta(description, meta))


def seat(description: str | None = None, *, nullable: bool = False, required: bool = True) -> fields.Integer:
    return integer(
        description or "A seat number (0 is the first seat)", nullable=nullable, required=required, minimum=0, maximum=7
    )


def integers(description: str, *, nullable: bool = False, required: bool = True) -> fields.List:
    return fields.List(fields.Integer(), required=required, allow_none=nullable, metadata=_meta(description))


def seats(description: str, *, nullable: bool = False) -> fields.List:
    return fields.List(seat(), required=True, allow_none=nullable, metadata=_meta(description))


def text(
    description: str | None = None,
    *,
    nullable: bool = False,
    required: bool = True,
    enum: tuple[str, ...] | list[str] | None = None,
    **meta,
) -> fields.String:
    checks = [validate.OneOf(list(enum))] if enum else []
    return fields.String(required=required, allow_none=nullable, validate=checks, metadata=_meta(description, meta))


def boolean(description: str | None = None, *, required: bool = True) -> fields.Boolean:
    return fields.Boolean(required=required, metadata=_meta(description))


class CardField(fields.String):
    """A card: rank (A K Q J T 9 8 7) then suit (S H D C), e.g. `TS`. Exactly two characters (Python's
    `$` would also match before a trailing newline)."""


def card(description: str | None = None, *, nullable: bool = False, required: bool = True) -> CardField:
    return CardField(
        required=required,
        allow_none=nullable,
        validate=[validate.Regexp(CARD_PATTERN), validate.Length(equal=2)],
        metadata=_meta(description or "A card: rank (A K Q J T 9 8 7) then suit (S H D C), e.g. TS", {"example": "TS"}),
    )


def cards(
    description: str, *, nullable: bool = False, required: bool = True, max_items: int | None = None
) -> fields.List:
    checks = [validate.Length(max=max_items)] if max_items else []
    return fields.List(card(), required=required, allow_none=nullable, validate=checks, metadata=_meta(description))


def suit(
    description: str | None = None, *, nullable: bool = False, required: bool = True, no_trump: bool = False
) -> fields.String:
    choices = (*SUITS, "NT") if no_trump else SUITS
    return text(
        description or "A suit: S (spades), H (hearts), D (diamonds), C (clubs)",
        nullable=nullable,
        required=required,
        enum=choices,
    )


def nested(schema, description: str | None = None, *, nullable: bool = False, required: bool = True) -> fields.Nested:
    return fields.Nested(schema, required=required, allow_none=nullable, metadata=_meta(description))


def many(schema, description: str | None = None, *, nullable: bool = False, required: bool = True) -> fields.List:
    return fields.List(fields.Nested(schema), required=required, allow_none=nullable, metadata=_meta(description))


def constant(value: str, description: str | None = None) -> fields.String:
    """The discriminator of a union's member: a string that has exactly this one value."""
    return fields.String(required=True, validate=validate.OneOf([value]), metadata=_meta(description))


# -- unions ----------------------------------------------------------------------------------------------


class Union:
    """A named `oneOf` of marshmallow schemas, told apart by the property `by`, or (by=None) an `anyOf` of
    other unions (a value that is one of several unions, which may share values of their discriminators).

    `load` reads a request body as the member its discriminator names; every union is registered as a
    component of the spec by `register`."""

    registry: dict[str, Union] = {}

    def __init__(self, name: str, members, *, by: str | None, description: str):
        if name in Union.registry:
            raise ValueError(f"a union named {name} exists already")
        self.name, self.by, self.description = name, by, description
        self.members = dict(members) if by else list(members)
        # One instance of each member's schema, made at its first load: a marshmallow schema copies its
        # declared fields and nested schemas when it is made, and loading keeps no state in it.
        self._schemas: dict[type, Schema] = {}
        Union.registry[name] = self

    def values(self) -> list[str]:
        """The values of the discriminator (for an anyOf: of every union in it)."""
        return list(self.members) if self.by else [v for u in self.members for v in u.values()]

    def load(self, data):
        if self.by is None:
            return self._load_any(data)
        if not isinstance(data, dict):
            raise ValidationError({"_schema": ["must be a JSON object"]})
        value = data.get(self.by)
        member = self.members.get(value) if isinstance(value, str) else None
        if member is None:
            raise ValidationError({self.by: [f"must be one of: {', '.join(self.members)}"]})
        schema = self._schemas.get(member)
        if schema is None:
            schema = self._schemas[member] = member()
        return schema.load(data)

    def _load_any(self, data):
        """The first union that loads `data`; else the errors of the first whose discriminator knows it."""
        first_error = None
        for union in self.members:
            try:
                return union.load(data)
            except ValidationError as refused:
                value = data.get(union.by) if isinstance(data, dict) else None
                knows = isinstance(value, str) and value in union.members
                if first_error is None or (knows and not first_error[0]):
                    first_error = (knows, refused)
        raise first_error[1]

    def component(self, spec: APISpec) -> dict:
        if self.by is None:
            return {
                "description": self.description,
                "anyOf": [spec.components.get_ref("schema", union.name) for union in self.members],
            }
        names = {value: member.__name__ for value, member in self.members.items()}
        unique = list(dict.fromkeys(names.values()))
        return {
            "description": self.description,
            "oneOf": [spec.components.get_ref("schema", name) for name in unique],
            "discriminator": {
                "propertyName": self.by,
                "mapping": {value: spec.components.get_ref("schema", name)["$ref"] for value, name in names.items()},
            },
        }


class OneOf(fields.Field):
    """A field whose value is one member of a `Union` (documented as a reference to the union)."""

    def __init__(self, union: Union, **kwargs):
        super().__init__(**kwargs)
        self.union = union

    def _deserialize(self, value, attr, data, **kwargs):
        return self.union.load(value)


def oneof2properties(self, field, ret, **kwargs) -> dict:
    """apispec attribute function (MarshmallowPlugin.converter.add_attribute_function): a OneOf field
    refers to its union's component."""
    if not isinstance(field, OneOf):
        return {}
    ref = {"$ref": f"#/components/schemas/{field.union.name}"}
    return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref


class SeedField(fields.Field):
    """A match's seed: an integer, or a seed past 63 bits as its decimal digits (JSON codecs keep
    integers to 64 bits at most)."""

    @staticmethod
    def schema() -> dict:
        # A new dict each time: a shared one would be written as YAML anchors and aliases.
        return {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": "^[0-9]{1,40}$"}]}


def seed2properties(self, field, ret, **kwargs) -> dict:
    """apispec attribute function: a SeedField is an integer or a string of digits."""
    return SeedField.schema() if isinstance(field, SeedField) else {}


class Model(Schema):
    """Base of the API's object schemas. Each is a component of the spec under its class name, described by
    its docstring (apispec leaves `additionalProperties: false` out when a schema's Meta has a description,
    so the description is given to the component instead)."""


def _schema_class(nested):
    """The schema class a Nested field holds (a class, an instance, or a callable returning either)."""
    if isinstance(nested, type):
        return nested
    if isinstance(nested, Schema):
        return type(nested)
    if callable(nested):
        return _schema_class(nested())
    raise TypeError(f"cannot resolve the nested schema {nested!r}")


def _dependencies(field: fields.Field) -> list:
    """The schema classes and unions a field refers to."""
    if isinstance(field, OneOf):
        return [field.union]
    if isinstance(field, fields.Nested):
        return [_schema_class(field.nested)]
    if isinstance(field, fields.List):
        return _dependencies(field.inner)
    if isinstance(field, fields.Dict) and field.value_field is not None:
        return _dependencies(field.value_field)
    return []


def _register_schema(spec: APISpec, cls: type[Schema]) -> None:
    if cls.__name__ in spec.components.schemas:
        return
    for field in cls().fields.values():
        for dependency in _dependencies(field):
            _register(spec, dependency)
    description = prose(cls.__doc__)
    spec.components.schema(cls.__name__, {"description": description} if description else None, schema=cls)


def prose(doc: str | None) -> str:
    """A docstring as a description: its wrapped lines joined into paragraphs; a table's rows kept."""
    paragraphs = []
    for block in inspect.cleandoc(doc or "").split("\n\n"):
        lines = block.splitlines()
        table = lines and all(line.startswith("|") for line in lines)
        paragraphs.append("\n".join(lines) if table else " ".join(line.strip() for line in lines))
    return "\n\n".join(p for p in paragraphs if p)


def _register(spec: APISpec, item) -> None:
    if isinstance(item, Union):
        if item.name in spec.components.schemas:
            return
        for member in item.members.values() if item.by else item.members:
            _register(spec, member)
        spec.components.schema(item.name, item.component(spec))
    else:
        _register_schema(spec, item)


def _all_models(cls=None) -> list[type[Schema]]:
    """Every subclass of Model, but those marked `abstract = True` (bases that share fields)."""
    found = []
    for sub in (cls or Model).__subclasses__():
        if not sub.__dict__.get("abstract"):
            found.append(sub)
        found.extend(_all_models(sub))
    return found


class Plugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, writing OneOf fields as references to their unions."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        self.converter.add_attribute_function(oneof2properties)
        self.converter.add_attribute_function(seed2properties)


def register(spec: APISpec) -> None:
    """Every Model and Union as a component of the spec, each after the schemas it refers to (so every
    reference is to the described component). Called once, before the routes are documented."""
    for model in _all_models():
        _register(spec, model)
    for union in Union.registry.values():
        _register(spec, union)


def ref(name: str) -> dict:
    """A reference to a component schema, for a route's documentation."""
    return {"$ref": f"#/components/schemas/{name}"}
