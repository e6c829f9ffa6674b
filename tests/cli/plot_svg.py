"""Reading the figures of kernelmix plot for the tests: SVG marks by class, and PNG screenshots
(decoded with zlib) to check that the marks are drawn.

usage as a module: from plot_svg import marks, bar_heights, ...; as a script: see test_plot*.sh."""
import struct
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"


def marks(path, cls):
    """The attributes of every element of class cls, in document order."""
    root = ET.parse(path).getroot()
    return [dict(e.attrib, tag=e.tag.replace(NS, ""), title=(e.findtext(NS + "title") or ""))
            for e in root.iter() if e.get("class") == cls]


def size(path):
    root = ET.parse(path).getroot()
    return int(float(root.get("width"))), int(float(root.get("height")))


def box(mark):
    """(x0, y0, x1, y1) of a rect, a circle or a polyline."""
    if mark["tag"] == "rect":
        x, y, w, h = (float(mark[k]) for k in ("x", "y", "width", "height"))
        return x, y, x + w, y + h
    if mark["tag"] == "circle":
        cx, cy, r = float(mark["cx"]), float(mark["cy"]), float(mark["r"])
        return cx - r, cy - r, cx + r, cy + r
    points = [tuple(map(float, p.split(","))) for p in mark["points"].split()]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG, not interlaced."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, f"{path}: unsupported PNG {header}"
    channels = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def coloured_pixels(rows, x0, y0, x1, y1):
    """Pixels inside the box (rounded inwards) that are not white or grey: drawn in a colour."""
    count = 0
    for y in range(int(y0) + 1, int(y1)):
        for x in range(int(x0) + 1, int(x1)):
            if 0 <= y < len(rows) and 0 <= x < len(rows[y]):
                r, g, b = rows[y][x]
                count += max(r, g, b) - min(r, g, b) > 40
    return count
