"""What the identity matcher costs editors: innocent sentences it refuses.

    .venv/bin/python scripts/bench_identity_refusals.py [--sentences 10000] [--seed 7]

Generates ordinary Arabic and English news sentences from templates and word lists
written for this script (names of ordinary people, places, verbs, topics; the given
and family names of the protected people among them, borne by other people, as in
real copy), runs each through the identity gate's matcher for the demo's protected
person and a handful of protected names of its own, and prints the innocent
refusals per 10,000 sentences, with each refused sentence. No sentence names a
protected person, so every refusal is innocent. No database is needed.
"""

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.test")

import django  # noqa: E402

django.setup()

from demo.newsroom import PEOPLE  # noqa: E402
from identity.gate import IdentityGate  # noqa: E402
from identity.models import Person  # noqa: E402

# Protected people of the bench's own, beside the demo's: common given names, and
# family names that other people in the news bear too.
PROTECTED = [
    ("نزار الحلبوني", "Nizar al-Halbouni"),
    ("سلمى الأحمد", "Salma al-Ahmad"),
    ("يوسف المنصوري", "Yousef al-Mansouri"),
    ("ليلى حداد", "Layla Haddad"),
    ("عمر خالد الشامي", "Omar Khaled al-Shami"),
]

AR_GIVEN = (  # noqa: SIM905
    "محمد أحمد علي عمر خالد مازن نزار يوسف سلمى ليلى هالة رنا سامي حسن كريم "
    "طارق فادي رامي وليد سعاد منى ريم نادين جمال عادل إبراهيم مصطفى هشام "
    "زياد باسل"
).split()
AR_FAMILY = (  # noqa: SIM905
    "الخطيب حداد المنصوري الأحمد الشامي الحلبي العلي الحسن الزعبي النجار "
    "الخوري العمر الصالح الرفاعي الحمصي عيسى يوسف خليل منصور الأيوبي قباني "
    "الحلبوني"
).split()
AR_PLACES = (  # noqa: SIM905
    "دمشق حلب بيروت عمّان القاهرة الإسكندرية بغداد الموصل طرابلس غزة الخليل "
    "الرياض جدة الدوحة تونس الرباط صنعاء عدن حمص اللاذقية"
).split()
AR_ORGS = [
    "وزارة الصحة",
    "البنك المركزي",
    "نقابة المعلمين",
    "بلدية المدينة",
    "جامعة الشام",
    "الهلال الأحمر",
    "غرفة التجارة",
    "اتحاد الكرة",
]
AR_SAID = (  # noqa: SIM905
    "قال أكد أوضح أضاف صرح نفى أعلن كشف"
).split()
AR_TOPICS = [
    "أسعار الخبز ارتفعت للمرة الثالثة هذا العام",
    "المستشفى استقبل عشرات المصابين",
    "الطريق الدولي سيعاد فتحه الأسبوع المقبل",
    "المفاوضات ستستأنف بعد عطلة العيد",
    "الموسم الزراعي تأثر بموجة الجفاف",
    "المدارس ستفتح أبوابها في موعدها",
    "شحنات القمح وصلت إلى الميناء",
    "الانتخابات البلدية ستجري في موعدها",
]
AR_TEMPLATES = [
    "{said} {person} أن {topic}.",
    "{said} {person}، مدير {org} في {place}، أن {topic}.",
    "التقى {person} بـ{person2} في {place} لبحث أوضاع {org}.",
    "وفي {place}، {said} {person} و{person2} أن {topic}.",
    "نقلت وكالات الأنباء عن {person} قوله إن {topic}.",
    "شارك {person} و{person2} و{person3} في اجتماع {org} في {place}.",
    "{given} بن {given2} {family} يتسلم رئاسة {org} في {place}.",
    "عائلة {family} في {place} تستقبل المعزين بوفاة {person}.",
    "{family}، {given}: مهندس من {place} يروي كيف {topic}.",
    "بحضور {person} وممثلين عن {org}، افتتحت في {place} مدرسة جديدة.",
]

