"""The ways a person writes an answer, for the sweep over the bank (test_answers_sweep.py).

`writings(part, key)` gives (text, required) pairs for a part whose key is `key` [part unit]:
the key written with the part's unit spelled out or abbreviated, in singular or plural, with
"per" or "/", a scale word or letter ("k", "M", "million"), in another unit of the same kind,
with a currency sign or word, with or without spaces, and in other cases. A `required` writing
must be read as the key; one that is not required (a unit in a case that collides with another
unit, such as "gb") may instead be refused with a message, but never read as another number.

The spellings are written out here by hand, per unit, rather than derived from the parser's own
tables, so that the sweep checks the parser against what people type and not against itself.
"""

# For each unit of the bank: (template, factor, required). The template's {} is the number in
# the written unit, which is `factor` times the key in the part's unit.
UNIT_WRITINGS: dict[str, list[tuple[str, float, bool]]] = {
    "ms": [
        ("{} ms", 1, True),
        ("{}ms", 1, True),
        ("{} milliseconds", 1, True),
        ("{} msec", 1, True),
        ("{} MS", 1, True),
        ("{} Ms", 1, True),
        ("{} s", 1e-3, True),
        ("{} seconds", 1e-3, True),
        ("{} µs", 1e3, True),
        ("{} us", 1e3, True),
    ],
    "s": [
        ("{} s", 1, True),
        ("{}s", 1, True),
        ("{} sec", 1, True),
        ("{} secs", 1, True),
        ("{} seconds", 1, True),
        ("{} SECONDS", 1, True),
        ("{} ms", 1e3, True),
        ("{} min", 1 / 60, True),
    ],
    "µs": [
        ("{} µs", 1, True),
        ("{} μs", 1, True),  # the Greek mu
        ("{} us", 1, True),
        ("{} microseconds", 1, True),
        ("{} ms", 1e-3, True),
        ("{} ns", 1e3, True),
    ],
    "min": [
        ("{} min", 1, True),
        ("{} mins", 1, True),
        ("{} minutes", 1, True),
        ("{} MIN", 1, True),
        ("{} s", 60, True),
        ("{} h", 1 / 60, True),
        ("{} hours", 1 / 60, True),
        ("{} hr", 1 / 60, True),
    ],
    "%": [
        ("{}%", 1, True),
        ("{} %", 1, True),
        ("{} percent", 1, True),
        ("{} pct", 1, True),
    ],
    "×": [
        ("{}×", 1, True),
        ("{} ×", 1, True),
        ("{}x", 1, True),
        ("{} x", 1, True),
        ("{}X", 1, True),
        ("{} times", 1, True),
        ("{}× faster", 1, True),
        ("{}x speedup", 1, True),
        ("{}x speed-up", 1, True),
        ("{}%", 100, True),
    ],
    "tok/s": [
        ("{} tok/s", 1, True),
        ("{} tokens/s", 1, True),
        ("{} tokens per second", 1, True),
        ("{} tokens/sec", 1, True),
        ("{} tok/sec", 1, True),
        ("{} tokens / s", 1, True),
        ("{} tps", 1, True),
        ("{} TPS", 1, True),
        ("{} Tok/s", 1, True),
        ("{}k tok/s", 1e-3, True),
        ("{} k tok/s", 1e-3, True),
        ("{}K tokens/s", 1e-3, True),
        ("{} thousand tokens per second", 1e-3, True),
        ("{} tokens/min", 60, True),
        ("{} tokens per minute", 60, True),
    ],
    "req/s": [
        ("{} req/s", 1, True),
        ("{} requests/s", 1, True),
        ("{} requests per second", 1, True),
        ("{} reqs/sec", 1, True),
        ("{} rps", 1, True),
        ("{} RPS", 1, True),
        ("{} QPS", 1, True),
        ("{} qps", 1, True),
        ("{} requests/min", 60, True),
        ("{}k req/s", 1e-3, True),
    ],
    "GB": [
        ("{} GB", 1, True),
        ("{}GB", 1, True),
        ("{} gigabytes", 1, True),
        ("{} Gbytes", 1, True),
        ("{} MB", 1e3, True),
        ("{} TB", 1e-3, True),
        ("{} bytes", 1e9, True),
        ("{} B", 1e9, True),
        ("{} GiB", 1e9 / 2**30, True),
        ("{} gb", 1, False),  # GB or Gb: refused
        ("{} Gb", 8, True),  # gigabits
    ],
    "MB": [
        ("{} MB", 1, True),
        ("{} megabytes", 1, True),
        ("{} kB", 1e3, True),
        ("{} KB", 1e3, True),
        ("{} GB", 1e-3, True),
        ("{} bytes", 1e6, True),
        ("{} MiB", 1e6 / 2**20, True),
        ("{} mb", 1, False),
        ("{} Mb", 8, True),
    ],
    "TB": [
        ("{} TB", 1, True),
        ("{} terabytes", 1, True),
        ("{} GB", 1e3, True),
        ("{} bytes", 1e12, True),
        ("{} TiB", 1e12 / 2**40, True),
        ("{} tb", 1, False),
    ],
    "kB": [
        ("{} kB", 1, True),
        ("{} KB", 1, True),
        ("{} kilobytes", 1, True),
        ("{} bytes", 1e3, True),
        ("{} B", 1e3, True),
        ("{} MB", 1e-3, True),
        ("{} kb", 8, True),  # kilobits, as written
    ],
    "B": [
        ("{} B", 1, True),
        ("{} bytes", 1, True),
        ("{} byte", 1, True),
        ("{} BYTES", 1, True),
        ("{} bits", 8, True),
        ("{} b", 8, True),
    ],
    "KiB": [
        ("{} KiB", 1, True),
        ("{} kibibytes", 1, True),
        ("{} bytes", 2**10, True),
        ("{} kB", 1.024, True),
        ("{} MiB", 1 / 2**10, True),
        ("{} kib", 1, False),
    ],
    "bits": [
        ("{} bits", 1, True),
        ("{} bit", 1, True),
        ("{} b", 1, True),
        ("{} bytes", 1 / 8, True),
    ],
    "GB/s": [
        ("{} GB/s", 1, True),
        ("{} GB per second", 1, True),
        ("{} gigabytes per second", 1, True),
        ("{} GBps", 1, True),
        ("{} TB/s", 1e-3, True),
        ("{} Gbps", 8, True),
        ("{} Gbit/s", 8, True),
        ("{} Gb/s", 8, True),
        ("{} gbps", 1, False),
    ],
    "Mbit/s": [
        ("{} Mbit/s", 1, True),
        ("{} Mbps", 1, True),
        ("{} Mb/s", 1, True),
        ("{} megabits per second", 1, True),
        ("{} Mbits/s", 1, True),
        ("{} kbps", 1e3, True),
        ("{} Gbps", 1e-3, True),
        ("{} MB/s", 1 / 8, True),
        ("{} MBps", 1 / 8, True),
        ("{} mbps", 1, False),
    ],
    "TFLOP": [
        ("{} TFLOP", 1, True),
        ("{} TFLOPs", 1, True),
        ("{} teraFLOP", 1, True),
        ("{} Tflop", 1, True),
        ("{} tflop", 1, True),
        ("{} FLOP", 1e12, True),
        ("{} FLOPs", 1e12, True),
        ("{} GFLOP", 1e3, True),
        ("{} PFLOP", 1e-3, True),
        ("{} tflops", 1, False),  # TFLOPs (a count) or TFLOPS (a rate)
    ],
    "PFLOP": [
        ("{} PFLOP", 1, True),
        ("{} PFLOPs", 1, True),
        ("{} petaFLOP", 1, True),
        ("{} pflop", 1, True),
        ("{} TFLOP", 1e3, True),
        ("{} FLOP", 1e15, True),
    ],
    "FLOP/B": [
        ("{} FLOP/B", 1, True),
        ("{} FLOP/byte", 1, True),
        ("{} FLOPs/byte", 1, True),
        ("{} FLOP per byte", 1, True),
        ("{} flop/byte", 1, True),
        ("{} FLOPs per byte", 1, True),
    ],
    "tokens": [
        ("{} tokens", 1, True),
        ("{} tok", 1, True),
        ("{} Tokens", 1, True),
        ("{} TOKENS", 1, True),
        ("{} output tokens", 1, True),
        ("{}k tokens", 1e-3, True),
        ("{}K tokens", 1e-3, True),
        ("{} k tokens", 1e-3, True),
        ("{} thousand tokens", 1e-3, True),
        ("{} ktok", 1e-3, True),
    ],
    "requests": [
        ("{} requests", 1, True),
        ("{} req", 1, True),
        ("{} reqs", 1, True),
        ("{} Requests", 1, True),
        ("{}k requests", 1e-3, True),
        ("{} thousand requests", 1e-3, True),
    ],
    "Mtok": [
        ("{} Mtok", 1, True),
        ("{} MTok", 1, True),
        ("{} mtok", 1, True),
        ("{} MTOK", 1, True),
        ("{} million tokens", 1, True),
        ("{}M tokens", 1, True),
        ("{} M tokens", 1, True),
        ("{} million", 1, True),
        ("{}M", 1, True),
        ("{} tokens", 1e6, True),
        ("{} tok", 1e6, True),
        ("{}k tokens", 1e3, True),
    ],
    "$": [
        ("${}", 1, True),
        ("$ {}", 1, True),
        ("{} $", 1, True),
        ("{}$", 1, True),
        ("{} USD", 1, True),
        ("{} usd", 1, True),
        ("{} dollars", 1, True),
        ("{} cents", 100, True),
    ],
    "$/day": [
        ("${}/day", 1, True),
        ("${} per day", 1, True),
        ("${} / day", 1, True),
        ("{} $/day", 1, True),
        ("{} USD/day", 1, True),
        ("{} dollars per day", 1, True),
        ("${}", 1, True),
        ("${}/h", 1 / 24, True),
        ("${} per hour", 1 / 24, True),
        ("${}/month", 30, True),
        ("${}/Day", 1, True),
    ],
    "$/Mtok": [
        ("${}/Mtok", 1, True),
        ("${}/MTok", 1, True),
        ("${}/mtok", 1, True),
        ("${} / Mtok", 1, True),
        ("{} $/Mtok", 1, True),
        ("{} USD/Mtok", 1, True),
        ("${} per million tokens", 1, True),
        ("${} per 1M tokens", 1, True),
        ("${}/M tokens", 1, True),
        ("${} per M tokens", 1, True),
        ("${}/1M tok", 1, True),
        ("{} dollars per million tokens", 1, True),
        ("${}", 1, True),
        ("{} cents", 100, True),
        ("${} per 1k tokens", 1e-3, True),
        ("${}/1K tokens", 1e-3, True),
        ("${}/ktok", 1e-3, True),
        ("{} $/tok", 1e-6, True),
        ("{} cents per 1k tokens", 0.1, True),
    ],
    "metres": [
        ("{} m", 1, True),
        ("{} metres", 1, True),
        ("{} meters", 1, True),
        ("{} cm", 100, True),
        ("{}m", 1, True),
    ],
}

