"""``tiebreak arbiter link|revoke|links``: personal links to the entry page (``tiebreak.links``).

    tiebreak arbiter link SLUG [--label NAME]    prints the link's URL, one line
    tiebreak arbiter revoke SLUG LABEL           the link answers 403 from now on
    tiebreak arbiter links SLUG [--json]         the links (labels, never secrets)
"""

from __future__ import annotations

import argparse
import json
import sys

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from tiebreak.store import Source, Store


def add_link_commands(commands: argparse._SubParsersAction) -> None:
    """Add ``arbiter`` and its actions (each takes ``--config``)."""
    arbiter = commands.add_parser("arbiter", help="personal links to the entry page (a browser page where an "
                                                  "arbiter enters results, for phones without Telegram)",
                                  description="Personal links to the entry page that `python -m bot` serves "
                                              "when config.toml has [web] listen = \"HOST:PORT\".")
    actions = arbiter.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = actions.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("--config", metavar="PATH", help="configuration file (default ./config.toml)")
        return parser

    link = action("link", "make a personal entry link for a tournament and print its URL (one line; only a hash "
                          "of its secret is kept, so print it where the arbiter gets it)")
    link.add_argument("--label", metavar="NAME", help="one word naming the link, for revoke (default: arbiter-N)")
    revoke = action("revoke", "revoke a link: it answers 403 from now on (what was entered through it stays)")
    revoke.add_argument("label", metavar="LABEL")
    links = action("links", "list a tournament's links: label, log identity, made, revoked (never the secrets)")
    links.add_argument("--json", action="store_true",
                       help='a list of {"id", "label", "actor", "created_at", "created_by", "revoked_at"}')


def arbiter_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    """Carry out ``tiebreak arbiter ACTION``."""
    from tiebreak.config import load_config  # the links only: the parser must not load the store (start-up time)
    from tiebreak.links import actor, make_link, revoke_link  # the links only (start-up time)
    from tiebreak.tables import printable  # the links only (start-up time)

    if args.action == "link":
        _, url = make_link(store, load_config(args.config), args.slug, args.label, source.actor)
        print(url)
    elif args.action == "revoke":
        link = revoke_link(store, args.slug, args.label)
        print(f"revoked: {args.slug} link {printable(link.label)} ({actor(link)}); its page answers 403 from now on")
    else:
        rows = [{"id": link.id, "label": link.label, "actor": actor(link), "created_at": link.created_at,
                 "created_by": link.created_by, "revoked_at": link.revoked_at} for link in store.links(args.slug)]
        if args.json:
            sys.stdout.write(json.dumps(rows, ensure_ascii=False) + "\n")
            return
        if not rows:
            print(f"{args.slug} has no entry links: `tiebreak arbiter link {args.slug}` makes one")
        for row in rows:
            state = f"revoked {row['revoked_at']}" if row["revoked_at"] else "in force"
            print(f"{printable(row['label'])}  {row['actor']}  made {row['created_at']} by {row['created_by']}  "
                  f"{state}")
