"""Arabic names in Latin letters: how the press writes them, and a key that reads
them back.

Agencies and readers write one Arabic name many ways: Kahlawi, Kahlaoui, Kahlawy,
El-Kahlaoui; Mohammed, Muhammad, Mohamed; and in Arabizi, with digits for the
letters Latin lacks (3 for ع, 7 for ح). What they keep is the name's consonants,
written in a few conventions; what they vary is the vowels and the conventions.

`key(word)` reads a word, Arabic or Latin, as its consonants, each put in the
class of letters the romanizations write alike (`CLASSES`): vowels, long vowels
(ا و ي), the glottal stop and ع go; a doubled consonant is one; a final h, ة or ه
goes (Fatima and Fatimah, فاطمة). The classes are named by an Arabic letter, so a
key is Arabic text, and one Arabic legal spelling covers its romanizations
without an officer typing each.

`ROMANIZATIONS` is the other direction: each Arabic letter with the ways the
English, French and German press, UNGEGN's 2017 system and Arabizi write it.
`romanizations(name)` shows an officer some of the spellings a name's key
covers.
"""

import re
import unicodedata
from functools import lru_cache

import regex
from anyascii import anyascii

from arabic import normalize

from .folding import drawn_as, separators

# Arabic letter → the class of letters romanizations write alike, named by one.
CLASSES = {
    **dict.fromkeys("بپ", "ب"),
    **dict.fromkeys("تطثسص", "س"),  # t, th, s, ss, ß
    **dict.fromkeys("دذضزظ", "د"),  # d, dh, z
    **dict.fromkeys("جغقكگ", "ك"),  # j, dj, g, gh, q, k
    **dict.fromkeys("شخچ", "ش"),  # sh, ch, sch, kh
    **dict.fromkeys("حه", "ه"),
    **dict.fromkeys("فڤ", "ف"),
    "ر": "ر",
    "ل": "ل",
    "م": "م",
    "ن": "ن",
}

# Arabic letter → how it is written in Latin letters, most common first: English
# and UNGEGN 2017 forms, then French, German and Arabizi ones.
ROMANIZATIONS: dict[str, tuple[str, ...]] = {
    "ا": ("a", "e", "aa", "â"),
    "ب": ("b",),
    "ت": ("t",),
    "ث": ("th", "t", "s"),
    "ج": ("j", "g", "dj", "dsch"),
    "ح": ("h", "7", "ḥ"),
    "خ": ("kh", "ch", "x", "5", "ḫ", "7'", "j", "h"),
    "د": ("d",),
    "ذ": ("dh", "z", "d", "ḏ"),
    "ر": ("r",),
    "ز": ("z",),
    "س": ("s", "ss"),
    "ش": ("sh", "ch", "sch", "š"),
    "ص": ("s", "9", "ṣ"),
    "ض": ("d", "dh", "ḍ", "9'"),
    "ط": ("t", "6", "ṭ"),
    "ظ": ("z", "dh", "ẓ", "6'"),
    "ع": ("'", "3", "a", "", "ʿ"),
    "غ": ("gh", "g", "ġ", "3'"),
    "ف": ("f",),
    "ق": ("q", "k", "g", "8"),
    "ك": ("k",),
    "ل": ("l",),
    "م": ("m",),
    "ن": ("n",),
    "ه": ("h",),
    "و": ("w", "ou", "u", "o", "oo"),
    "ي": ("y", "i", "ee", "ie"),
    "ء": ("'", "2", ""),
    "ة": ("a", "ah", "e"),
}
# Short vowels are not written in Arabic; a romanization writes one of these.
SHORT_VOWELS = ("a", "e", "i", "o", "u", "")
# The article, written apart or glued, plain or assimilated to a sun letter.
LATIN_ARTICLES = ("al-", "el-", "Al-", "El-", "al ", "el ", "Al", "El", "")

