"""One module per input format; each exposes a parser object registered in ..registry."""
