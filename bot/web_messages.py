"""The entry page's own words (``bot/web.py``), in the bot's catalogue (``bot/locales``, extracted
with the commands of ``bot/messages.py``).  Everything the page says about a result, a refusal
or an undo is the bot's own message (``bot.messages``); these are only the page's furniture.
"""

from __future__ import annotations

from ranking import Result
from tiebreak.i18n import N_

# Translators: the entry page's title; {name} is the tournament.
PAGE_TITLE = N_("Enter results: {name}")
# Translators: heading of one board on the entry page.
BOARD_HEADING = N_("Board {board}")
# Translators: {result} is a result such as 1-0 (2-0 under 2/1/0 scoring).
BOARD_RESULT = N_("Result: {result}")
# Translators: the entry page: opens the buttons that replace a board's result.
CORRECT = N_("Correct this result")
# Translators: the group of buttons of one board, for screen readers.
CHOOSE_RESULT_OF = N_("The result of board {board}")
UNDO = N_("Undo my last change")
UNDO_HINT = N_("Takes back the last change made through this link, of any kind.")
BYES = N_("Byes")
TAP_NOTE = N_("Each tap is recorded at once; the page then shows the round as it is now.")
LANGUAGE = N_("Language")
# Translators: result buttons of the entry page, after the wins and the draw.
FORFEIT_WHITE = N_("White wins by forfeit")
FORFEIT_RED = N_("Red wins by forfeit")
FORFEIT_BLACK = N_("Black wins by forfeit")
FORFEIT_BOTH = N_("Both lose by forfeit")
# Translators: the page of a link that is wrong or revoked (HTTP 403).
LINK_REFUSED_TITLE = N_("This link does not open an entry page")
LINK_REFUSED = N_("The link is wrong, or the chief arbiter revoked it. Nothing was recorded. Ask the chief "
                  "arbiter for a new link.")
# Translators: a form older than a day, or sent from another page (HTTP 403).
FORM_EXPIRED = N_("This page was out of date, so nothing was recorded. Here is the round as it is now: tap "
                  "again.")
# Translators: a request the page's buttons never send (HTTP 400).
BAD_FORM = N_("Nothing was recorded: that is not something this page's buttons send. Choose one of the buttons.")
# Translators: the same tap arrived twice, or the page was sent again.
ALREADY_APPLIED = N_("This was recorded already; it was not applied twice. Here is the round as it is now.")
SERVER_ERROR = N_("Something went wrong and nothing was recorded. Please try again.")
NOT_FOUND = N_("No such page.")

#: The forfeit buttons' words, first mover (white, or red in xiangqi) first
FORFEITS = {
    Result.WHITE_WINS_FORFEIT: (FORFEIT_WHITE, FORFEIT_RED),
    Result.DOUBLE_FORFEIT: (FORFEIT_BOTH, FORFEIT_BOTH),
    Result.BLACK_WINS_FORFEIT: (FORFEIT_BLACK, FORFEIT_BLACK),
}
