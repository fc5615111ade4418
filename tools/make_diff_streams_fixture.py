"""Store R's answers to stream programs 0..N-1 (reference/fixtures/diff_streams.json).

    python tools/make_diff_streams_fixture.py [N]     # default 200

Runs ``Rscript reference/r/diff_streams.R`` on the programs of
tests/_stream_programs.py and writes, per program, its R calls and R's result
lines, with the R and probcal versions. tests/suites/differential/test_differential_streams.py
checks pycalib_r against the stored answers when R is not needed.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _stream_programs as sp  # noqa: E402


def _r_versions():
    out = subprocess.run(
        ["Rscript", "-e", 'cat(R.version$major, ".", R.version$minor, "\\n", sep = ""); '
         'cat(tryCatch(as.character(packageVersion("probcal")), error = function(e) "none"))'],
        capture_output=True, text=True, check=True).stdout.split()
    return out[0], out[1]


def main(count: int = 200) -> None:
    progs = [sp.program(pid) for pid in range(count)]
    with tempfile.TemporaryDirectory() as tmp:
        calls = Path(tmp) / "calls.txt"
        out = Path(tmp) / "out.txt"
        lines = []
        for prog in progs:
            lines.append("#program")
            lines.extend(c.r for c in prog)
        calls.write_text("\n".join(lines) + "\n", encoding="utf-8")
        subprocess.run(["Rscript", str(REPO / "reference" / "r" / "diff_streams.R"),
                        str(calls), str(out)], check=True)
        results = out.read_text(encoding="utf-8").split("\n")
    r_version, probcal_version = _r_versions()
    entries, pos = [], 0
    for pid, prog in enumerate(progs):
        # .Random.seed (up to 626 words a call) as its digest: the file stays small.
        entries.append({"id": pid, "calls": [c.r for c in prog],
                        "r": [sp.digest_line(line) for line in results[pos:pos + len(prog)]]})
        pos += len(prog)
    data = {"generator": "tests/_stream_programs.py", "salt": sp.SALT,
            "r_version": r_version, "probcal_version": probcal_version,
            "date": datetime.date.today().isoformat(),
            "rng_kind": ["Mersenne-Twister", "Inversion", "Rejection"],
            "script": "reference/r/diff_streams.R",
            "cases": [],  # the records are the programs
            "programs": entries}
    target = REPO / "reference" / "fixtures" / "diff_streams.json"
    target.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    print(f"{count} programs -> {target.relative_to(REPO)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
