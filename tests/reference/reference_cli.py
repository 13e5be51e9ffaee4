"""The `curves` command line the numpy references share (numpy_multilabel.py, numpy_ratings.py):
`curves FILE --n 1,2,... --repeats R --seed S`, printing JSON {metric: {n: {mean, sd}}}."""


def add_curves(sub, run, file_arg, seed):
    """Adds the `curves` subcommand to `sub` (argparse subparsers), calling `run(args)`."""
    c = sub.add_parser("curves")
    c.add_argument(file_arg)
    c.add_argument("--n", required=True, help="comma-separated N")
    c.add_argument("--repeats", type=int, default=100)
    c.add_argument("--seed", type=int, default=seed)
    c.set_defaults(run=run)
    return c
