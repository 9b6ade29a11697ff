"""The D-Bus wire format: method calls written, replies read, nothing else.

Why our own: reading a tree means thousands of small calls, pipelined (see
:mod:`.connection`). A general D-Bus library spends most of a call's time building objects
for each reply's header; measured on Calc's tree (docs/benchmarks.md), parsing a reply
here costs a fraction of that. The format is the D-Bus specification's "Message
Protocol": a 16-byte fixed header, an array of header fields, the body; every value
aligned to its size from the start of the message (structs and dict entries to 8).

Only what a client of AT-SPI needs: calls with basic-typed arguments out; replies,
errors and signals in, with any signature (containers and variants included). Bytes that
are not such a message raise ValueError (the connection reports it as an EnvError).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

METHOD_CALL, METHOD_RETURN, ERROR, SIGNAL = 1, 2, 3, 4
_FIELD_PATH, _FIELD_INTERFACE, _FIELD_MEMBER, _FIELD_ERROR_NAME = 1, 2, 3, 4
_FIELD_REPLY_SERIAL, _FIELD_DESTINATION, _FIELD_SENDER, _FIELD_SIGNATURE = 5, 6, 7, 8

_BASIC = {"y": "B", "b": "I", "n": "h", "q": "H", "i": "i", "u": "I", "x": "q", "t": "Q", "d": "d", "h": "I"}
_ALIGN = {"y": 1, "b": 4, "n": 2, "q": 2, "i": 4, "u": 4, "x": 8, "t": 8, "d": 8, "h": 4, "s": 4, "o": 4, "g": 1,
          "a": 4, "(": 8, "{": 8, "v": 1}


class Reply:
    """One message received: a method's return or error, or a signal.

    ``body`` holds the decoded arguments (a tuple); an error's first argument is its
    message. ``reply_to`` is the serial of the call it answers (0 for a signal).
    A plain class with slots: a tree read makes thousands.
    """

    __slots__ = ("body", "error_name", "kind", "reply_to")

    def __init__(self, kind: int, reply_to: int, body: tuple[Any, ...], error_name: str = "") -> None:
        self.kind, self.reply_to, self.body, self.error_name = kind, reply_to, body, error_name

    @property
    def is_error(self) -> bool:
        return self.kind == ERROR

    def __repr__(self) -> str:
        return f"Reply(kind={self.kind}, reply_to={self.reply_to}, body={self.body!r}, error_name={self.error_name!r})"


# ---------------------------------------------------------------------- signatures
@lru_cache(maxsize=256)
def _split(signature: str) -> tuple[str, ...]:
    return tuple(split_signature(signature))


def split_signature(signature: str) -> list[str]:
    """The complete types of a signature: ``"a{ss}(ii)u"`` -> ``["a{ss}", "(ii)", "u"]``."""
    types, index = [], 0
    while index < len(signature):
        end = _type_end(signature, index)
        types.append(signature[index:end])
        index = end
    return types


def _type_end(signature: str, index: int) -> int:
    code = signature[index]
    if code == "a":
        return _type_end(signature, index + 1)
    if code in "({":
        close = ")" if code == "(" else "}"
        index += 1
        while signature[index] != close:
            index = _type_end(signature, index)
        return index + 1
    if code not in _ALIGN:
        raise ValueError(f"unknown D-Bus type code {code!r} in signature {signature!r}")
    return index + 1


# ---------------------------------------------------------------------- reading
Decoder = Callable[[bytes, int], tuple[Any, int]]


@lru_cache(maxsize=256)
def _decoder(type_: str, big: bool) -> Decoder:
    """A function reading one value of the complete type ``type_`` at an offset."""
    order = ">" if big else "<"
    code = type_[0]
    if code in _BASIC:
        return _basic_decoder(struct.Struct(order + _BASIC[code]), code == "b")
    if code in "so":
        length = struct.Struct(order + "I")

        def read_string(data: bytes, offset: int) -> tuple[Any, int]:
            offset += -offset % 4
            (size,) = length.unpack_from(data, offset)
            start = offset + 4
            return data[start:start + size].decode("utf-8", "replace"), start + size + 1

        return read_string
    if code == "g":
        return _read_signature
    if code == "v":
        return _variant_decoder(big)
    if code == "a":
        return _array_decoder(type_[1:], big)
    return _struct_decoder(type_, big)


def _basic_decoder(fmt: struct.Struct, boolean: bool) -> Decoder:
    size = fmt.size

    def read_basic(data: bytes, offset: int) -> tuple[Any, int]:
        offset += -offset % size
        (value,) = fmt.unpack_from(data, offset)
        return (bool(value) if boolean else value), offset + size

    return read_basic


def _read_signature(data: bytes, offset: int) -> tuple[Any, int]:
    size = data[offset]
    return data[offset + 1:offset + 1 + size].decode("ascii"), offset + size + 2


def _variant_decoder(big: bool) -> Decoder:
    def read_variant(data: bytes, offset: int) -> tuple[Any, int]:
        signature, offset = _read_signature(data, offset)
        return _decoder(signature, big)(data, offset)

    return read_variant


def _array_decoder(item_type: str, big: bool) -> Decoder:
    length = struct.Struct((">" if big else "<") + "I")
    item_align = _ALIGN[item_type[0]]
    is_dict = item_type[0] == "{"
    read_item = _decoder(item_type, big)

    def read_array(data: bytes, offset: int) -> tuple[Any, int]:
        offset += -offset % 4
        (size,) = length.unpack_from(data, offset)
        offset += 4
        offset += -offset % item_align
        end = offset + size
        items = []
        while offset < end:
            item, offset = read_item(data, offset)
            items.append(item)
        return (dict(items) if is_dict else items), end

    return read_array


def _struct_decoder(type_: str, big: bool) -> Decoder:
    fields = [_decoder(t, big) for t in split_signature(type_[1:-1])]

    def read_struct(data: bytes, offset: int) -> tuple[Any, int]:
        offset += -offset % 8
        values = []
        for read in fields:
            value, offset = read(data, offset)
            values.append(value)
        return tuple(values), offset

    return read_struct


def message_size(data: bytes | bytearray | memoryview, offset: int = 0) -> int | None:
    """The length of the message starting at ``offset``, or None until 16 bytes are there."""
    if len(data) - offset < 16:
        return None
    big = data[offset] == ord("B")
    body_length, fields_length = struct.unpack_from(">I4xI" if big else "<I4xI", data, offset + 4)
    header = 16 + fields_length
    return header + (-header % 8) + body_length


def _header_fields(data: bytes, big: bool) -> tuple[int, str, str, int]:
    """Reply serial, signature and error name from the header fields; the body's offset.

    Read by hand rather than as ``a(yv)``: every reply has them, and this is the hot path.
    """
    u32 = struct.Struct(">I" if big else "<I").unpack_from
    (fields_length,) = u32(data, 12)
    offset, end = 16, 16 + fields_length
    reply_to, signature, error_name = 0, "", ""
    while offset < end:
        offset += -offset % 8
        code, size = data[offset], data[offset + 1]
        type_code = data[offset + 2:offset + 2 + size]
        offset += 3 + size
        if type_code in (b"s", b"o"):
            offset += -offset % 4
            (length,) = u32(data, offset)
            text = data[offset + 4:offset + 4 + length].decode("utf-8", "replace")
            offset += 5 + length
            if code == _FIELD_ERROR_NAME:
                error_name = text
        elif type_code == b"g":
            length = data[offset]
            if code == _FIELD_SIGNATURE:
                signature = data[offset + 1:offset + 1 + length].decode("ascii")
            offset += 2 + length
        elif type_code == b"u":
            offset += -offset % 4
            (number,) = u32(data, offset)
            offset += 4
            if code == _FIELD_REPLY_SERIAL:
                reply_to = number
        else:  # a field of a type the specification does not give any field: read it generically
            _value, offset = _decoder(type_code.decode("ascii"), big)(data, offset)
    return reply_to, signature, error_name, end + (-end % 8)


def decode_message(data: bytes) -> Reply:
    """One whole message (as :func:`message_size` measured it) as a :class:`Reply`."""
    if data[0] not in (ord("l"), ord("B")):
        raise ValueError(f"not a D-Bus message (endianness byte {data[0]!r})")
    big = data[0] == ord("B")
    try:
        reply_to, signature, error_name, offset = _header_fields(data, big)
        body = []
        for type_ in _split(signature):
            value, offset = _decoder(type_, big)(data, offset)
            body.append(value)
    except (struct.error, IndexError) as exc:
        raise ValueError(f"a message ends early: {exc}") from None
    return Reply(data[1], reply_to, tuple(body), error_name)


# ---------------------------------------------------------------------- writing
class _Writer:
    """Little-endian values appended with D-Bus alignment (from the buffer's start)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def pad(self, align: int) -> None:
        self.data += b"\0" * (-len(self.data) % align)

    def value(self, type_: str, value: Any) -> None:
        code = type_[0]
        if code in _BASIC:
            fmt = "<" + _BASIC[code]
            self.pad(struct.calcsize(fmt))
            self.data += struct.pack(fmt, int(value) if code == "b" else value)
        elif code in "so":
            raw = str(value).encode("utf-8")
            self.pad(4)
            self.data += struct.pack("<I", len(raw)) + raw + b"\0"
        elif code == "g":
            raw = str(value).encode("ascii")
            self.data += bytes([len(raw)]) + raw + b"\0"
        elif code == "v":
            signature, inner = value
            self.value("g", signature)
            self.value(signature, inner)
        elif code == "a":
            self._array(type_[1:], value)
        else:
            self.pad(8)
            for field_type, field_value in zip(split_signature(type_[1:-1]), value, strict=True):
                self.value(field_type, field_value)

    def _array(self, item_type: str, items: Any) -> None:
        self.pad(4)
        at = len(self.data)
        self.data += b"\0\0\0\0"
        self.pad(_ALIGN[item_type[0]])
        start = len(self.data)
        pairs = items.items() if item_type[0] == "{" else items
        for item in pairs:
            self.value(item_type, item)
        struct.pack_into("<I", self.data, at, len(self.data) - start)


def _string_field(code: int, type_code: str, text: str) -> bytes:
    """One header field (a struct, so it starts 8-aligned): code, variant of a string type."""
    raw = text.encode("utf-8")
    return bytes((code, 1, ord(type_code), 0)) + struct.pack("<I", len(raw)) + raw + b"\0"


def _pad8(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 8)


@lru_cache(maxsize=512)
def _call_template(destination: str, interface: str, member: str, signature: str) -> bytes:
    """The header fields every call to this method shares, padded so the path field follows."""
    fields = [_string_field(_FIELD_INTERFACE, "s", interface), _string_field(_FIELD_MEMBER, "s", member),
              _string_field(_FIELD_DESTINATION, "s", destination)]
    if signature:
        raw = signature.encode("ascii")
        fields.append(bytes((_FIELD_SIGNATURE, 1, ord("g"), 0, len(raw))) + raw + b"\0")
    return b"".join(_pad8(f) for f in fields)


@lru_cache(maxsize=1024)
def _body(signature: str, args: tuple[Any, ...]) -> bytes:
    body = _Writer()
    for type_, value in zip(split_signature(signature), args, strict=True):
        body.value(type_, value)
    return bytes(body.data)


def encode_call(serial: int, *, destination: str, path: str, interface: str, member: str,
                signature: str = "", args: Sequence[Any] = ()) -> bytes:
    """A method call message, ready for the socket.

    The fields shared by every call of a method are built once (:func:`_call_template`);
    only the object path and the serial change from call to call.
    """
    body = _body(signature, tuple(args)) if signature else b""
    fields = _call_template(destination, interface, member, signature) + _string_field(_FIELD_PATH, "o", path)
    header = struct.pack("<4sIII", b"l\x01\x00\x01", len(body), serial, len(fields)) + fields
    return _pad8(header) + body


__all__ = ["ERROR", "METHOD_CALL", "METHOD_RETURN", "SIGNAL", "Reply", "decode_message", "encode_call",
           "message_size", "split_signature"]