# Latin spellings of one sound, longest first, each with the class it writes.
_LATIN = [
    ("dsch", "ك"),
    ("sch", "ش"),
    ("tch", "ش"),
    ("kh", "ش"),
    ("sh", "ش"),
    ("ch", "ش"),
    ("gh", "ك"),
    ("dj", "ك"),
    ("ck", "ك"),
    ("th", "س"),
    ("dh", "د"),
    ("zh", "د"),
    ("ph", "ف"),
    *[(letter, "ب") for letter in "bp"],
    *[(letter, "س") for letter in "tsç"],
    *[(letter, "د") for letter in "dz"],
    *[(letter, "ك") for letter in "jgkqc"],
    *[(letter, "ش") for letter in "x"],
    ("h", "ه"),
    *[(letter, "ف") for letter in "fv"],
    *[(letter, letter_ar) for letter, letter_ar in zip("rlmn", "رلمن", strict=True)],
    # Arabizi: the digits drawn like the Arabic letters they stand for, and with
    # an apostrophe for the letter dotted above them (7' خ, 3' غ, 6' ظ, 9' ض).
    ("7'", "ش"),
    ("3'", "ك"),
    ("6'", "د"),
    ("9'", "د"),
    ("5", "ش"),
    ("6", "س"),
    ("7", "ه"),
    ("8", "ك"),
    ("9", "س"),
]
_LATIN_RE = re.compile("|".join(re.escape(spelling) for spelling, _ in _LATIN))
_LATIN_CLASS = dict(_LATIN)
ARABIC_RE = re.compile("[\u0600-\u06ff]")
# The article alone ("al", "el") or assimilated to a sun letter ("ash", "ad", "er").
ARTICLE_RE = re.compile(r"[aeiu](?:l|t|th|d|dh|r|z|s|ss|sh|n)")
# An article glued to the word it precedes: "Alkhatib", "Abdelrahman".
_GLUED_ARTICLE_RE = re.compile(r"^(abd|abu|abou)?(?:[aeiuo]l)(?=[a-z0-9']{3})")


def latin_letters(text: str) -> str:
    """`text` lower-cased, without accents or dots below, with the letters of
    scholarly transcriptions (DIN 31635, ISO 233) written as the press writes
    them: ḫ kh, š sh, ṯ th, ḏ dh, ġ gh, ǧ j, ʿ and ʾ an apostrophe."""
    text = text.casefold()
    for letter, written in _TRANSCRIPTIONS:
        if letter in text:
            text = text.replace(letter, written)
    if text.isascii():
        return text
    return "".join(
        char
        for char in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(char)
    )


_TRANSCRIPTIONS = (
    ("ḫ", "kh"),
    ("ẖ", "kh"),
    ("š", "sh"),
    ("ṯ", "th"),
    ("ḏ", "dh"),
    ("ġ", "gh"),
    ("ǧ", "j"),
    ("ʿ", "'"),
    ("ʾ", "'"),
    ("ß", "ss"),
)
# Readings of one word tried at most: two ways for each of four digraphs.
_MAX_READINGS = 16


@lru_cache(maxsize=65536)
def latin_keys(word: str) -> frozenset[str]:
    """The keys of a word in Latin letters (already `latin_letters`): a digraph
    is read as the one sound it writes, and as its two letters ("Ishaq" is
    إسحاق, s and h)."""
    readings: list[list[str]] = [[]]
    for match in _LATIN_RE.finditer(word):
        spelled = match[0]
        apart = [_LATIN_CLASS.get(letter) for letter in spelled]
        ways = [[_LATIN_CLASS[spelled]]]
        if len(spelled) > 1 and None not in apart and len(readings) < _MAX_READINGS:
            ways.append(apart)
        readings = [reading + way for reading in readings for way in ways]
    return frozenset(_collapsed(reading) for reading in readings)


# Letters some conventions write in another class than `CLASSES` puts them in:
# Spanish writes خ as j (Jaled), Turkish and Bosnian as h (Hatip).
OTHER_CLASSES = {"خ": ("ك", "ه")}
# Keys of one word at most: each of its letters read in every class it is.
_MAX_KEYS = 27


@lru_cache(maxsize=65536)
def arabic_key(word: str) -> str:
    """The key of a word in Arabic letters, each letter in its class."""
    return _collapsed([CLASSES[c] for c in normalize(word) if c in CLASSES])


@lru_cache(maxsize=65536)
def arabic_keys(word: str) -> frozenset[str]:
    """Every key a word in Arabic letters may be romanized as: `arabic_key`, and
    those with a letter in another class a convention writes it in."""
    readings: list[list[str]] = [[]]
    for char in normalize(word):
        if char not in CLASSES:
            continue
        ways = (CLASSES[char], *OTHER_CLASSES.get(char, ()))
        if len(readings) * len(ways) > _MAX_KEYS:
            ways = ways[:1]
        readings = [reading + [way] for reading in readings for way in ways]
    return frozenset(map(_collapsed, readings))