# A part's synonyms that are units, as people write them: (template, factor, required).
SYNONYM_WRITINGS: dict[str, list[tuple[str, float, bool]]] = {
    "$/1k req": [
        ("${} per 1k requests", 1, True),
        ("${}/1k req", 1, True),
        ("${} per 1,000 requests", 1, True),
        ("${} per thousand requests", 1, True),
        ("${}/1000 requests", 1, True),
        ("${} per request", 1e-3, True),
        ("{} cents per request", 0.1, True),
    ],
    "$/month": [
        ("${}/month", 1, True),
        ("${} per month", 1, True),
        ("${} a month", 1, True),
        ("{} USD/month", 1, True),
    ],
    "requests": [
        ("{} requests", 1, True),
        ("{} reqs", 1, True),
        ("{} concurrent requests", 1, True),
    ],
}

# Counted nouns are written with their own word, in other cases and numbers, and qualified.
NOUN_TEMPLATES = [
    ("{} {noun}", True),
    ("{} {lower}", True),
    ("{} {upper}", True),
    ("{} total {noun}", True),
]


def number_writings(value: float) -> list[str]:
    """`value` written to 6 significant figures, as people write numbers: plain, with commas,
    in e-notation and with × 10^n."""
    if value == 0:
        return ["0"]
    plain = f"{value:.6g}"
    written = [plain]
    if "e" not in plain and abs(value) >= 1000:
        written.append(f"{value:,.6g}" if "e" not in f"{value:,.6g}" else plain)
    mantissa, _, exponent = f"{value:.5e}".partition("e")
    written.append(f"{mantissa}e{int(exponent)}")
    written.append(f"{mantissa} × 10^{int(exponent)}")
    return list(dict.fromkeys(written))


