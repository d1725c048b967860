"""The site's command line (docs/architecture.md#site):

    python -m site_builder build [--config config.toml] [--out DIR] [--only SLUG ...]
    python -m site_builder publish [--config config.toml] [--only SLUG ...]
    python -m site_builder serve     (the bot's warm site process: site_builder.serve)

A build makes what changed since the previous one: the tournaments whose log moved (``--only``:
those it names; every other tournament's pages stay as they are, byte for byte), nothing when
nothing did (it says so at once), everything when the settings, the theme or Tiebreak changed.

A bad configuration (an output folder the builder did not make included) prints one line and
exits 2; a build that could not be written (a full disk) or a publish that failed after its
retries prints one line and exits 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ranking import InputError
from site_builder.build import BuildError, BuildReport
from site_builder.publishers import PublishError
from site_builder.site import build_from_config, publish_from_config
from tiebreak.library import child_environment


def say_skipped(report: BuildReport) -> None:
    """One line on standard error for each file or tournament the build left out, and why."""
    for path, reason in report.skipped.items():
        print(f"python -m site_builder: left out {path}: {reason}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_builder", description="Build and publish the standings site.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    build = commands.add_parser("build", help="build the site from the store into [site].out_dir")
    build.add_argument("--config", metavar="PATH", help="configuration file (default ./config.toml)")
    build.add_argument("--out", metavar="DIR", help="output folder (default [site].out_dir)")
    publish = commands.add_parser("publish", help="build, then publish to [publish].target")
    publish.add_argument("--config", metavar="PATH", help="configuration file (default ./config.toml)")
    for command in (build, publish):
        command.add_argument("--only", metavar="SLUG", action="append", default=[],
                             help="build only this tournament (again for more); the others stay as they are")
    commands.add_parser("serve", help="answer build and publish requests on standard input, one per line, "
                        "each in a child forked from this warm process (the bot's)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        from site_builder.serve import serve  # the bot's warm site process only

        return serve(main)
    for key in set(os.environ) - set(child_environment()):
        del os.environ[key]  # the bot's variables (its token) reach no program the build or publish runs
    try:
        if args.command == "build":
            report = build_from_config(args.config, Path(args.out) if args.out else None, only=args.only)
            say_skipped(report)
            print(f"built {report.pages} files into {report.output} in {report.seconds:.2f} s "
                  f"({report.rendered} written, {report.reused} unchanged"
                  f"{': nothing new since the last build' if report.unchanged else ''})")
        else:
            print(publish_from_config(args.config, say_skipped, only=args.only))
    except InputError as error:
        print(f"python -m site_builder: error: {error}", file=sys.stderr)
        return 2
    except BuildError as error:  # the site could not be written (a full disk): one line, exit 1
        print(f"python -m site_builder: build failed: {error}", file=sys.stderr)
        return 1
    except PublishError as error:  # a failed publish after its retries: one line, exit 1
        print(f"python -m site_builder: publish failed: {error}", file=sys.stderr)
        return 1
    return 0
