"""Reading a whole response before it is sent, fast.

Every public response (a page, a feed, an API body) is read for legal spellings
before it leaves, so the reading must cost far less than rendering. It reads what
the gate reads (matching.readings: escapes decoded, the markup with its attribute
values and without its tags, bidi overrides as displayed) and finds the same
spellings in the same folded letters, but folds the response once, in C:

- the characters that fill real responses (ASCII, the Arabic block, Latin-1 and
  general punctuation, about 250 of them) each get one byte, and the response is
  encoded with that table by the charmap codec, as the standard library's own
  single-byte codecs encode (encodings/cp1256.py);
- `bytes.translate` folds those bytes (A → a, أ → ا, ٣ → 3, marks and invisible
  characters removed, punctuation to a space) and keeps the tag brackets, so the
  markup can be cut out of the folded bytes;
- any other character reaches an error handler, which writes its fold (from the
  same table `fold()` uses) or, for a letter outside the byte table, a byte that
  stands for "a letter no spelling holds", or, for a character read two ways
  (identity.text.drawn: ٰ, ٮ, ſ…), a byte that says so;
- `bytes.replace` then reads the sequences drawn as one letter ("rn" as m).

So the bytes are `fold()`'s result, one byte per character: a spelling whose
folded letters all have a byte is found in them exactly as in the folded text. A
spelling with a letter outside the table, and any response holding a bidi
override or a character read two ways, are read the slower way, with `fold()`
itself, in every reading.
"""

import codecs
import re
from functools import cache

from .folding import fold, sequences
from .matching import (
    Matcher,
    decoded,
    has_drawn_reading,
    has_override,
    merged,
    shown_text,
    untagged,
    views,
)
from .romanization import other_scripts_in_latin
from .romanized import Romanized

_ERRORS = "newsroom-identity-fold"
# Characters the folded bytes keep as they are, so tags can be cut out of them
# as a browser cuts them (matching._TAG_RE).
_MARKUP = "<>=\"'"
# An angle bracket written as an entity, a percent or a JSON escape.
_ESCAPED_ANGLE_RE = re.compile(r"&(?:[gl]t|#0*6[02]|#x0*3[ce])|%3[ce]|\\u003[ce]", re.I)
# Characters that get a byte of their own, most frequent in responses first,
# while bytes remain (the rest go through the error handler).
_COMMON = "".join(
    [
        "\t\n\r",
        *map(chr, range(0x20, 0x7F)),  # ASCII
        "،؛؟\u061c",  # Arabic punctuation, ARABIC LETTER MARK
        *map(chr, range(0x0621, 0x063B)),  # Arabic letters
        *map(chr, range(0x0640, 0x0656)),  # tatweel, letters, tashkeel, hamza marks
        *map(chr, range(0x0660, 0x066D)),  # Arabic-Indic digits, ٪ ٫ ٬
        "\u0671",  # alef wasla
        "پچژڤکگھہیے",  # the Persian and Urdu letters Arabic copy borrows
        *map(chr, range(0x06F0, 0x06FA)),  # Eastern Arabic-Indic digits
        "\u00a0\u00ad«»·×÷©®°",
        *map(chr, range(0x2000, 0x2016)),  # spaces, zero-width, marks, dashes
        "‘’‚“”„•…\u2028\u2029\u202a\u202b\u202c\u202f‹›",
        "\u2060\u2066\u2067\u2068\u2069\ufeff\ufffd←↑→↓€",
        "éèàçêâôîïëüöäñóíáú",
    ]
)


class _ByteFold:
    """The byte table: characters ↔ bytes, and the fold of each byte."""

    def __init__(self) -> None:
        # A character read two ways gets no byte: the handler flags it.
        common = [c for c in dict.fromkeys(_COMMON) if not has_drawn_reading(c)]
        # First the characters a fold leaves as they are (or removes, or turns
        # into a space), then those folding into one of them (A → a, أ → ا); a
        # character folding to more than one, or to one without a byte, goes
        # through the error handler. Byte 0 is NUL's; the last two are left free.
        chars = [c for c in common if fold(c) in ("", " ", c)][:254]
        chars += [c for c in common if c not in chars and fold(c) in chars]
        chars = ["\x00", *chars[:253]]
        self.codes = {char: code for code, char in enumerate(chars)}
        # The codec's own table format: NUL first, U+FFFE for a byte no character
        # encodes to. Anything else makes charmap_build fall back to a dict, many
        # times slower. The free byte stands for a letter that has no byte.
        table = "".join(chars).ljust(256, "\ufffe")
        self.encoding_map = codecs.charmap_build(table)
        self.other = len(chars)
        # The byte of a character read two ways: the response is read slowly.
        self.drawn = bytes([self.other + 1])
        self.space = self.codes[" "]
        fold_bytes = bytearray(range(256))
        deleted = bytearray()
        for char, code in self.codes.items():
            folded = fold(char)
            if char in _MARKUP:
                continue  # kept, so the markup can be cut out of the folded bytes
            if folded == "":
                deleted.append(code)
            else:
                fold_bytes[code] = self.codes[folded]
        self.fold_bytes = bytes(fold_bytes)
        self.deleted = bytes(deleted)
        markup = [self.codes[char] for char in _MARKUP]
        self.not_letters = bytes([self.space, *markup])
        self.decoding = "".join(
            " " if code in markup else "\ufffd" if char == "\ufffe" else char
            for code, char in enumerate(table)
        )
        self.sequences = [
            (self.encode(sequence), self.encode(letter))
            for sequence, letter in sequences()
        ]
        # A tag, as matching._TAG_RE reads one (spaces are folded to one byte).
        o, c, e, q, a = (re.escape(bytes([code])) for code in markup)
        s = re.escape(bytes([self.space]))
        self.tag_re = re.compile(
            b"%s(?:[^%s%s%s]|%s%s*%s[^%s]*%s|%s%s*%s[^%s]*%s|%s)*%s"
            % (o, o, c, e, e, s, q, q, q, e, s, a, a, a, e, c)
        )

    def encode(self, folded: str) -> bytes | None:
        """Already folded text as bytes; None if a letter has no byte."""
        try:
            return bytes(self.codes[char] for char in folded)
        except KeyError:
            return None

    def fold(self, text: str) -> bytes:
        """`fold(text)` as bytes, tag brackets kept."""
        encoded = codecs.charmap_encode(text, _ERRORS, self.encoding_map)[0]
        return self.read_together(encoded.translate(self.fold_bytes, self.deleted))

    def read_together(self, data: bytes) -> bytes:
        """Folded bytes with each sequence drawn as one letter read as it."""
        for sequence, letter in self.sequences:
            data = data.replace(sequence, letter)
        return data

    def unfold(self, data: bytes) -> str:
        """Folded bytes as text, tag brackets as spaces (a letter without a byte
        becomes U+FFFD)."""
        return codecs.charmap_decode(data, "strict", self.decoding)[0]

    def handle(self, error: UnicodeEncodeError) -> tuple[bytes, int]:
        """Bytes for a run of characters without a byte: the bytes of their fold,
        or the byte that sends the response to be read slowly."""
        run = error.object[error.start : error.end]
        if has_drawn_reading(run):
            return self.drawn, error.end
        folded = fold(run)
        return bytes(self.codes.get(c, self.other) for c in folded), error.end


