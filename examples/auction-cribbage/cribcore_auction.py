"""Auction cribbage (work in progress)."""


class Auction:
    def __init__(self, options: object) -> None:
        self.options = options
