"""English dates as the portal always wrote them ("7 Dec 2026, 14:05"); Chinese ones are Django's own
("2026年12月7日 14:05")."""

DATETIME_FORMAT = "j M Y, H:i"
DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
