"""The Tiebreak application around the pure core (``ranking``): the store, config.toml,
reading files, the ``tiebreak`` command line, the use cases the command line, the bot and the
site share (``tiebreak.library``), and the i18n machinery (``tiebreak.i18n``).

Imports flow one way: ``ranking`` <- ``tiebreak`` <- ``bot``, ``site_builder``.
"""