EN_GIVEN = (  # noqa: SIM905
    "Mohammed Ahmad Ali Omar Khaled Mazen Nizar Yousef Salma Layla Hala "
    "Rana Sami Hassan Karim Tarek Fadi Rami Walid Souad Mona Reem Nadine "
    "Jamal Adel Ibrahim Mustafa Hisham Ziad Basel John Sarah David Maria"
).split()
EN_FAMILY = (  # noqa: SIM905
    "al-Khatib Haddad al-Mansouri al-Ahmad al-Shami al-Halabi al-Ali "
    "al-Hassan al-Zoubi Najjar Khoury al-Omar Saleh Rifai Homsi Issa "
    "Youssef Khalil Mansour Ayoubi Qabbani Smith Brown Halbouni"
).split()
EN_PLACES = (  # noqa: SIM905
    "Damascus Aleppo Beirut Amman Cairo Alexandria Baghdad Mosul Tripoli "
    "Gaza Hebron Riyadh Jeddah Doha Tunis Rabat Sanaa Aden Homs Latakia"
).split()
EN_ORGS = [
    "the health ministry",
    "the central bank",
    "the teachers' union",
    "the city council",
    "Damascus University",
    "the Red Crescent",
    "the chamber of commerce",
    "the football federation",
]
EN_SAID = (  # noqa: SIM905
    "said confirmed explained added announced denied revealed"
).split()
EN_TOPICS = [
    "bread prices rose for the third time this year",
    "the hospital received dozens of wounded",
    "the highway will reopen next week",
    "talks will resume after the holiday",
    "the harvest suffered from the drought",
    "schools will open on time",
    "wheat shipments reached the port",
    "municipal elections will go ahead as planned",
]
EN_TEMPLATES = [
    "{person} {said} that {topic}.",
    "{person}, head of {org} in {place}, {said} that {topic}.",
    "{person} met {person2} in {place} to discuss {org}.",
    "In {place}, {person} and {person2} {said} that {topic}.",
    "Agencies quoted {person} as saying {topic}.",
    "{person}, {person2} and {person3} attended a meeting of {org} in {place}.",
    "{given} bin {given2} {family} takes over {org} in {place}.",
    "The {family} family in {place} mourns {person}.",
    "{family}, {given}: an engineer from {place} on how {topic}.",
    "With {person} and officials of {org}, a new school opened in {place}.",
]


def _key(given: str, family: str) -> tuple[str, str]:
    """A person's given and family name, compared without case or article."""
    family = family.lower().removeprefix("al-")
    if family.startswith("ال"):
        family = family[2:]
    return given.lower().replace("إ", "ا"), family.replace("أ", "ا")


def _protected_keys() -> set[tuple[str, str]]:
    spellings = [name for pair in PROTECTED for name in pair]
    spellings += [
        spelling
        for person in PEOPLE
        if person["identity_protected"]
        for spelling in [person["name"], *person["other_spellings"].splitlines()]
    ]
    return {_key(s.split()[0], s.split()[-1]) for s in spellings}


def sentences(count: int, seed: int) -> list[str]:
    """`count` sentences, half Arabic, half English. None names a protected person:
    a draw giving anyone in it a protected person's given and family name (without
    the article) is drawn again."""
    rng = random.Random(seed)
    protected = _protected_keys()
    out: list[str] = []
    while len(out) < count:
        arabic = len(out) % 2 == 0
        given, family = (AR_GIVEN, AR_FAMILY) if arabic else (EN_GIVEN, EN_FAMILY)
        people = [(rng.choice(given), rng.choice(family)) for _ in range(4)]
        father = rng.choice(given)
        # The fourth person is also named with a father's name ("X bin Y Z"): Y Z
        # is then a name in the sentence too.
        named = [*people, (father, people[3][1])]
        if any(_key(*person) in protected for person in named):
            continue
        template = rng.choice(AR_TEMPLATES if arabic else EN_TEMPLATES)
        out.append(
            template.format(
                person=" ".join(people[0]),
                person2=" ".join(people[1]),
                person3=" ".join(people[2]),
                given=people[3][0],
                family=people[3][1],
                given2=father,
                place=rng.choice(AR_PLACES if arabic else EN_PLACES),
                org=rng.choice(AR_ORGS if arabic else EN_ORGS),
                said=rng.choice(AR_SAID if arabic else EN_SAID),
                topic=rng.choice(AR_TOPICS if arabic else EN_TOPICS),
            )
        )
    return out


def gate() -> IdentityGate:
    people = [
        Person(
            pk=-(index + 1),
            name=person["name"],
            other_spellings=person.get("other_spellings", ""),
            public_name=person.get("public_name") or "—",
            identity_protected=True,
        )
        for index, person in enumerate(p for p in PEOPLE if p["identity_protected"])
    ]
    people += [
        Person(
            pk=index + 1,
            name=arabic,
            other_spellings=latin,
            public_name=f"pseudonym {index + 1}",
            identity_protected=True,
        )
        for index, (arabic, latin) in enumerate(PROTECTED)
    ]
    return IdentityGate(people)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentences", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    checker = gate()
    spellings = [s for p in checker.people for s in p.legal_spellings]
    print(f"Protected spellings looked for ({len(spellings)}): {', '.join(spellings)}")
    texts = sentences(args.sentences, args.seed)
    refused = [
        (text, [p.legal_spellings[0] for p in found])
        for text in texts
        if (found := checker.people_in(text))
    ]
    rate = len(refused) * 10_000 / len(texts)
    print(
        f"{len(texts)} innocent sentences ({len(texts) // 2} Arabic, "
        f"{len(texts) - len(texts) // 2} English): {len(refused)} refused, "
        f"{rate:.1f} per 10,000."
    )
    distinct = dict.fromkeys(
        f"{text}  [taken for: {', '.join(who)}]" for text, who in refused
    )
    for line in distinct:
        print(f"  {line}")


if __name__ == "__main__":
    main()
