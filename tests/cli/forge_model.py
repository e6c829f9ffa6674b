"""Edits one entry of a [data SECTION] of a kernelmix model and recomputes the checksum, so that the
edited file passes the checksum and reaches the model's validation (tests/cli/test_hostile_model_data.sh,
python/tests/test_forged_model.py).

    forge_model.py MODEL OUT SECTION KEY EDIT [ARG]

EDIT is one of: set I VALUE (value I, 0-based, of the entry's values), fill VALUE (every value),
drop-row (the last row), text (the entry becomes a text), add VALUE (a new 1 x 1 entry KEY),
remove (the entry is deleted)."""
import sys
import zlib


def forge(data, section, key, edit, *args):
    lines = data[:data.rindex(b"checksum crc32 ")].decode().split("\n")
    start = lines.index("[data %s]" % section)
    end = start + 1
    while end < len(lines) and not lines[end].startswith("["):
        end += 1
    if edit == "add":
        lines.insert(start + 1, "%s rows 1 1" % key)
        lines.insert(start + 2, args[0])
    else:
        at = next(k for k in range(start + 1, end) if lines[k].split(" ")[0] == key)
        _, _, rows, cols = lines[at].split(" ")
        rows, cols = int(rows), int(cols)
        values = [line.split(" ") for line in lines[at + 1:at + 1 + rows]]
        flat = [v for row in values for v in row]
        if edit == "set":
            flat[int(args[0])] = args[1]
        elif edit == "fill":
            flat = [args[0]] * len(flat)
        elif edit == "drop-row":
            rows -= 1
            flat = flat[:rows * cols]
        new = ["%s rows %d %d" % (key, rows, cols)] + [" ".join(flat[r * cols:(r + 1) * cols]) for r in range(rows)]
        if edit == "text":
            new = ['%s text "x"' % key]
        elif edit == "remove":
            new = []
        lines[at:at + 1 + int(lines[at].split(" ")[2])] = new
    body = "\n".join(lines).encode()
    return body + b"checksum crc32 %08x\n" % zlib.crc32(body)


if __name__ == "__main__":
    model, out = sys.argv[1:3]
    with open(model, "rb") as f:
        forged = forge(f.read(), *sys.argv[3:])
    with open(out, "wb") as f:
        f.write(forged)
