#!/usr/bin/env python3
"""Writes the PNG fixtures of PNGDecodingTests, and beside each one the 8-bit RGBA bytes that
decoding it must give (`NAME.rgba`, row-major, straight alpha).

Run from this folder with pypng installed (`pip install pypng`). The files are committed; this
script documents how they were made. Every image is 9×7, so that interlaced files exercise all
seven Adam7 passes.
"""
import struct
import zlib

import png

W, H = 9, 7


def sample(x, y, channel, depth):
    """A deterministic sample in 0 ... 2**depth - 1 for a pixel and channel."""
    top = 2**depth - 1
    return (x * 37 + y * 71 + channel * 113 + x * y * 11) % (top + 1)


def sample16(x, y, channel):
    """A 16-bit sample whose 8-bit rounding (value / 257) is unambiguous: v8 * 257 + offset."""
    v8 = sample(x, y, channel, 8)
    offset = ((x * 5 + y * 3 + channel) % 200) - 100
    return max(0, min(65535, v8 * 257 + offset)), v8


def write(name, rows, expected, **kwargs):
    with open(name + ".png", "wb") as f:
        png.Writer(W, H, **kwargs).write(f, rows)
    with open(name + ".rgba", "wb") as f:
        f.write(bytes(expected))


def gray(depth, name, interlace=False, transparent=None):
    rows, expected = [], []
    scale = 255 // (2**depth - 1)
    for y in range(H):
        row = []
        for x in range(W):
            v = sample(x, y, 0, depth)
            row.append(v)
            a = 0 if transparent is not None and v == transparent else 255
            expected += [v * scale] * 3 + [a]
        rows.append(row)
    write(name, rows, expected, greyscale=True, bitdepth=depth, interlace=interlace,
          transparent=transparent)


def gray16(name, alpha=False):
    rows, expected = [], []
    for y in range(H):
        row = []
        for x in range(W):
            v, v8 = sample16(x, y, 0)
            row.append(v)
            a8 = 255
            if alpha:
                a, a8 = sample16(x, y, 3)
                row.append(a)
            expected += [v8] * 3 + [a8]
        rows.append(row)
    write(name, rows, expected, greyscale=True, alpha=alpha, bitdepth=16)


def gray_alpha8(name):
    rows, expected = [], []
    for y in range(H):
        row = []
        for x in range(W):
            v, a = sample(x, y, 0, 8), sample(x, y, 3, 8)
            row += [v, a]
            expected += [v] * 3 + [a]
        rows.append(row)
    write(name, rows, expected, greyscale=True, alpha=True, bitdepth=8)


def palette(depth, name, with_alpha, interlace=False):
    size = 2**depth
    entries = []
    for i in range(size):
        color = ((i * 53) % 256, (i * 101 + 7) % 256, (i * 29 + 200) % 256)
        entries.append(color + ((i * 61) % 256,) if with_alpha else color)
    rows, expected = [], []
    for y in range(H):
        row = []
        for x in range(W):
            i = sample(x, y, 0, depth)
            row.append(i)
            e = entries[i]
            expected += list(e[:3]) + [e[3] if with_alpha else 255]
        rows.append(row)
    write(name, rows, expected, palette=entries, bitdepth=depth, interlace=interlace)


def rgb(depth, name, alpha=False, interlace=False, transparent=None, gamma=None):
    rows, expected = [], []
    channels = 4 if alpha else 3
    for y in range(H):
        row = []
        for x in range(W):
            pixel8 = []
            for c in range(channels):
                if depth == 16:
                    v, v8 = sample16(x, y, c)
                else:
                    v = v8 = sample(x, y, c, 8)
                row.append(v)
                pixel8.append(v8)
            if not alpha:
                rgb_value = tuple(row[-3:])
                pixel8.append(0 if transparent is not None and rgb_value == transparent else 255)
            expected += pixel8
        rows.append(row)
    write(name, rows, expected, greyscale=False, alpha=alpha, bitdepth=depth, interlace=interlace,
          transparent=transparent, gamma=gamma)


gray(1, "gray1")
gray(2, "gray2")
gray(2, "gray2-interlaced", interlace=True)
gray(4, "gray4")
gray(8, "gray8")
gray(8, "gray8-trns", transparent=sample(0, 0, 0, 8))
gray16("gray16")
gray_alpha8("gray-alpha8")
gray16("gray-alpha16", alpha=True)
palette(1, "palette1", with_alpha=False)
palette(2, "palette2-trns", with_alpha=True)
palette(4, "palette4", with_alpha=False)
palette(8, "palette8-trns", with_alpha=True)
palette(8, "palette8-trns-interlaced", with_alpha=True, interlace=True)
rgb(8, "rgb8")
rgb(8, "rgb8-trns", transparent=tuple(sample(1, 1, c, 8) for c in range(3)))
rgb(8, "rgb8-gamma", gamma=1.0)
rgb(16, "rgb16")
rgb(16, "rgb16-interlaced", interlace=True)
rgb(8, "rgba8", alpha=True)
rgb(8, "rgba8-interlaced", alpha=True, interlace=True)
rgb(16, "rgba16", alpha=True)


def chunk(kind, data, crc=None):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", crc if crc is not None else zlib.crc32(body))


SIGNATURE = b"\x89PNG\r\n\x1a\n"


def header_only(name, width, height):
    """A well-formed PNG whose header announces a size, with one tiny (wrong) IDAT."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    data = SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 5)) + chunk(b"IEND", b"")
    with open(name + ".png", "wb") as f:
        f.write(data)


header_only("bad-huge-side", 100_000, 1)
header_only("bad-huge-area", 10_000, 10_000)
header_only("bad-zero-width", 0, 1)

# Correct checksums, but the compressed pixel data is garbage.
ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0)
with open("bad-zlib.png", "wb") as f:
    f.write(SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"\x78\x9c\xff\xff\xff\xff") + chunk(b"IEND", b""))


def palette_file(name, depth, entries, indices, width=4, height=4):
    """A palette PNG written chunk by chunk, so that its PLTE can break the rules: `entries` is
    the PLTE chunk's bytes, `indices` the rows of palette indices (8-bit samples only)."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, 3, 0, 0, 0)
    raw = b"".join(b"\0" + bytes(row) for row in indices)
    data = (SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"PLTE", entries)
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    with open(name + ".png", "wb") as f:
        f.write(data)


square = [[(x + y) % 4 for x in range(4)] for y in range(4)]
# 300 colours claimed: a palette holds at most 256.
palette_file("bad-palette-300-colours", 8, bytes(i % 256 for i in range(900)), square)
# Not a whole number of colours.
palette_file("bad-palette-ragged", 8, bytes(range(10)), square)
# Palette images have 1, 2, 4 or 8 bits a pixel; 16 would index 65,536 colours.
palette_file("bad-palette-16-bit", 16, bytes(range(12)), [[0] * 8 for _ in range(4)])

# An 8-bit palette image whose PLTE lists 20 colours but whose pixels use only the first 4: legal
# enough for libpng (it keeps the palette), so it must decode.
entries = bytes(v for i in range(20) for v in ((i * 53) % 256, (i * 101 + 7) % 256, (i * 29 + 200) % 256))
palette_file("palette8-unused-entries", 8, entries, square)
with open("palette8-unused-entries.rgba", "wb") as f:
    f.write(bytes(v for row in square for i in row for v in (entries[3 * i], entries[3 * i + 1], entries[3 * i + 2], 255)))
