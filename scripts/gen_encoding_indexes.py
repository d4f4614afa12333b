"""Regenerate ``src/formtools/_spec/encoding_indexes.json`` from the Encoding Standard's indexes.

The indexes are the standard's own data files, ``index-*.txt`` in the repository
``whatwg/encoding`` (https://github.com/whatwg/encoding; © WHATWG, CC BY 4.0, and BSD 3-Clause
where incorporated into source code). Usage::

    python scripts/gen_encoding_indexes.py PATH_TO_A_CHECKOUT_OR_GIT_DIR [COMMIT]

A bare git directory (as the search tool's ``fetch`` leaves it) is read at ``COMMIT`` (default
``HEAD``). The JSON holds each index as a string with one character per pointer (U+FFFE where
the index has no code point for the pointer, the mark ``codecs.charmap_decode`` reads as
"undefined"), except ``gb18030-ranges``, which is a list of ``[pointer, code point]`` pairs; and
``source`` names the commit and each file's ``Identifier`` and ``Date`` lines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "formtools" / "_spec" / "encoding_indexes.json"
NULL = "\ufffe"
SINGLE_BYTE = (
    "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
    "iso-8859-8", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16",
    "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250", "windows-1251",
    "windows-1252", "windows-1253", "windows-1254", "windows-1255", "windows-1256",
    "windows-1257", "windows-1258", "x-mac-cyrillic",
)  # fmt: skip
MULTI_BYTE = ("jis0208", "jis0212", "big5", "euc-kr", "gb18030", "iso-2022-jp-katakana")


def main(where: str, commit: str = "HEAD") -> None:
    root = Path(where)
    bare = not (root / "index-big5.txt").exists()

    def read(name: str) -> str:
        if bare:
            return subprocess.run(
                ["git", "--git-dir", str(root), "show", f"{commit}:{name}"],
                check=True, capture_output=True, text=True, encoding="utf-8",
            ).stdout  # fmt: skip
        return (root / name).read_text("utf-8")

    revision = commit
    if bare:
        revision = subprocess.run(
            ["git", "--git-dir", str(root), "rev-parse", commit],
            check=True, capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip
    files: dict[str, dict[str, str]] = {}
    indexes: dict[str, object] = {}

    def entries(name: str) -> list[tuple[int, int]]:
        text = read(f"index-{name}.txt")
        header = files.setdefault(f"index-{name}.txt", {})
        found = []
        for line in text.split("\n"):  # not splitlines(): names hold U+0085, U+2028
            if line.startswith("#"):
                for key in ("Identifier", "Date"):
                    if line.startswith(f"# {key}: "):
                        header[key] = line.split(": ", 1)[1]
                continue
            if line.strip():
                pointer, code_point = line.split()[:2]
                found.append((int(pointer), int(code_point, 16)))
        return found

    for name in (*SINGLE_BYTE, *MULTI_BYTE):
        pairs = entries(name)
        size = 128 if name in SINGLE_BYTE else max(pointer for pointer, _ in pairs) + 1
        table = [NULL] * size
        for pointer, code_point in pairs:
            table[pointer] = chr(code_point)
        indexes[name] = "".join(table)
    indexes["gb18030-ranges"] = [list(pair) for pair in entries("gb18030-ranges")]
    document = {
        "source": {
            "repository": "https://github.com/whatwg/encoding",
            "commit": revision,
            "license": "CC BY 4.0 (BSD 3-Clause where incorporated into source code)",
            "files": files,
            "format": "each index a string, character i being pointer i's code point, U+FFFE "
            "where the index has none; gb18030-ranges a list of [pointer, code point]",
        },
        "indexes": indexes,
    }
    OUT.write_text(json.dumps(document, ensure_ascii=False, indent=0) + "\n", "utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main(*sys.argv[1:])