def _collapsed(classes: list[str]) -> str:
    """The classes as a key: a doubled consonant once, a final h (ه, ح, ة, the
    -ah of Fatimah) left out."""
    key = "".join(c for i, c in enumerate(classes) if i == 0 or c != classes[i - 1])
    return key[:-1] if key.endswith("ه") else key


def latin_readings(word: str) -> frozenset[str]:
    """The keys a Latin word may stand for: its own, and those without an article
    glued to it ("Alkhatib", "Abdelrahman" read as "Abd" + "Rahman")."""
    found = latin_keys(word)
    glued = _GLUED_ARTICLE_RE.match(word)
    if glued:
        rest = latin_keys(word[glued.end() :])
        before = latin_keys(glued[1]) if glued[1] else frozenset([""])
        found |= {first + second for first in before for second in rest}
    return found


def latin_words(text: str, *, others: bool = False) -> list[bytes]:
    """The Latin words of `text`, in order, lower-cased, as ASCII bytes; with
    `others`, each word of another script too, as a word no key holds.

    Fast on a whole page, most of it Arabic: one `bytes.translate` of the text's
    UTF-8 bytes keeps letters, digits and the apostrophe and makes every other
    byte a space, or with `others` every byte outside ASCII a "y" (a letter no
    key holds: a Latin word glued to Arabic keeps its letters). Letters drawn as
    Latin ones (`as_latin`), accented letters and transcriptions, when the text
    has any, are first read as Latin letters, decomposed (NFKD) and their marks
    removed.
    """
    data = text.encode("utf-8", "replace")
    if others and not data.isascii():
        # Read as the breaks they are, not as letters of another script: a word
        # no key holds would glue "Mazin·bin·Khalid" into one.
        present = separators().intersection(text)
        if present:
            text = _separators_re(frozenset(present)).sub(" ", text)
            data = text.encode("utf-8", "replace")
    if data.isascii():
        pass
    elif _ACCENT_LEAD in data.translate(_ACCENT_LEADS) or _latin1_letter_like(data):
        data = _decomposed(as_latin(text)).encode("utf-8", "replace")
    elif _past_punctuation(data):
        # Symbols (€, →) and letter-like ones (Ⓜ, 𝐌): only these are read.
        read = _symbols_as_latin(text)
        if read is not text:
            data = read.encode("utf-8", "replace")
    return data.translate(_WORD_AND_OTHER_BYTES if others else _WORD_BYTES).split()


@lru_cache(maxsize=256)
def _separators_re(present: frozenset[str]) -> re.Pattern:
    # Of those a text holds: a class of the thousands there are is searched
    # one by one.
    return re.compile(f"[{''.join(map(re.escape, sorted(present)))}]+")


def _read_as(text: str, found: dict[str, str]) -> str:
    """`text` with each character `found` holds replaced by its reading."""
    if not found:
        return text
    pattern = re.compile("|".join(map(re.escape, found)))
    return pattern.sub(lambda match: found[match[0]], text)


_SYMBOLS_RE = re.compile("[\u2080-\u2fff\U00010000-\U0010ffff]")


def _symbols_as_latin(text: str) -> str:
    """`text` with each character from U+2080 to U+2FFF or beyond the BMP that is
    drawn as Latin letters read as them (`text` itself when there is none)."""
    found = {
        char: latin
        for char in set(_SYMBOLS_RE.findall(text))
        if (latin := _symbol_reading(char))
    }
    return _read_as(text, found)


@lru_cache(maxsize=4096)
def _symbol_reading(char: str) -> str:
    """The Latin letters a symbol is drawn as ("" for none): its compatibility
    form's (Ⓜ M, ™ TM; a capital I kept as one, see _word_byte), else as the
    matcher draws it."""
    compatible = unicodedata.normalize("NFKC", char)
    if compatible != char and compatible.isascii() and compatible.isalpha():
        return compatible
    return _latin_reading(char)


