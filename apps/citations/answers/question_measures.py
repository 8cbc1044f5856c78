"""What a "how long / how heavy / how tall" question measures, and whether a sentence gives such a measure.

A number alone does not answer a measurement question: "尤金袋鼠的寿命有多长？" (how long does it live) was answered
with its weight ("体重约为5至10公斤"), a sentence that holds a number and the animal's name. The question names a
dimension (a lifespan is a time, "how tall" a length), and an answering sentence writes a number with a unit of
that dimension ("活到11年", "up to 11 years"). One table of dimensions, each with the question words that ask for
it and the units that give it, in Chinese and English.
"""

from __future__ import annotations

import re
import unicodedata

# The question's words that ask for each dimension; the first dimension that matches wins, so a duration noun
# ("寿命", "lifespan") decides before the "多长 / how long" it is asked with.
_ASKS_FOR: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "time",
        re.compile(
            r"寿命|年龄|多大年纪|几岁|多少岁|多久|多长时间|多少年|几年|几个月|多少个月|多少天|几天|多少周|几周"
            r"|多少小时|几小时|几个小时|多少分钟|几分钟|多少秒|时长|工期|周期|历时|持续(?:了)?多长|任期|期限|刑期|有效期|保质期|学制"
            r"|\blife\s*span|\blife\s+expectancy\b|\bduration\b|\bhow\s+old\b"
            r"|\bhow\s+many\s+(?:years|months|weeks|days|hours|minutes|seconds|decades|centuries)\b"
            r"|\bhow\s+long\b(?=.*\b(?:live|lives|lived|last|lasts|lasted|take|takes|took|survive|survives|stay|"
            r"stays|remain|remains|run|runs|ago|before|after|until|since)\b)",
            re.I,
        ),
    ),
    ("area", re.compile(r"面积|占地|多少平方|多少公顷|多少亩|\barea\b|\bhow\s+many\s+(?:square|acres|hectares)", re.I)),
    (
        "speed",
        re.compile(r"速度|时速|航速|多快|\bhow\s+fast\b|\bspeed\b|\bvelocity\b", re.I),
    ),
    (
        "mass",
        re.compile(r"多重|体重|重量|多少斤|多少公斤|多少千克|多少吨|多少克|\bhow\s+heavy\b|\bweigh|\bweight\b", re.I),
    ),
    (
        "temperature",
        re.compile(
            r"温度|气温|体温|沸点|熔点|\btemperature\b|\bhow\s+(?:hot|cold|warm)\b|\bboiling\b|\bmelting\b", re.I
        ),
    ),
    (
        "length",
        re.compile(
            r"多长|多高|多宽|多深|多远|多厚|身高|身长|体长|全长|长度|高度|宽度|深度|距离|海拔|直径|半径|周长|翼展"
            r"|多少米|多少公里|多少千米|多少厘米"
            r"|\bhow\s+(?:long|tall|high|wide|deep|far|thick)\b|\b(?:length|height|width|depth|distance|altitude|"
            r"elevation|diameter|radius|wingspan)\b",
            re.I,
        ),
    ),
)

_ZH_NUMBER = "〇零一二三四五六七八九十百千万亿两半"
_EN_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|a\s+few|several|a\s+dozen|dozens\s+of|half\s+an?|an?"
)
# A number, possibly a range ("5至10", "5–10", "two to three"), possibly scaled ("1.2 million", "3万").
_QUANTITY = (
    rf"(?:\d[\d,.]*|[{_ZH_NUMBER}]+|\b(?:{_EN_NUMBER_WORDS})\b)"
    rf"(?:\s*(?:-|–|—|~|～|至|到|或|to|or|and)\s*(?:\d[\d,.]*|[{_ZH_NUMBER}]+|\b(?:{_EN_NUMBER_WORDS})\b))?"
    r"\s*(?:thousand|million|billion|万|千|百|亿)?\s*(?:多|余|来)?\s*(?:个)?\s*(?:多|余)?\s*"
)
_UNITS = {
    "time": r"年|岁|周岁|个?月|周|星期|天|日|小时|钟头|分钟|秒|世纪|个?赛季"
    r"|years?|yrs?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?|decades?|centur(?:y|ies)",
    "length": r"米|公里|千米|厘米|公分|毫米|微米|纳米|公尺|英尺|英寸|英吋|吋|英呎|呎|英里|海里|光年"
    r"|(?:kilo|centi|milli|micro|nano)?met(?:er|re)s?|km|cm|mm|µm|nm|m|feet|foot|ft|inch(?:es)?|miles?|yards?"
    r"|light[- ]years?",
    "mass": r"克|千克|公斤|斤|吨|磅|毫克|盎司"
    r"|(?:kilo|milli|micro)?grams?|kg|mg|g|t|tonnes?|tons?|pounds?|lbs?|ounces?|oz",
    "area": r"平方(?:米|公里|千米|英里|厘米|公尺)|公顷|英亩|亩"
    r"|(?:square|sq\.?)\s+\w+|km2|km²|m2|m²|hectares?|ha|acres?",
    "speed": r"(?:公里|千米|米|英里)\s*(?:/|每)\s*(?:小时|秒|时)|节"
    r"|km/h|kph|mph|m/s|knots?|(?:miles|kilomet(?:er|re)s|met(?:er|re)s)\s+(?:per|an|a)\s+(?:hour|second)|[GMk]?Hz",
    "temperature": r"°\s*[CF]|℃|℉|度|degrees?|kelvin|K",
}
# A unit follows its number directly ("30km", "182CM") and is not the start of a longer word ("10 more").
_MEASURED = {
    dimension: re.compile(_QUANTITY + rf"(?:{units})(?![A-Za-z])", re.I) for dimension, units in _UNITS.items()
}

# Not a measure: a ratio ("体长是体高的多少倍", "how many times"), a count of things ("几个阶段"), or which year
# ("几几年", "哪一年": a date).
_NOT_A_MEASURE = re.compile(
    r"(?:多少|几)\s*(?:倍|个(?!月|小时|星期)|次|种|位|名|项|届|场|座|条)|几几年|哪一?年|何年|\bhow\s+many\s+times\b"
    r"|\bwhich\s+year\b|\bwhen\b",
    re.I,
)


def measure_of(question: str) -> str:
    """The dimension a quantity question asks for ("time", "length", "mass", "area", "speed", "temperature"), or
    "" when it asks for a count, a ratio or a date, or names no dimension."""
    text = unicodedata.normalize("NFKC", question)
    if _NOT_A_MEASURE.search(text):
        return ""
    return next((dimension for dimension, asks in _ASKS_FOR if asks.search(text)), "")


def measures(sentence: str, dimension: str) -> set[str]:
    """The quantities of `dimension` the sentence writes ("5至10公斤", "11 years"), as normalised strings."""
    pattern = _MEASURED.get(dimension)
    if pattern is None:
        return set()
    text = unicodedata.normalize("NFKC", sentence)
    # A date is not a duration: "在2019年" / "in 1891" is when, not how long ("活到11年" is how long).
    return {
        " ".join(m.group(0).split()).casefold()
        for m in pattern.finditer(text)
        if not (dimension == "time" and _is_year(m.group(0), text[m.end() : m.end() + 2]))
    }


def _is_year(quantity: str, after: str) -> bool:
    # "2019年" is a year, "6000年前" and "2000年来" a time back.
    return re.fullmatch(r"\s*\d{4}\s*年\s*", quantity) is not None and not after.startswith(
        ("前", "以前", "来", "以来")
    )
