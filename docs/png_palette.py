"""Shrink a screenshot: an 8-bit RGB(A) PNG rewritten with a palette of at most 256 colours.

Chromium writes screenshots as true-colour PNGs, quickly compressed; the page's few flat colours
and gentle gradients fit a palette, which makes the file several times smaller. Standard library
and NumPy only (docs/shots.py uses it; NumPy is imported when a file is shrunk)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data.startswith(SIGNATURE), "not a PNG"
    pos, found = len(SIGNATURE), []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        found.append((data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]))
        pos += 12 + length
    return found


def _unfilter(raw: bytes, width: int, height: int, bpp: int) -> np.ndarray:
    """The pixels of PNG scanlines (each a filter byte then its bytes), as rows of bytes."""
    import numpy as np  # (only here: importing the module needs no NumPy)

    stride = width * bpp
    out = np.zeros((height, stride), dtype=np.uint8)
    prior = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        if kind == 2:  # Up
            line = (line + prior) & 0xFF
        elif kind in (1, 3, 4):  # Sub, Average, Paeth: each byte needs the one to its left
            cur = line.tolist()
            up = prior.tolist()
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                if kind == 1:
                    guess = left
                elif kind == 3:
                    guess = (left + up[i]) >> 1
                else:
                    corner = up[i - bpp] if i >= bpp else 0
                    p = left + up[i] - corner
                    pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - corner)
                    guess = left if pa <= pb and pa <= pc else up[i] if pb <= pc else corner
                cur[i] = (cur[i] + guess) & 0xFF
            line = np.array(cur, dtype=np.int32)
        out[y] = line
        prior = line
    return out


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def to_palette(path: Path) -> None:
    """Rewrite the PNG at ``path`` with a palette of its 256 most common colours (rounded to 5
    bits a channel), every pixel mapped to the nearest one."""
    import numpy as np

    chunks = _chunks(path.read_bytes())
    width, height, depth, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    assert depth == 8 and colour in (2, 6), "an 8-bit RGB or RGBA PNG"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    pixels = _unfilter(raw, width, height, bpp).reshape(height * width, bpp)[:, :3]
    coarse = (pixels >> 3).astype(np.int32)
    keys = (coarse[:, 0] << 10) | (coarse[:, 1] << 5) | coarse[:, 2]
    counts = np.bincount(keys, minlength=1 << 15)
    common = np.argsort(counts)[::-1][:256]
    common = common[counts[common] > 0]
    palette = np.stack([(common >> 10) & 31, (common >> 5) & 31, common & 31], 1) * 8 + 4
    index = np.empty(len(pixels), dtype=np.uint8)
    for start in range(0, len(pixels), 16384):
        part = pixels[start : start + 16384].astype(np.int32)
        distance = ((part[:, None, :] - palette[None, :, :]) ** 2).sum(2)
        index[start : start + 16384] = distance.argmin(1)
    rows = index.reshape(height, width)
    scanlines = np.hstack([np.zeros((height, 1), np.uint8), rows]).tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    png = SIGNATURE + _chunk(b"IHDR", header)
    png += _chunk(b"PLTE", palette.astype(np.uint8).tobytes())
    png += _chunk(b"IDAT", zlib.compress(scanlines, 9)) + _chunk(b"IEND", b"")
    path.write_bytes(png)