@cache
def _byte_fold() -> _ByteFold:
    table = _ByteFold()
    codecs.register_error(_ERRORS, table.handle)
    return table


class OutputReader:
    """Finds a matcher's spellings in whole responses: pages, feeds, API bodies."""

    def __init__(self, matcher: Matcher, romanized: Romanized | None = None):
        self.matcher = matcher
        self.romanized = romanized
        table = _byte_fold()
        # (spelling's index, its required words, runs and words as bytes) for the
        # spellings whose letters all have a byte; the others are read slowly.
        self.fast: list[tuple[int, tuple[bytes, ...], ...]] = []
        self.slow: list[int] = []
        for index, spelling in enumerate(matcher.spellings):
            parts = [
                [table.encode(each) for each in group]
                for group in (spelling.required, spelling.runs, spelling.words)
            ]
            if any(None in group for group in parts):
                self.slow.append(index)
            else:
                self.fast.append((index, *map(tuple, parts)))

    def owners_in(self, text: str, *, joined: bool = False) -> list:
        """Owners of the spellings a response shows, each once, in its own
        letters or romanized; with `joined`, romanizations split or spelled out
        are read joined, as the doors read a field (Romanized.read)."""
        if not self.matcher or not text:
            return []
        # Only an escaped angle bracket makes the tags of the decoded text end
        # elsewhere than the browser's (the doors read both ways whatever).
        shown = shown_text(text) if _ESCAPED_ANGLE_RE.search(text) else None
        text = decoded(text)
        found = self._spelled(text)
        if shown is not None:
            # Tags cut as a browser cuts them, before entities are decoded: a
            # quoted value may hold a ">" that the decoded text's tags end at.
            found = merged(found, self._spelled(shown))
        if self.romanized:
            romanized, candidates = self.romanized.read(text, joined=joined)
            found = merged(found, romanized)
            # Without its tags too ("<b>Niz</b>ar"), when a word of a name is
            # there to be joined to, or when read as the doors read.
            if (candidates or joined) and "<" in text:
                found = merged(
                    found, self.romanized.owners_in(untagged(text), joined=joined)
                )
            # A name written in another script, in Latin letters as the doors
            # read it (the rare page that holds such letters pays for it).
            others = None if joined else other_scripts_in_latin(text)
            if others is not None:
                found = merged(found, self.romanized.owners_in(others))
        return found

    def _spelled(self, text: str) -> list:
        """Owners of the spellings decoded `text` shows in their own letters."""
        table = _byte_fold()
        folded = table.fold(text)
        # A character read two ways (identity.text.drawn) has a byte of its own.
        if has_override(text) or table.drawn in folded:
            return self.matcher.owners_in_folded(fold(each) for each in views(text))
        found = self._fast_owners(folded)
        if self.slow:
            folded = [fold(each) for each in views(text)]
            for owner in self.matcher.owners_in_folded(folded, only=self.slow):
                found.setdefault(id(owner), owner)
        return list(found.values())

    def _fast_owners(self, folded: bytes) -> dict[int, object]:
        table = _byte_fold()
        # The text with its markup, and (when it has any) without its tags.
        texts = [folded]
        if table.codes["<"] in folded:
            texts.append(table.tag_re.sub(b"", folded))
        found: dict[int, object] = {}
        for data in texts:
            run = table.read_together(data.translate(None, table.not_letters))
            for index, required, runs, words in self.fast:
                # Most spellings stop here: their rarest word is not on the page.
                if required and required[0] not in run:
                    continue
                owner = self.matcher.spellings[index].owner
                if id(owner) in found or not all(w in run for w in required):
                    continue
                if any(each in run for each in runs) or (
                    words
                    and all(word in run for word in words)
                    and self.matcher.words_near(index, table.unfold(data))
                ):
                    found[id(owner)] = owner
        return found