def _past_punctuation(data: bytes) -> bool:
    """Whether UTF-8 `data` holds a character from U+2080 to U+2FFF, or one of four
    bytes: most pages hold none but the general punctuation (U+2000-U+207F,
    quotes and dashes), all of whose characters begin with E2 80 or E2 81, as
    three counts of bytes tell."""
    if b"\xf0" in data:
        return True
    lead = data.count(b"\xe2")
    return bool(lead) and lead != data.count(b"\xe2\x80") + data.count(b"\xe2\x81")


def _decomposed(text: str) -> str:
    # Compatibility forms first (Ⅰ, 𝐈 and Ｉ are I), and a capital I stays one
    # (see _word_byte): casefold would make it an i.
    text = unicodedata.normalize("NFKC", text).replace("I", "|").casefold()
    for letter, written in _TRANSCRIPTIONS:
        if letter in text:
            text = text.replace(letter, written)
    # Every mark goes, of whatever script: a reader reads "Mazin" with a
    # tanween set on its z (U+064B) as Mazin.
    return _MARKS_RE.sub("", unicodedata.normalize("NFKD", text))


_MARKS_RE = regex.compile(r"\p{M}+")


def _word_byte(code: int, other: str) -> int:
    char = chr(code)
    if code >= 0x80:
        return ord(other)
    if char in "I|":
        # Drawn alike with l (UTS #39): kept as "I", read both ways (`readings_of`).
        return ord("I")
    return ord(char.lower()) if char.isalnum() or char == "'" else ord(" ")


# Bytes of a word: ASCII letters (lower-cased), digits and the apostrophe; and
# bytes of another script as spaces, or as a "y" each.
_WORD_BYTES = bytes(_word_byte(code, " ") for code in range(256))
_WORD_AND_OTHER_BYTES = bytes(_word_byte(code, "y") for code in range(256))
# UTF-8 lead bytes of characters common on every page (no-break space, Arabic, the
# punctuation and symbols of U+2000-U+2FFF, which `_past_punctuation` tells
# apart, and the CJK blocks) are passed over. Every other lead byte outside ASCII
# (Latin-1 and Latin Extended, IPA and small capitals, Greek, Cyrillic, Armenian,
# Latin Extended-E and Cherokee, fullwidth forms) may begin an accented letter or
# one drawn as a Latin letter: marked, to be found in one search.
_CJK_LEADS = (*range(0xE2, 0xEA), *range(0xEB, 0xEF))
_COMMON_LEADS = {0xC2, *range(0xD8, 0xDC), 0xE0, *_CJK_LEADS}
_ACCENT_LEAD = b"\x00"
_ACCENT_LEADS = bytes(
    0 if 0xC3 <= code <= 0xEF and code not in _COMMON_LEADS else 1
    for code in range(256)
)
# Characters of the Latin-1 Supplement that read as letters or digits (ª, º, ²),
# from their compatibility decomposition: their lead byte is the one of «», the
# no-break space and the other symbols every page has, so looked for each.
_LATIN1_LETTER_LIKE_RE = re.compile(
    b"|".join(
        re.escape(chr(code).encode())
        for code in range(0xA0, 0xC0)
        if any(c.isalnum() for c in unicodedata.normalize("NFKC", chr(code)))
    )
)


def _latin1_letter_like(data: bytes) -> bool:
    return b"\xc2" in data and _LATIN1_LETTER_LIKE_RE.search(data) is not None


_COMBINING_RE = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff]")


def romanizations(name: str) -> list[str]:
    """Some spellings of an Arabic `name` in Latin letters that its key covers:
    one per convention (the first, second, third and fourth way `ROMANIZATIONS`
    gives of writing each letter), each with and without the article."""
    found: list[str] = []
    for choice in range(4):
        words = [_romanized(word, choice) for word in normalize(name).split()]
        for form in (" ".join(words), " ".join(w.split("-")[-1] for w in words)):
            if form.strip() and form not in found:
                found.append(form)
    return found


