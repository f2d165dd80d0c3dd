#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Converts binary 8-bit PGM pictures (example 19_image_blur --out DIR) to grey PNG files, with
# Python's standard library only: python3 tools/pgm-to-png.py IN.pgm OUT.png
import struct
import sys
import zlib


def read_pgm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P5" or fields[3] != b"255":
        sys.exit(f"{path}: not a binary 8-bit PGM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h]


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def main():
    w, h, pixels = read_pgm(sys.argv[1])
    rows = b"".join(b"\0" + pixels[y * w:(y + 1) * w] for y in range(h))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    open(sys.argv[2], "wb").write(png)


main()