def writings(unit_text: str, noun: str | None, synonyms: tuple[str, ...], key: float):
    """(text, required) for each way of writing `key` [part unit] in a part with this unit."""
    found: list[tuple[str, bool]] = []
    for number in number_writings(key):
        found.append((number, True))  # a bare number is in the part's unit
    if noun or (not unit_text and synonyms):
        words = [noun] if noun else []
        words += [s for s in synonyms if not _is_unit_like(s)]
        for word in words:
            for template, required in NOUN_TEMPLATES:
                for number in number_writings(key):
                    text = template.format(
                        number, noun=word, lower=word.lower(), upper=word.upper()
                    )
                    found.append((text, required))
        if key == 1 and noun:
            found.append((f"1 {_singular(noun)}", True))
    templates = list(UNIT_WRITINGS.get(unit_text, []))
    for synonym in synonyms:
        templates += SYNONYM_WRITINGS.get(synonym, [])
    for template, factor, required in templates:
        value = key * factor
        if template.startswith("$") and value < 0:
            continue
        for number in number_writings(value):
            if template.endswith(("k tokens", "million", "M", "}k tok/s", "}K tokens/s")) and (
                "e" in number or "×" in number
            ):
                continue  # "1.2e3k tokens": no one writes a scale after an exponent
            if "," in number and template.startswith("{}") and template[2:3].isalpha():
                continue  # "1,234k": not written
            found.append((template.format(number), required))
    return found


def _is_unit_like(synonym: str) -> bool:
    return synonym in SYNONYM_WRITINGS


def _singular(noun: str) -> str:
    return noun[:-1] if noun.endswith("s") else noun