_ARABIC_WORD_RE = re.compile("[\u0600-\u06ff]+")
_LATIN_LETTER_RE = re.compile("[A-Za-z]")
# Letters of a script neither Latin nor Arabic, and words holding one.
_OTHER_LETTER = r"[\p{L}--[\p{Latin}\p{Arabic}\p{Common}\p{Inherited}]]"
_OTHER_SCRIPT_RE = regex.compile(_OTHER_LETTER, regex.V1)
_OTHER_WORD_RE = regex.compile(
    rf"[\w\p{{M}}'׳]*{_OTHER_LETTER}[\w\p{{M}}'׳]*", regex.V1
)
# How the press of each script writes the letters anyascii reads otherwise
# (reviewed by hand): Greek writes b and d as μπ and ντ, Hebrew marks kh, j and
# zh with a geresh, Devanagari writes z, kh, gh, f and q with a nukta.
_SCRIPT_CONVENTIONS = (
    ("μπ", "b"),
    ("ντ", "d"),
    ("ח'", "kh"),
    ("ח׳", "kh"),
    ("ג'", "j"),
    ("ג׳", "j"),
    ("ז'", "zh"),
    ("ז׳", "zh"),
    ("ב", "b"),
    ("ज़", "z"),
    ("ख़", "kh"),
    ("ग़", "gh"),
    ("फ़", "f"),
    ("क़", "q"),
)


def in_latin_letters(text: str) -> str | None:
    """`text` with its words of other scripts in Latin letters, when it holds any
    beside Latin ones: an Arabic word as `ROMANIZATIONS` first writes it (a name
    half in each, "مازن Khatib", is then read as one), a word of any other script
    as anyascii writes it, with `_SCRIPT_CONVENTIONS` ("Мазен аль-Хатиб",
    "מאזן אל-ח'טיב"); None when there is nothing to write."""
    others = other_scripts_in_latin(text)
    if others is not None:
        text = others
    if ARABIC_RE.search(text) and _LATIN_LETTER_RE.search(text):
        return _ARABIC_WORD_RE.sub(lambda m: _romanized(normalize(m[0]), 0), text)
    return others


def other_scripts_in_latin(text: str) -> str | None:
    """`text` with its words of scripts other than Latin and Arabic in Latin
    letters (as `in_latin_letters` writes them), or None when it holds none:
    told from its UTF-8 lead bytes on most pages, which hold only Arabic, Latin
    and the common punctuation."""
    data = text.encode("utf-8", "replace")
    if _OTHER_LEAD not in data.translate(_OTHER_LEADS):
        return None
    if _OTHER_SCRIPT_RE.search(text) is None:
        return None
    return _OTHER_WORD_RE.sub(lambda m: _transliterated(m[0]), text)


# Lead bytes of UTF-8 characters that may be letters of another script: U+0370
# to U+05FF (Greek to Hebrew), U+0700 to U+07FF (Syriac to N'Ko), U+0800 to
# U+1FFF but the Arabic extended blocks' E0 A1-A3 (told by the search after),
# U+3000 to U+DFFF (kana, CJK, Hangul), and beyond the BMP.
_OTHER_LEAD = b"\x00"
_OTHER_LEADS = bytes(
    0
    if 0xCD <= code <= 0xD7
    or 0xDC <= code <= 0xE1
    or 0xE3 <= code <= 0xED
    or code >= 0xF0
    else 1
    for code in range(256)
)


def _transliterated(word: str) -> str:
    for written, latin in _SCRIPT_CONVENTIONS:
        if written in word:
            word = word.replace(written, latin)
    return anyascii(word)


def _romanized(word: str, choice: int) -> str:
    article = word.startswith("ال") and len(word) > 3
    letters = word[2:] if article else word
    latin = ""
    for index, letter in enumerate(letters):
        following = letters[index + 1 : index + 2]
        if letter in "وي" and index > 0:
            ways = ("u", "ou", "o", "oo") if letter == "و" else ("i", "i", "ie", "ee")
        else:
            ways = ROMANIZATIONS.get(letter, ("",))
        latin += ways[min(choice, len(ways) - 1)]
        # The short vowel Arabic leaves out, between two consonants.
        if (
            following
            and letter not in _VOWEL_LETTERS
            and following not in _VOWEL_LETTERS
        ):
            latin += SHORT_VOWELS[choice % 5]
    latin = latin[:1].upper() + latin[1:]
    return f"{('al-', 'El-', 'el-', 'Al')[choice]}{latin}" if article else latin


_VOWEL_LETTERS = frozenset("اويىءعة")


_ARABIC_RE = regex.compile(r"\p{Script=Arabic}")


