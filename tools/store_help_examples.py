"""Store the printed examples of probcal 0.2.0's help pages as a reference file.

The help pages of ``cal_test()`` and ``cal_ci()`` (probcal 0.2.0) end with
examples whose output R printed as ``#>`` lines. Those four blocks are the
project's seed examples: ``reference/help_examples.json`` keeps them, with the
R code that produced each, so the repository needs no outside document.

Usage::

    python tools/store_help_examples.py DIR [--check]

``DIR`` holds the help pages as text files (``*.txt``). With ``--check`` the
stored file is compared with what ``DIR`` gives, and the exit status is 1 on
any difference.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STORED = REPO / "reference" / "help_examples.json"

SOURCE = ("probcal 0.2.0 help pages, cal_test() and cal_ci(), section Examples: "
          "the R code and the output R printed (#> lines)")


def _examples(text: str) -> list:
    """Each ``#>`` block with the code since the previous block and its last call."""
    examples, code, out = [], [], None
    in_examples = False
    for line in text.splitlines():
        if line == "Examples":
            in_examples = True
            continue
        if not in_examples:
            continue
        if line.startswith("#>"):
            out = [] if out is None else out
            out.append(line[3:] if line.startswith("#> ") else line[2:])
            continue
        if out is not None:
            examples.append(_example(code, out))
            code, out = [], None
        code.append(line)
    if out is not None:
        examples.append(_example(code, out))
    return examples


def _example(code: list, out: list) -> dict:
    lines = [ln for ln in code if ln.strip()]
    return {"code": "\n".join(lines), "call": lines[-1], "output": "\n".join(out)}


def collect(seeds: Path) -> dict:
    pages = []
    for path in sorted(seeds.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        examples = _examples(text)
        if examples:
            topic = examples[0]["call"].split("(")[0]
            pages.append({"topic": topic, "title": text.splitlines()[0], "examples": examples})
    return {"source": SOURCE, "probcal_version": "0.2.0", "pages": pages}


def dumps(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path, help="folder holding the help pages as *.txt")
    ap.add_argument("--check", action="store_true",
                    help="compare with reference/help_examples.json instead of writing it")
    args = ap.parse_args(argv)
    if not args.dir.is_dir():
        ap.error(f"{args.dir} is not a folder")
    text = dumps(collect(args.dir))
    if args.check:
        same = STORED.read_text(encoding="utf-8") == text
        print("reference/help_examples.json " + ("matches" if same else "DIFFERS from") + f" {args.dir}")
        return 0 if same else 1
    STORED.write_text(text, encoding="utf-8")
    print(f"wrote {STORED.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
