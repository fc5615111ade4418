# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 man/*.Rd (the Examples sections) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""``pycalib-r demo``: the examples of probcal's help pages, as Python calls.

R equivalent: the Examples sections of probcal's help pages.
"""

from __future__ import annotations

from ._args import subparser
from ._faults import PROG


def add(sub) -> None:
    subparser(sub, "demo", "print the examples of probcal's help pages", f"{PROG} demo")


def run(_args) -> int:
    import numpy as np

    import pycalib_r as pc

    # The calls are printed as a Python session (``>>>``), so the output is a
    # doctest that runs as shown (tests/suites/hostile/test_first_hour.py runs it).
    env = {"np": np, "pc": pc}

    def show(code: str) -> None:
        for line in code.strip().splitlines():
            print((">>> " if not line.startswith(" ") else "... ") + line)
            try:
                value = eval(compile(line, "<demo>", "eval"), env)
            except SyntaxError:
                exec(compile(line, "<demo>", "exec"), env)
                continue
            if value is not None:
                print(repr(value) if not hasattr(value, "r_class") else value)

    print("# The examples of probcal 0.2.0's help pages, with R's random streams,")
    print("# as Python calls (each prints what R prints).\n")
    show("import numpy as np\nimport pycalib_r as pc")
    show("pc.set_seed(40); p = pc.runif(300); y = pc.rbinom(300, 1, p)\n"
         "print(pc.cal_test(p, y))")
    show("pc.set_seed(41); p2 = pc.runif(300); y2 = pc.rbinom(300, 1, np.clip(p2 - 0.25, 0, 1))\n"
         "print(pc.cal_test(p2, y2, data_name=\"p2 and y2\"))")
    show("pc.set_seed(42); p = pc.runif(300); y = pc.rbinom(300, 1, p)\n"
         "print(pc.cal_ci(p, y, metric=\"ece\", bins=10, n_boot=199))\n"
         "print(pc.cal_ci(p, y, metric=\"skce\", n_boot=199))")
    # As R prints a number: 7 significant digits.
    show("print(f\"{pc.ece(p, y):.7g}\")\nprint(f\"{pc.mmce(p, y):.7g}\")")
    return 0