def as_latin(text: str) -> str:
    """`text` with letters of other scripts, compatibility and decorated forms
    that look like Latin letters read as those letters (Cyrillic а, small capital
    ᴢ, fullwidth Ｍ, 𝐌), as the matcher draws them (identity.text.folding), so a
    romanization typed with some of them is read as written."""
    if text.isascii():
        return text
    found = {char: latin for char in set(text) if (latin := _latin_reading(char))}
    return _read_as(text, found)


@lru_cache(maxsize=8192)
def _latin_reading(char: str) -> str:
    """The ASCII letters `char` is drawn as, if it is a letter outside ASCII and
    Arabic drawn as Latin ones; else ""."""
    if char.isascii() or _ARABIC_RE.match(char):
        return ""
    # Transcription letters (š is sh) and what decomposes into Latin letters (é,
    # Ｍ, 𝐌) are read by `_decomposed`, which keeps what they stand for.
    transcribed = any(char.casefold() == letter for letter, _ in _TRANSCRIPTIONS)
    base = _COMBINING_RE.sub("", unicodedata.normalize("NFKD", char))
    if transcribed or (base != char and base.isascii() and base.isalpha()):
        return ""
    latin = drawn_as(char)
    if latin == "l":
        return "|"  # drawn like l, and so like a capital I: read both ways
    return latin if latin.isascii() and latin.isalpha() else ""


def _ignorable_class() -> str:
    """A character class of Unicode's default-ignorable code points (zero-width
    spaces and joiners, soft hyphen, bidi marks, Hangul fillers, variation
    selectors, tags), as ranges for the standard library's fast sets."""
    # Every code point of the planes that hold any (the first two, and the tags'
    # plane), once, in one string: one pass of the regex engine in C.
    planes = (range(0xD800), range(0xE000, 0x20000), range(0xE0000, 0xF0000))
    every = "".join(chr(code) for plane in planes for code in plane)
    runs = regex.finditer(r"\p{Default_Ignorable_Code_Point}+", every)
    return "".join(f"{re.escape(m[0][0])}-{re.escape(m[0][-1])}" for m in runs)


_IGNORABLE = _ignorable_class()
# Latin letters with separators or invisible characters between them ("Ma-zen",
# "M.a.z.e.n", "Ma\u200bzen"), and single letters spelled out one by one.
_SEPARATED_RE = re.compile(rf"[\w'](?:[-._·{_IGNORABLE}]+[\w'])+")
_SEPARATORS_RE = re.compile(rf"[-._·{_IGNORABLE}]+")
IGNORABLE_RE = re.compile(rf"[{_IGNORABLE}]+")
_SPELLED_OUT_RE = re.compile(r"(?<![\w'])[\w'](?: [\w'](?![\w']))+")


def joined_letters(text: str) -> str:
    """`text` with the Latin letters a reader reads as one word joined: across
    separators and invisible characters between letters, and when spelled out
    one by one ("M a z e n"); letters written outside ASCII are read as Latin
    ones first (as `latin_words` reads them)."""
    joined = _SEPARATED_RE.sub(lambda m: _SEPARATORS_RE.sub("", m[0]), text)
    joined = _SPELLED_OUT_RE.sub(lambda m: m[0].replace(" ", ""), joined)
    if joined.isascii():
        return joined
    return IGNORABLE_RE.sub("", _decomposed(as_latin(joined)))


# Characters of a Latin word a reader may read as l or as i: a capital I and the
# digit one, which UTS #39 draws alike with l (identity.text.folding.look_alikes).
_L_OR_I = {"I": ("i", "l"), "1": ("l", "i")}
_MAX_AMBIGUOUS = 4


def readings_of(word: str) -> frozenset[str]:
    """The keys a Latin word of a page may stand for (`latin_readings`), each
    capital I and digit one read as l and as i (at most four of them in a word;
    the rest as the first)."""
    found: set[str] = set()
    for spelling in _spellings(word):
        found |= latin_readings(spelling)
    return frozenset(found)


def _spellings(word: str) -> list[str]:
    if not any(char in _L_OR_I for char in word):
        return [word]
    spellings = [""]
    ambiguous = 0
    for char in word:
        ways = _L_OR_I.get(char, (char,))
        if len(ways) > 1:
            ambiguous += 1
            if ambiguous > _MAX_AMBIGUOUS:
                ways = ways[:1]
        spellings = [done + way for done in spellings for way in ways]
    return spellings
