"""The subcommands of ``pycalib-r``, in the order of ``--help``.

Adding a subcommand is a new module ``_cmd_NAME.py`` with ``add(sub)``
(its parser, through :func:`._args.subparser`, with an example) and
``run(args)`` (the work; returns the exit status), and one line here.
"""

COMMANDS = {
    "demo": "_cmd_demo",
    "metrics": "_cmd_metrics",
    "test": "_cmd_test",
    "ci": "_cmd_ci",
    "ece-ci": "_cmd_ece_ci",
    "validate": "_cmd_validate",
    "calibrate": "_cmd_calibrate",
    "diagram": "_cmd_diagram",
    "parity": "_cmd_parity",
}
