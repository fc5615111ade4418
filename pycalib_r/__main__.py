"""``python -m pycalib_r``: the ``pycalib-r`` command line."""

import sys

from .cli import main

sys.exit(main())
