"""``python -m pycalib_r``: the ``pycalib-r`` command line."""

import sys

from ._command import main

sys.exit(main())
